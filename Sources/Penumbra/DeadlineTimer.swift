// DeadlineTimer: run an action at a deadline unless cancelled first, for
// long-running servers that arm one per request. It is a dispatch timer
// source, not a sleeping task: cancelling a source unregisters it at once,
// while a cancelled `Task.sleep` keeps its timer and its task's memory until
// the deadline would have come (about 0.8 KB a request for as long as the
// deadline, which the 100,000-request soak saw as resident memory growing
// for tens of thousands of requests).
import Dispatch

/// An action scheduled for a deadline; `cancel()` drops it and its memory at once.
package final class DeadlineTimer {
    private let source: DispatchSourceTimer

    /// Runs `action` at `deadline` (at once when it has passed) on a shared serial queue;
    /// the action should be short (flip a flag, resume a waiter, close a channel).
    package init(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) {
        let left = ContinuousClock.now.duration(to: deadline)
        let nanoseconds = max(0, left.components.seconds * 1_000_000_000 + left.components.attoseconds / 1_000_000_000)
        source = DispatchSource.makeTimerSource(queue: DeadlineTimer.queue)
        source.schedule(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)), leeway: .milliseconds(1))
        source.setEventHandler(handler: action)
        source.resume()
    }

    /// Drops the action if it has not run; idempotent.
    package func cancel() { source.cancel() }

    private static let queue = DispatchQueue(label: "penumbra.deadlines")
}
