// The `penumbra` command. ArgumentParser's own exit codes are mapped onto the
// ones SCENE_FORMAT.md promises: 0 success, 1 input rejected, 2 usage error,
// 3 backend unavailable, 4 output or run-time failure.
import ArgumentParser
import Foundation

let parsed: ParsableCommand
do {
    parsed = try PenumbraCommand.parseAsRoot()
} catch {
    // --help and --version are clean exits; everything else is a usage error.
    if PenumbraCommand.exitCode(for: error) == .success { PenumbraCommand.exit(withError: error) }
    Diagnostics.print(PenumbraCommand.fullMessage(for: error))
    exit(ToolExit.usage.rawValue)
}

do {
    var command = parsed
    try command.run()
    exit(ToolExit.success.rawValue)
} catch let error as ToolError {
    Diagnostics.print("penumbra: \(error.message)")
    exit(error.exit.rawValue)
} catch let error as ExitCode {
    exit(error.rawValue)
} catch where PenumbraCommand.exitCode(for: error) == .success {
    // `penumbra help ...` runs a help command whose run() ends in a clean exit.
    PenumbraCommand.exit(withError: error)
} catch {
    Diagnostics.print("penumbra: \(error)")
    exit(ToolExit.failure.rawValue)
}
