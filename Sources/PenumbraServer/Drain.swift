// Drain: the server's stop, in time. SIGTERM or SIGINT (or
// RenderServer.shutdown()) starts the drain: /readyz turns 503, new requests
// are refused with 503, and what is in flight (queued, rendering, or reading
// its body with a place in the queue) goes on. When `--drain-seconds` have
// passed, the drain runs out: every render still queued or running is
// cancelled and its request answered 503 at once, counted and logged as
// cancelled at shutdown. The HTTP server gets `answerSeconds` more to write
// those answers and close, and `cancelSeconds` more after it is cancelled;
// then the render threads get `joinSeconds` to end. A thread that does not
// (a loop that never checks its cancellation) is left behind: the process
// exits 0 anyway, at most drain + answer + cancel + join seconds after the
// signal.
import Synchronization

/// Where the drain stands; read from any thread.
final class DrainState: Sendable {
    private let started = Atomic<Bool>(false)
    private let ranOut = Atomic<Bool>(false)

    /// Seconds after the drain's end for the HTTP server to answer and close gracefully.
    static let answerSeconds = 1.0
    /// Seconds for the HTTP server to stop once cancelled, before the server stops waiting for it.
    static let cancelSeconds = 2.0
    /// Seconds for the render threads to end after the HTTP server has stopped.
    static let joinSeconds = 2.0

    /// The drain has started: new requests are refused.
    var isDraining: Bool { started.load(ordering: .relaxed) }

    /// The drain ran out: what still runs is being cancelled.
    var deadlinePassed: Bool { ranOut.load(ordering: .relaxed) }

    /// Starts the drain; true the first time.
    func begin() -> Bool { !started.exchange(true, ordering: .relaxed) }

    /// Marks the drain run out (and started); true the first time.
    func runOut() -> Bool {
        started.store(true, ordering: .relaxed)
        return !ranOut.exchange(true, ordering: .relaxed)
    }
}

/// A one-time signal that any number of tasks can wait for.
final class OnceSignal: Sendable {
    private let state = Mutex<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Fires the signal (the first call) and wakes every waiter.
    func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.fired else { return [] }
            state.fired = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// True once fired.
    var hasFired: Bool { state.withLock { $0.fired } }

    /// Returns when the signal has fired.
    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.fired { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
