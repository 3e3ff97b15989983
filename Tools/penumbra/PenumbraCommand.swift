// The root command and its subcommands.
import ArgumentParser

struct PenumbraCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "penumbra",
        abstract: "Render Quartz-style scenes headless, on the GPU (EGL + OpenGL ES 3) or the CPU.",
        discussion: """
            Exit status: 0 success; 1 the input was rejected; 2 usage error; 3 the requested \
            backend is unavailable; 4 the output could not be written or rendering failed.
            The scene format is described in docs/scene-format.md, the command in docs/cli.md.
            """,
        version: "0.1.0",
        subcommands: [RenderCommand.self, ParityCommand.self, BenchCommand.self, AnimateCommand.self, BatchCommand.self, ServeCommand.self, SignCommand.self])
}
