// PlanningPool: the process's one set of planning threads, shared by every
// render (the CLI's, a RenderPipeline's, each server worker's), so that no
// render starts threads of its own and concurrent renders never run more
// planners than the machine has cores (Parallelism.maxThreads). The threads
// start on first use and live as long as the process.
//
// A render's PlanAhead submits its planning jobs here; a job that has not
// started can be withdrawn (a render that ended early, or was cancelled,
// takes back what it queued). Jobs never wait for each other: a job waits
// only for its own render's consumer (a free ring slot), and that consumer
// plans a draw itself when no job has taken it yet, so a render whose jobs
// are still queued behind other renders' is never stalled by them.
import PenumbraModel
import Foundation
import Synchronization

/// A bounded pool of long-lived threads running planning jobs in submission order.
@usableFromInline package final class PlanningPool: Sendable {
    /// The process's pool: `Parallelism.maxThreads` threads.
    @usableFromInline package static let shared = PlanningPool(threads: Parallelism.maxThreads)

    /// A queued job, identified so that it can be withdrawn before it starts.
    private struct Job: Sendable {
        let id: UInt64
        let body: @Sendable () -> Void
    }

    private struct State {
        var queue: [Job] = []
        var nextID: UInt64 = 0
        var started = false
    }

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    /// How many threads the pool runs.
    @usableFromInline package let threads: Int

    package init(threads: Int) { self.threads = max(1, threads) }

    /// Queues `body`; returns the ticket that `withdraw(_:)` takes.
    package func submit(_ body: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, start) = state.withLock { state -> (UInt64, Bool) in
            state.nextID += 1
            state.queue.append(Job(id: state.nextID, body: body))
            defer { state.started = true }
            return (state.nextID, !state.started)
        }
        if start { startThreads() }
        available.signal()
        return id
    }

    /// Removes the job `ticket` if it has not started; true when it was removed (it will never run).
    package func withdraw(_ ticket: UInt64) -> Bool {
        state.withLock { state in
            guard let index = state.queue.firstIndex(where: { $0.id == ticket }) else { return false }
            state.queue.remove(at: index)
            return true
        }
    }

    private func startThreads() {
        for index in 0..<threads {
            let thread = Thread { [self] in
                while true {
                    available.wait()
                    // A withdrawn job leaves its signal behind: nothing to run then.
                    guard let job = state.withLock({ $0.queue.isEmpty ? nil : $0.queue.removeFirst() }) else { continue }
                    job.body()
                }
            }
            thread.name = "penumbra.planning.\(index)"
            thread.start()
        }
    }
}
