// `penumbra parity SCENE.json... [--report DIR]`
//
// Renders each scene on the CPU reference and on the GPU, applies the parity
// contract (ParityCheck) and prints one line per scene as it goes, then a
// summary. Every scene is tried even when an earlier one fails, so one run
// over a corpus shows everything that is wrong; the exit status is the most
// serious thing that happened (see the discussion text below). With
// --report, each scene's images are written as soon as it is checked and
// index.html (ParityReport) at the end.
import ArgumentParser
import Foundation
import Penumbra

struct ParityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parity", abstract: "Check that the GPU renders scenes as the CPU reference does.",
        discussion: """
            Renders each scene on both backends and applies the parity contract (docs/cli.md, \
            "penumbra parity"): byte identity. Prints one line per scene (size and `identical PASS`, or the max difference, \
            the percent of channel values and the pixels that differ and FAIL) and a summary. Every \
            scene is checked even after a failure.

            Exit status: 0 every scene passes; 1 some scene breaks the contract or was rejected (the \
            message names the file and place); 2 usage error; 3 the GPU is unavailable, or cannot render \
            some scene's size; 4 the report could not be written (stops at once) or rendering failed at \
            run time. When several apply, the highest wins.

            --report DIR creates DIR and its parents and writes NAME-cpu.png, NAME-gpu.png and \
            NAME-diff.png (each channel's difference times 32) per scene, NAME being the scene file's \
            name without .json (made unique with -2, -3, ...), and index.html showing them side by side.
            """)

    @Argument(help: "Scene files (JSON), checked in this order.")
    var scenes: [String]
    @Option(help: "Folder for the report (images and index.html); created with its parents.")
    var report: String?
    @OptionGroup var limits: LimitOptions
    @OptionGroup var assets: AssetOptions

    func validate() throws {
        guard !scenes.isEmpty else { throw ValidationError("give at least one scene") }
    }

    func run() throws {
        let cpu = try Backend.cpu.makeRenderer().renderer
        let gpu: Renderer
        do { gpu = try Backend.gpu.makeRenderer().renderer } catch let e as BackendUnavailable {
            throw ToolError(.backendUnavailable, "backend gpu unavailable: \(e.message)")
        }
        let writer = try report.map { try ParityReport(directory: $0) }
        let progress = Progress()
        var names = ReportNames()
        var outcomes: [ParityOutcome] = []
        let pathWidth = scenes.map(\.count).max() ?? 0 // lines are printed as they come, aligned
        for (index, path) in scenes.enumerated() {
            progress.say("[\(index + 1)/\(scenes.count)] \(path)")
            var outcome = ParityOutcome(path: path, name: names.unique(for: path), result: .error(.failure, ""))
            var images: (cpu: Bitmap, gpu: Bitmap)?
            do {
                images = try renderBoth(path, cpu: cpu, gpu: gpu)
                outcome.result = .compared(ParityCheck.check(reference: images!.cpu, candidate: images!.gpu))
            } catch let error as ToolError {
                progress.done()
                Diagnostics.print("penumbra: \(error.message)")
                outcome.result = .error(error.exit, error.message)
            }
            progress.done()
            print(outcome.line(pathWidth: pathWidth))
            outcomes.append(outcome)
            // A report that cannot be written ends the run (exit 4): its point is lost.
            if let images { try writer?.writeImages(name: outcome.name, cpu: images.cpu, gpu: images.gpu) }
        }
        let summary = ParityOutcome.summary(outcomes)
        print(summary)
        try writer?.writeIndex(outcomes, cpuRenderer: cpu.name, gpuRenderer: gpu.name, date: Date())
        if let worst = outcomes.compactMap(\.exitStatus).max(by: { $0.rawValue < $1.rawValue }) {
            throw ToolError(worst, "parity: \(summary)")
        }
    }

    /// Decodes the scene and renders it on both backends; errors carry their exit status.
    private func renderBoth(_ path: String, cpu: Renderer, gpu: Renderer) throws -> (cpu: Bitmap, gpu: Bitmap) {
        let scene = try SceneLoading.load(path, limits: limits.limits, scale: nil, assets: assets.assets)
        let list = try SceneLoading.record(scene, from: path)
        let reference: Bitmap
        do { reference = try cpu.render(list) } catch {
            throw ToolError(.failure, "\(path): rendering on the CPU failed: \(error)")
        }
        do { return (reference, try gpu.render(list)) } catch let e as BackendUnavailable {
            throw ToolError(.backendUnavailable, "\(path): the GPU cannot render this scene: \(e.message)")
        } catch {
            throw ToolError(.failure, "\(path): rendering on the GPU failed: \(error)")
        }
    }
}

/// One scene's line of the run: its verdict, or why it could not be checked.
struct ParityOutcome {
    enum Result {
        case compared(ParityVerdict)
        /// The scene was rejected or could not be rendered: the exit status and the message.
        case error(ToolExit, String)
    }
    /// The scene file as given on the command line.
    var path: String
    /// The scene's unique name in the report (file names and anchors).
    var name: String
    var result: Result

    /// The exit status this scene calls for, nil when it passes.
    var exitStatus: ToolExit? {
        switch result {
        case .compared(let verdict): return verdict.passes ? nil : .rejected
        case .error(let status, _): return status
        }
    }

    /// The line printed for this scene, its path padded to `pathWidth`.
    func line(pathWidth: Int) -> String {
        let name = path.padding(toLength: max(pathWidth, path.count), withPad: " ", startingAt: 0)
        switch result {
        case .compared(let verdict): return "\(name)  \(verdict.summary)"
        case .error(_, let message):
            let prefix = "\(path): "
            return "\(name)  ERROR  " + (message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message)
        }
    }

    /// "N passed, N failed" (and errors when there are some).
    static func summary(_ outcomes: [ParityOutcome]) -> String {
        var passed = 0, failed = 0, errors = 0
        for o in outcomes {
            switch o.result {
            case .compared(let v): if v.passes { passed += 1 } else { failed += 1 }
            case .error: errors += 1
            }
        }
        return "\(passed) passed, \(failed) failed" + (errors > 0 ? ", \(errors) could not be checked" : "")
    }
}
