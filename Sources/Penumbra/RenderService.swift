// RenderService: a pool of renderers behind one async call, for servers.
//
// Each worker is a thread of its own that owns its renderers for its whole
// life: a GPU renderer's GL context is current on one thread only, so the
// thread that made it is the only one that ever touches it. A worker holds
// the primary renderer of the pool's backend (a GPU renderer, or none when
// the pool is CPU-only) and a CPU renderer beside it: a job whose GPU render
// fails for any reason but cancellation is rendered again on the CPU, and
// the fallback is reported in the result (a server counts it).
//
// Back-pressure is explicit: at most `workers` jobs run at once and at most
// `queueLimit` wait; one more is refused at once with `.queueFull`, so a
// burst turns into quick refusals instead of unbounded memory and latency.
// A caller that must do work before it has a job (a server reading a
// request's body) takes its place in the queue first with `reserve()`, so the
// refusal comes before that work; the `Reservation` is handed to `render` or,
// on any other path, given back when it is dropped (it is noncopyable, so it
// is used exactly once). A reservation counts against `queueLimit` as a
// queued job does.
// A job's deadline counts from its arrival, its time in the queue included:
// when it passes, the caller gets `.deadlineExceeded` at once, a queued job
// is taken off the queue, and a running one is stopped at its next check by
// its RenderCancellation (between draws and per band of rows inside one), so
// the worker is free again within milliseconds. Cancelling the calling task
// does the same and fails with `.cancelled` (a server cancels the task of a
// request whose client went away).
//
// Stopping has two speeds: `shutdown()` lets running jobs finish (queued
// ones fail), and `shutdown(cancellingRunningJobs: true, waitingAtMost:)`
// cancels them too, answering their callers at once with
// `.cancelledAtShutdown`, and waits for the worker threads at most that long:
// a thread stuck in a loop that does not check its cancellation cannot keep a
// server from exiting.
//
// A job is three steps on the worker's thread: `prepare` (decode a scene
// into a display list), render, and `encode`; each is timed. Decoding on
// the worker keeps parsing and image decoding off the server's event loops
// and inside the same bound on concurrency.
import Dispatch
import Foundation
import PenumbraCPU
import PenumbraGPU
import Synchronization

/// A pool of renderers, one per worker thread, with a bounded queue and per-job deadlines.
public final class RenderService: Sendable {
    /// How the pool is made.
    public struct Configuration: Sendable {
        /// The primary backend of every worker: `.cpu`, `.gpu` (fails to start without one), or
        /// `.auto` (a hardware GPU when one can be made, else the CPU).
        public var backend: Backend
        /// Renders that run at once, each on its own thread and renderer (at least 1).
        public var workers: Int
        /// Jobs that may wait for a worker; one more is refused with `.queueFull`.
        public var queueLimit: Int

        /// A pool of `workers` workers (default: the cores) and a queue of `queueLimit`.
        public init(backend: Backend = .auto, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                    queueLimit: Int = 64) {
            self.backend = backend; self.workers = max(1, workers); self.queueLimit = max(0, queueLimit)
        }
    }

    /// Which renderer a job asks for.
    public enum Preference: String, Sendable, Hashable, CaseIterable {
        /// The worker's primary renderer.
        case auto
        /// The CPU renderer.
        case cpu
        /// The GPU renderer (refused with `.unavailable` in a pool without one).
        case gpu
    }

    /// One render: how to get the display list, which renderer, the deadline, how to encode.
    public struct Job: Sendable {
        /// Makes the display list on the worker's thread (decoding a scene) in the environment it
        /// is given: the standard one, its offscreen images and filters drawn by the renderer the
        /// job will render on (`SceneEnvironment.standard(renderingWith:)`). Its errors are the job's.
        public var prepare: @Sendable (SceneEnvironment) throws -> DisplayList
        /// The renderer to use.
        public var preference: Preference
        /// When the job must be done, counted from its arrival; nil: no deadline.
        public var deadline: ContinuousClock.Instant?
        /// Turns the pixels into the bytes to deliver (PNG, ...).
        public var encode: @Sendable (Bitmap) throws -> [UInt8]

        /// A job whose display list needs no environment; `encode` defaults to PNG.
        public init(preference: Preference = .auto, deadline: ContinuousClock.Instant? = nil,
                    prepare: @escaping @Sendable () throws -> DisplayList,
                    encode: @escaping @Sendable (Bitmap) throws -> [UInt8] = { try PNGCodec.encode($0) }) {
            self.init(preference: preference, deadline: deadline, decoding: { _ in try prepare() }, encode: encode)
        }

        /// A job that decodes its display list in the worker's environment (a scene whose filters
        /// then run on the worker's own renderer, with no other context made); `encode` defaults
        /// to PNG.
        public init(preference: Preference = .auto, deadline: ContinuousClock.Instant? = nil,
                    decoding: @escaping @Sendable (SceneEnvironment) throws -> DisplayList,
                    encode: @escaping @Sendable (Bitmap) throws -> [UInt8] = { try PNGCodec.encode($0) }) {
            self.prepare = decoding; self.preference = preference; self.deadline = deadline; self.encode = encode
        }
    }

