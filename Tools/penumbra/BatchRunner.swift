// Rendering a shard's lines on worker threads. Each worker makes its
// renderer on its own thread (a GPU renderer's GL context belongs to the
// thread that made it) and keeps it, and the scene environment whose filters
// run on it, for every line it takes: nothing is set up per scene. Workers
// take the next line from a shared counter, so a slow scene holds up no
// other, and each does a line's whole work (decode, record, render, encode,
// write): with one worker per core the cores stay busy without a hand-off
// between stages. A line whose output exists is skipped before anything is
// decoded; an output is written to a temporary file beside it and renamed
// (OutputFile), so a failed or interrupted line leaves nothing under its name.
// `stop(signal:)` (SIGINT, SIGTERM) lets each worker finish its line and take no more.
import Dispatch
import Foundation
import Penumbra
import PenumbraGPU
import Synchronization

final class BatchRunner: Sendable {
    struct Settings: Sendable {
        var backend: Backend
        var limits: ResourceLimits
        /// Where relative scene paths, and inline scenes' images, resolve.
        var manifestDirectory: String
        /// --out, resolved (symbolic links followed), created.
        var outDirectory: String
        /// The log's path, which no output may take.
        var logPath: String
    }

    struct Tally: Sendable {
        var rendered = 0, skipped = 0, failed = 0
        var done: Int { rendered + skipped + failed }
    }

    private struct State {
        var next = 0
        var tally = Tally()
        /// The signal that stopped the run, if one did.
        var stoppedBy: Int32?
        var workersReady = 0
        var workerFailure: String?
        /// What `auto` chose, and why (the first worker's renderer note).
        var note: String?
    }

    let settings: Settings
    /// This shard's lines, in manifest order: checked items or their lines' errors.
    let lines: [Result<BatchItem, BatchLineError>]
    let log: BatchLog
    private let state = Mutex(State())

    init(settings: Settings, lines: [Result<BatchItem, BatchLineError>], log: BatchLog) {
        self.settings = settings; self.lines = lines; self.log = log
    }

    /// Lets running lines finish and starts no more (`signal` stopped the run).
    func stop(signal: Int32) { state.withLock { if $0.stoppedBy == nil { $0.stoppedBy = signal } } }

    var tally: Tally { state.withLock { $0.tally } }
    /// The signal that stopped the run, nil when every line was taken.
    var stoppedBy: Int32? { state.withLock { $0.stoppedBy } }

    /// Runs every line on `jobs` workers and returns when they are done, reporting on
    /// `progress`. Throws ToolError(.backendUnavailable) when no worker can make its renderer.
    func run(jobs: Int, progress: Progress) throws -> Tally {
        let group = DispatchGroup()
        for index in 0..<max(1, min(jobs, lines.count)) {
            group.enter()
            let thread = Thread { [self] in
                work(index: index)
                EGLThreadState.release()
                group.leave()
            }
            thread.name = "penumbra.batch.\(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
        let started = ContinuousClock.now
        var said: String?
        while group.wait(timeout: .now() + .milliseconds(250)) == .timedOut {
            if let text = state.withLock({ $0.note }), said == nil { said = text; progress.done(); Diagnostics.print("penumbra: \(text)") }
            let t = tally
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            progress.say("[\(t.done)/\(lines.count)] \(t.rendered) rendered, \(t.skipped) skipped, \(t.failed) failed, "
                         + String(format: "%.1f scenes/s", Double(t.rendered) / max(seconds, 1e-3)))
        }
        progress.done()
        if said == nil, let text = state.withLock({ $0.note }) { Diagnostics.print("penumbra: \(text)") }
        let final = state.withLock { $0 }
        if final.workersReady == 0, let failure = final.workerFailure {
            throw ToolError(.backendUnavailable, "backend \(settings.backend.rawValue) unavailable: \(failure)")
        }
        return final.tally
    }

    // MARK: A worker

    private func work(index: Int) {
        let renderer: Renderer
        do {
            let choice = try settings.backend.makeRenderer()
            renderer = choice.renderer
            if index == 0, let text = choice.note { state.withLock { $0.note = text } }
        } catch let error as BackendUnavailable {
            state.withLock { if $0.workerFailure == nil { $0.workerFailure = error.message } }
            return
        } catch {
            state.withLock { if $0.workerFailure == nil { $0.workerFailure = "\(error)" } }
            return
        }
        state.withLock { $0.workersReady += 1 }
        let environment = SceneEnvironment.standard(renderingWith: renderer)
        while let line = take() {
            let entry: BatchLog.Entry
            var canvasBytes = 0
            switch line {
            case .failure(let error):
                entry = BatchLog.Entry(line: error.line, output: nil, status: .failed, error: error.description)
            case .success(let item):
                entry = process(item, renderer: renderer, environment: environment, canvasBytes: &canvasBytes)
            }
            log.write(entry)
            if entry.status == .failed, let error = entry.error {
                Diagnostics.print("penumbra: line \(entry.line)\(entry.output.map { " (\($0))" } ?? ""): \(error)")
            }
            state.withLock { state in
                switch entry.status {
                case .rendered: state.tally.rendered += 1
                case .skipped: state.tally.skipped += 1
                case .failed: state.tally.failed += 1
                }
            }
            HeapTuning.returnFreedMemory(afterCanvasOf: canvasBytes)
        }
    }

    /// The next line to do, or nil when none is left or the run is stopping.
    private func take() -> Result<BatchItem, BatchLineError>? {
        state.withLock { state in
            guard state.stoppedBy == nil, state.next < lines.count else { return nil }
            defer { state.next += 1 }
            return lines[state.next]
        }
    }

    /// One line: skipped when its output exists, else decoded, rendered, encoded and written.
    private func process(_ item: BatchItem, renderer: Renderer, environment: SceneEnvironment,
                         canvasBytes: inout Int) -> BatchLog.Entry {
        let target = settings.outDirectory + "/" + item.output
        var entry = BatchLog.Entry(line: item.line, output: item.output, status: .failed)
        if FileManager.default.fileExists(atPath: target) {
            entry.status = .skipped
            return entry
        }
        let started = ContinuousClock.now
        do {
            let list = try BatchScene.displayList(for: item, settings: settings, environment: environment)
            let bitmap: Bitmap
            do { bitmap = try renderer.render(list) } catch let e as BackendUnavailable {
                throw BatchLineError(line: item.line, place: "", message: "backend \(settings.backend.rawValue) cannot render this scene: \(e.message)")
            } catch {
                throw BatchLineError(line: item.line, place: "", message: "rendering failed: \(error)")
            }
            canvasBytes = bitmap.pixels.count
            let encoder = BatchScene.encoder(for: item)
            let bytes: [UInt8]
            do { bytes = try encoder.encode(bitmap) } catch {
                throw BatchLineError(line: item.line, place: "", message: "\(encoder.formatName) encoding failed: \(error)")
            }
            try BatchScene.write(bytes, to: target, item: item, settings: settings)
            entry.status = .rendered
            entry.milliseconds = (ContinuousClock.now - started) / .milliseconds(1)
        } catch let error as BatchLineError {
            entry.error = error.description
        } catch let error as ToolError {
            entry.error = error.message
        } catch {
            entry.error = "\(error)"
        }
        return entry
    }
}
