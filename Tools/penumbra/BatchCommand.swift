// `penumbra batch MANIFEST.jsonl --out DIR [--backend auto|cpu|gpu] [--shard K/N] [--jobs N] [--log FILE]`
//
// Renders one scene per manifest line (BatchManifest.swift gives the line's
// shape) into DIR, on worker threads that each keep one renderer
// (BatchRunner.swift). A run can be repeated: lines whose output exists are
// skipped, and outputs appear only whole (temporary file, then rename). A
// line that fails is logged (BatchLog.swift) and the rest go on; the exit
// status is 1 when any line failed. The manifest is checked whole before
// anything renders, so that every shard agrees on which line owns an output.
import ArgumentParser
import Dispatch
import Foundation
import Penumbra

struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch", abstract: "Render the scenes of a JSON Lines manifest into a folder, resumably.",
        discussion: """
            Each line of the manifest is an object: {"scene": "a.json" or a scene object, "output": "a.png"}, \
            with optional "format" (png, jpeg, webp; default from the output's extension), "quality" \
            (1...100, default 90), "lossless" (WebP), "scale" and "time". Scene paths and an inline \
            scene's images resolve against the manifest's folder; outputs are relative paths under --out \
            (no absolute paths, no .., no two lines with one output). Lines are numbered from 1.

            Lines whose output exists are skipped, so a run that stopped can be started again. Each \
            output is written to a temporary file and renamed. Every line this process takes gets one \
            entry in the log: {"line", "output", "status": rendered|skipped|failed, "error", "ms"}.

            Exit status: 0 every line rendered or skipped; 1 some line failed (the others are still \
            rendered; the log and stderr name each line and place); 2 usage error (a bad --shard, the Job's variables out of \
            range, an unreadable manifest); 3 the backend is unavailable; 4 --out or the log cannot \
            be written; 130 or 143 SIGINT or SIGTERM stopped the run (the lines in progress were \
            finished, the rest can be resumed).
            """)

    @Argument(help: "The manifest (JSON Lines: one render per line), or - for standard input.")
    var manifest: String
    @Option(help: "The folder the outputs are written under (created with its parents).")
    var out: String
    @Option(help: "auto (a hardware GPU when EGL offers one, else CPU), cpu or gpu.")
    var backend: Backend = .auto
    @Option(help: ArgumentHelp("K/N: render only the lines whose 0-based index i has i mod N == K.",
                               discussion: "Default: JOB_COMPLETION_INDEX/JOB_COMPLETIONS when both are set (a Kubernetes Indexed Job), else every line."))
    var shard: String?
    @Option(help: "Lines rendered at once, each by a worker with its own renderer (default: the cores).")
    var jobs: Int?
    @Option(help: "The log, one JSON object per line taken (default: OUT/batch-log.jsonl; with a shard, OUT/batch-log-K-of-N.jsonl).")
    var log: String?
    @OptionGroup var limits: LimitOptions

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        _ = try chosenShard()
    }

    /// --shard, else the Indexed Job's variables, else every line.
    func chosenShard() throws -> BatchShard? {
        if let shard { return try BatchShard.parse(shard) }
        return try BatchShard.fromEnvironment()
    }

    func run() throws {
        let started = ContinuousClock.now
        let shard = try chosenShard()
        HeapTuning.configure()
        let (bytes, manifestDirectory) = try readManifest()
        let outDirectory = try makeOutDirectory()
        let logPath = absolute(log ?? (outDirectory + "/" + (shard.map { "batch-log-\($0.index)-of-\($0.count).jsonl" } ?? "batch-log.jsonl")))
        let lines = BatchManifest.lines(of: bytes)
        let taken = BatchCommand.check(lines, shard: shard ?? .all)
        let batchLog = try BatchLog(path: logPath)
        let runner = BatchRunner(settings: .init(backend: backend, limits: limits.limits, manifestDirectory: manifestDirectory,
                                                 outDirectory: outDirectory, logPath: logPath),
                                 lines: taken, log: batchLog)
        let signals = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                runner.stop(signal: number)
                signal(number, SIG_DFL) // a second one ends the process at once
            }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        let tally = try runner.run(jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, progress: Progress())
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        print("\(tally.rendered) rendered, \(tally.skipped) skipped, \(tally.failed) failed of \(taken.count) lines"
              + (shard.map { " (shard \($0) of \(lines.count) lines)" } ?? "")
              + String(format: " in %.2f s, %.2f scenes/s", seconds, Double(tally.rendered) / max(seconds, 1e-9)) + "; log: \(logPath)")
        if let failure = batchLog.writeFailure { throw ToolError(.failure, failure) }
        if let number = runner.stoppedBy, tally.done < taken.count {
            // 128 + the signal, as a shell reports a process the signal ended: not a line's failure.
            Diagnostics.print("penumbra: batch stopped by signal \(number) after the lines in progress; "
                              + "\(taken.count - tally.done) lines not done (run it again to resume)")
            throw ExitCode(128 + number)
        }
        if tally.failed > 0 { throw ToolError(.rejected, "batch: \(tally.failed) of \(taken.count) lines failed; see \(logPath)") }
    }

    /// Every line checked (so that a duplicate output is found whichever shard holds it); the
    /// shard's lines, in order. A later line with an earlier line's output fails.
    static func check(_ lines: [ArraySlice<UInt8>], shard: BatchShard) -> [Result<BatchItem, BatchLineError>] {
        var owners: [String: Int] = [:]
        var taken: [Result<BatchItem, BatchLineError>] = []
        for (index, bytes) in lines.enumerated() {
            let number = index + 1
            var result = BatchManifest.parse(bytes, number: number)
            if case .success(let item) = result {
                if let owner = owners[item.output] {
                    result = .failure(BatchLineError(line: number, place: "output",
                                                     message: "\"\(item.output)\" is line \(owner)'s output too; each output belongs to one line"))
                } else {
                    owners[item.output] = number
                }
            }
            if shard.owns(lineIndex: index) { taken.append(result) }
        }
        return taken
    }

    /// The manifest's bytes and the folder its relative paths resolve against; an unreadable
    /// manifest is a usage error (exit 2).
    private func readManifest() throws -> ([UInt8], String) {
        if manifest == "-" {
            return ([UInt8](FileHandle.standardInput.readDataToEndOfFile()), FileManager.default.currentDirectoryPath)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: manifest, isDirectory: &isDirectory), !isDirectory.boolValue,
              let data = FileManager.default.contents(atPath: manifest) else {
            throw ToolError(.usage, "\(manifest): cannot read the manifest")
        }
        let folder = (absolute(manifest) as NSString).deletingLastPathComponent
        return ([UInt8](data), folder)
    }

    /// --out, created with its parents, as an absolute path with symbolic links resolved (the
    /// root outputs must stay under).
    private func makeOutDirectory() throws -> String {
        do { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) } catch {
            throw ToolError(.failure, "--out \(out): cannot create the folder (\(error.localizedDescription))")
        }
        return (absolute(out) as NSString).resolvingSymlinksInPath
    }

    private func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        return (full as NSString).standardizingPath
    }
}