    /// A finished job.
    public struct Output: Sendable {
        /// The encoded image.
        public var bytes: [UInt8]
        /// The backend that rendered it (`.cpu` or `.gpu`).
        public var backend: Backend
        /// True when a GPU render failed and the CPU rendered the job instead.
        public var fellBack: Bool
        /// Seconds spent waiting for a worker, preparing, rendering and encoding.
        public var queueSeconds: Double, prepareSeconds: Double, renderSeconds: Double, encodeSeconds: Double
        /// What the job's scene drew otherwise than asked (its display list's warnings); this job's only.
        public var warnings: [RenderWarning] = []
    }

    /// Why a job was not done (its own errors, from `prepare` or `encode`, pass through as they are).
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The queue already holds `queueLimit` jobs.
        case queueFull
        /// The deadline passed before the job was done; it was stopped.
        case deadlineExceeded
        /// The caller cancelled the job (a server: its client went away); it was stopped.
        case cancelled
        /// The service is stopping or stopped.
        case shuttingDown
        /// The service stopped while the job waited, ran or was reserved; it was cancelled.
        case cancelledAtShutdown
        /// No renderer of the pool can take the job (a GPU asked of a pool without one).
        case unavailable(String)

        public var description: String {
            switch self {
            case .queueFull: return "the render queue is full"
            case .deadlineExceeded: return "the request passed its deadline"
            case .cancelled: return "the render was cancelled by its caller"
            case .shuttingDown: return "the render service is shutting down"
            case .cancelledAtShutdown: return "the render service stopped before the job was done; it was cancelled"
            case .unavailable(let why): return why
            }
        }
    }

    /// Counts for monitoring, read at any time.
    public struct Statistics: Sendable, Hashable {
        /// Jobs waiting for a worker.
        public var queued: Int
        /// Places in the queue reserved for jobs not yet handed over (`reserve()`).
        public var reserved: Int
        /// Jobs running now.
        public var inFlight: Int
        /// Workers whose renderers are made and warmed.
        public var readyWorkers: Int
        /// GPU renders that failed and were done on the CPU.
        public var gpuFallbacks: Int
    }

    let configuration: Configuration
    let state = Mutex(PoolState())
    let wake = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)

    /// Starts the workers; each makes and warms its renderers on its own thread (see `ready`).
    /// Throws `BackendUnavailable` when `.gpu` is asked for and the first worker cannot make one.
    public init(_ configuration: Configuration) throws {
        self.configuration = configuration
        HeapTuning.configure()
        let first = DispatchSemaphore(value: 0)
        let firstError = Mutex<Error?>(nil)
        for index in 0..<configuration.workers {
            let thread = Thread { [self] in
                // The worker (and its GL context) lives inside `serve`; EGL's thread state is freed
                // after it is gone, and only then does shutdown() learn that the thread ended.
                func serve() {
                    let worker: Worker
                    do { worker = try Worker(backend: configuration.backend) } catch {
                        if index == 0 { firstError.withLock { $0 = error } }
                        state.withLock { $0.failedWorkers += 1 }
                        if index == 0 { first.signal() }
                        return
                    }
                    state.withLock { $0.readyWorkers += 1 }
                    if index == 0 { first.signal() }
                    runWorker(worker)
                }
                serve()
                EGLThreadState.release()
                stopped.signal()
            }
            thread.name = "penumbra.render.\(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
        first.wait()
        if let error = firstError.withLock({ $0 }) {
            shutdown()
            throw error
        }
    }

    /// True when every worker has made and warmed its renderers and the service is not stopping.
    public var isReady: Bool {
        state.withLock { $0.readyWorkers == configuration.workers && !$0.stopping }
    }

    /// Waits (polling, for start-up only) until every worker is ready or `timeout` passes.
    public func waitUntilReady(timeout: Duration = .seconds(60)) async -> Bool {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            if isReady { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return isReady
    }

    /// The counts now.
    public var statistics: Statistics {
        state.withLock {
            Statistics(queued: $0.queue.count, reserved: $0.reserved, inFlight: $0.running, readyWorkers: $0.readyWorkers,
                       gpuFallbacks: $0.gpuFallbacks)
        }
    }

    /// Renders one job on a worker; throws `Failure` (queue full, deadline, cancelled, shutting
    /// down, unavailable), `RenderCancelled` never (it becomes `.deadlineExceeded` or `.cancelled`),
    /// or the job's own error. Cancelling the calling task stops the job as a deadline does.
    /// The same as `render(_:using:)` with a place reserved now.
    public func render(_ job: Job) async throws -> Output {
        try await render(job, using: try reserve())
    }

    // MARK: Admission

    /// A place in the queue, taken before the job exists (`reserve()`): a server takes one when a
    /// request's head arrives, and reads the body only when it has one. Hand it to
    /// `render(_:using:)`; dropped on any other path, it is given back. It counts against
    /// `queueLimit` as a queued job does.
    public struct Reservation: ~Copyable, Sendable {
        private let service: RenderService
        private var handedOver = false

        fileprivate init(service: RenderService) { self.service = service }

        /// Marks the place taken over by a job (the count moves to the queue), so that dropping
        /// the reservation gives nothing back.
        fileprivate consuming func handOver() { handedOver = true }

        deinit { if !handedOver { service.giveBack() } }
    }

    /// Reserves a place; throws `.queueFull` when every idle worker is spoken for and `queueLimit`
    /// jobs and reservations would wait beyond them (so a queue limit of 0 still admits a job
    /// that an idle worker takes at once), `.shuttingDown` when the service is stopping.
    public func reserve() throws -> Reservation {
        try state.withLock { state in
            guard !state.stopping else { throw Failure.shuttingDown }
            let idleWorkers = max(0, state.readyWorkers - state.running)
            guard state.queue.count + state.reserved < configuration.queueLimit + idleWorkers else { throw Failure.queueFull }
            state.reserved += 1
        }
        return Reservation(service: self)
    }

    /// A dropped reservation's place, back to the queue.
    private func giveBack() { state.withLock { $0.reserved -= 1 } }

    /// Renders `job` in the place `reservation` holds; throws as `render(_:)` does, and
    /// `.cancelledAtShutdown` when the service stopped since the place was reserved.
    public func render(_ job: Job, using reservation: consuming Reservation) async throws -> Output {
        let entry = Entry(job: job)
        reservation.handOver()
        try state.withLock { state in
            state.reserved -= 1
            guard !state.stopping else { throw Failure.cancelledAtShutdown }
            state.queue.append(entry)
            state.active[ObjectIdentifier(entry)] = entry
        }
        defer { _ = state.withLock { $0.active.removeValue(forKey: ObjectIdentifier(entry)) } }
        wake.signal()
        // A dispatch timer, cancelled when the job ends (DeadlineTimer.swift says why not a Task).
        let timer = job.deadline.map { deadline in
            DeadlineTimer(at: deadline) { [weak self, weak entry] in
                if let self, let entry { self.expire(entry, with: .deadlineExceeded) }
            }
        }
        defer { timer?.cancel() }
        return try await withTaskCancellationHandler {
            try await entry.result()
        } onCancel: {
            self.expire(entry, with: .cancelled)
        }
    }

    /// Ends a job early: off the queue if it waits, stopped at its next draw if it runs.
    private func expire(_ entry: Entry, with failure: Failure) {
        state.withLock { state in state.queue.removeAll { $0 === entry } }
        entry.cancellation.cancel()
        entry.finish(.failure(failure))
    }

    /// Stops the service; idempotent, and a later call may cancel what an earlier one let run.
    /// Queued jobs fail at once (`.shuttingDown`, or `.cancelledAtShutdown` when cancelling) and
    /// no job is taken from then on. Running jobs finish, or with `cancellingRunningJobs` are
    /// cancelled (stopped at their next check) and their callers get `.cancelledAtShutdown` at once.
    /// Then waits for every worker thread to end, for at most `timeout` when one is given (nil:
    /// for as long as they take). Returns true when every worker thread has ended.
    @discardableResult
    public func shutdown(cancellingRunningJobs: Bool = false, waitingAtMost timeout: Duration? = nil) -> Bool {
        let (waiting, running, firstCall) = state.withLock { state -> ([Entry], [Entry], Bool) in
            let first = !state.stopping
            state.stopping = true
            let waiting = state.queue
            state.queue.removeAll()
            return (waiting, cancellingRunningJobs ? Array(state.active.values) : [], first)
        }
        for entry in waiting { entry.finish(.failure(cancellingRunningJobs ? Failure.cancelledAtShutdown : Failure.shuttingDown)) }
        for entry in running {
            entry.cancellation.cancel()
            entry.finish(.failure(Failure.cancelledAtShutdown))
        }
        if firstCall { for _ in 0..<configuration.workers { wake.signal() } }
        return waitForWorkers(until: timeout.map { DispatchTime.now() + .nanoseconds(Int(clamping: $0.nanoseconds)) })
    }

    /// Waits until every worker thread has ended or `deadline` passes; true when they all ended.
    private func waitForWorkers(until deadline: DispatchTime?) -> Bool {
        while state.withLock({ $0.endedWorkers < configuration.workers }) {
            if let deadline {
                guard stopped.wait(timeout: deadline) == .success else { return false }
            } else {
                stopped.wait()
            }
            state.withLock { $0.endedWorkers += 1 }
        }
        return true
    }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to Int64.
    fileprivate var nanoseconds: Int64 {
        let (seconds, overflow) = components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? (components.seconds < 0 ? .min : .max) : seconds &+ components.attoseconds / 1_000_000_000
    }
}

/// The pool's shared state, under `RenderService.state`.
struct PoolState {
    var queue: [RenderService.Entry] = []
    var running = 0
    var readyWorkers = 0
    var failedWorkers = 0
    var gpuFallbacks = 0
    var stopping = false
    /// Places reserved with `reserve()`, not yet handed to `render`.
    var reserved = 0
    /// Every job between `render`'s start and end (queued or running), for cancelling at shutdown.
    var active: [ObjectIdentifier: RenderService.Entry] = [:]
    /// Worker threads whose end a shutdown has seen.
    var endedWorkers = 0
}
