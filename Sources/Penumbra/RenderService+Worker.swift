// The worker side of RenderService: a job's entry (its result, delivered
// once, to a waiter that may come before or after it), the renderers a
// worker owns, and the loop each worker thread runs. A job runs with its
// RenderCancellation bound as the current token, so a deadline or a client
// that left stops whatever loop the job is in (decoding, stroking, shaping,
// a blur, a band of rows, encoding), not only the step between two draws.
import Dispatch
import Foundation
import PenumbraCPU
import PenumbraGPU
import Synchronization

extension RenderService {
    /// A queued or running job and its one result.
    final class Entry: Sendable {
        let job: Job
        let cancellation = RenderCancellation()
        let arrival = ContinuousClock.now
        private let slot = Mutex<(result: Result<Output, Error>?, waiter: CheckedContinuation<Output, Error>?)>((nil, nil))

        init(job: Job) { self.job = job }

        /// True once a result is set (done, failed or expired).
        var isFinished: Bool { slot.withLock { $0.result != nil } }

        /// Sets the result unless one is set already, and wakes the waiter.
        func finish(_ result: Result<Output, Error>) {
            let waiter = slot.withLock { slot -> CheckedContinuation<Output, Error>? in
                guard slot.result == nil else { return nil }
                slot.result = result
                defer { slot.waiter = nil }
                return slot.waiter
            }
            waiter?.resume(with: result)
        }

        /// Waits for the result.
        func result() async throws -> Output {
            try await withCheckedThrowingContinuation { continuation in
                let ready = slot.withLock { slot -> Result<Output, Error>? in
                    if let result = slot.result { return result }
                    slot.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        }
    }

    /// The renderers one worker thread owns: the primary GPU renderer (if any) and a CPU one.
    final class Worker {
        let gpu: Renderer?
        let cpu = CPURenderer()
        /// The bytes of the last job's canvas (0 when it made none), for the heap trim after it.
        var lastCanvasBytes = 0
        /// The scene environments drawing offscreen images and filters on each renderer, made on first use.
        private var environments: [Bool: SceneEnvironment] = [:]

        /// The standard environment, its offscreen images and filters drawn by the GPU renderer
        /// (`onGPU`) or the CPU one.
        func environment(onGPU: Bool) -> SceneEnvironment {
            if let environment = environments[onGPU] { return environment }
            let environment = SceneEnvironment.standard(renderingWith: onGPU ? (gpu ?? cpu) : cpu)
            environments[onGPU] = environment
            return environment
        }

        /// Makes the renderers on the calling thread (the worker's) and warms them with a small
        /// scene, so that the first request pays no set-up.
        init(backend: Backend) throws {
            switch backend {
            case .cpu: gpu = nil
            case .gpu: gpu = try Backend.makeGPURenderer()
            case .auto: gpu = try? Backend.makeGPURenderer(hardwareOnly: true)
            }
            let warmUp = Worker.warmUpList()
            if let gpu { _ = try gpu.render(warmUp) }
            _ = try cpu.render(warmUp)
        }

        /// A small list touching the common paths: a background, a filled path, a shadow.
        static func warmUpList() -> DisplayList {
            let context = GraphicsContext(pixelWidth: 32, pixelHeight: 32, scale: 1, background: Color(red: 1, green: 1, blue: 1, alpha: 1))
            context.setFillColor(Color(red: 0.2, green: 0.4, blue: 0.8, alpha: 1))
            context.setShadow(offset: Size(width: 2, height: 2), blur: 3, color: Color(red: 0, green: 0, blue: 0, alpha: 0.5))
            context.fill(Path(ellipseIn: Rect(x: 4, y: 4, width: 20, height: 20)))
            return context.displayList
        }
    }

    /// The loop of one worker thread: take the oldest job, run it, until the service stops.
    func runWorker(_ worker: Worker) {
        while true {
            wake.wait()
            let next = state.withLock { state -> (entry: Entry?, stop: Bool) in
                if state.stopping && state.queue.isEmpty { return (nil, true) }
                guard !state.queue.isEmpty else { return (nil, false) }
                state.running += 1
                return (state.queue.removeFirst(), false)
            }
            if next.stop { return }
            guard let entry = next.entry else { continue }
            if !entry.isFinished {
                // The job's token is the current one for all of its work: the decoder, the
                // recording, the renderers and the encoders look at it in their long loops.
                let result = entry.cancellation.during { run(entry, on: worker) }
                entry.finish(result)
                HeapTuning.returnFreedMemory(afterCanvasOf: worker.lastCanvasBytes)
                worker.lastCanvasBytes = 0
            }
            state.withLock { $0.running -= 1 }
        }
    }

    /// Prepares, renders (falling back from the GPU to the CPU) and encodes one job.
    private func run(_ entry: Entry, on worker: Worker) -> Result<Output, Error> {
        let clock = ContinuousClock()
        let started = clock.now
        let queueSeconds = seconds(started - entry.arrival)
        do {
            try entry.cancellation.check()
            // Decoding filters the scene's filtered images on the renderer the job will use.
            let rendersOnGPU = entry.job.preference != .cpu && worker.gpu != nil
            let list = try entry.job.prepare(worker.environment(onGPU: rendersOnGPU))
            let prepared = clock.now
            var backend = Backend.cpu
            var fellBack = false
            let bitmap: Bitmap
            switch (entry.job.preference, worker.gpu) {
            case (.gpu, nil):
                throw Failure.unavailable("no GPU renderer in this server (its backend is cpu)")
            case (.cpu, _), (.auto, nil):
                bitmap = try worker.cpu.render(list, cancellation: entry.cancellation)
            case (_, let gpu?):
                do {
                    bitmap = try gpu.render(list, cancellation: entry.cancellation)
                    backend = .gpu
                } catch is RenderCancelled {
                    throw RenderCancelled()
                } catch {
                    fellBack = true
                    state.withLock { $0.gpuFallbacks += 1 }
                    bitmap = try worker.cpu.render(list, cancellation: entry.cancellation)
                }
            }
            let rendered = clock.now
            worker.lastCanvasBytes = bitmap.pixels.count
            try entry.cancellation.check()
            let bytes = try entry.job.encode(bitmap)
            let encoded = clock.now
            return .success(Output(bytes: bytes, backend: backend, fellBack: fellBack, queueSeconds: queueSeconds,
                                   prepareSeconds: seconds(prepared - started), renderSeconds: seconds(rendered - prepared),
                                   encodeSeconds: seconds(encoded - rendered), warnings: list.warnings))
        } catch is RenderCancelled {
            return .failure(Failure.deadlineExceeded)
        } catch {
            return .failure(error)
        }
    }

    private func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}
