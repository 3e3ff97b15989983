// PlanAhead: the plans of a display list's draws, computed ahead of the
// renderer that consumes them, by jobs on the process's planning pool
// (PlanningPool: no threads are started per render), at most `depth` draws
// ahead. Coverage (rasterizing strokes, clips, shadow casters) then overlaps
// with compositing, and spreads over the cores: on a scene of many shapes
// rasterizing is most of the work. The walk over the list (DrawSequence)
// is cheap and done first, once, into the stream's array of steps
// (DrawStream); workers take draws in order from a shared counter and plan them (DrawPlanner.plan, a pure function of the draw);
// the consumer takes plan k from ring slot k % depth once its worker has
// published it, or plans it itself when no job has taken it yet (the pool
// may be busy with other renders' jobs). The plans are the planner's,
// computed by the same code from the same inputs, so the output is identical
// whatever the threads. Short lists (handing work over costs about as much
// as planning a few shapes) and machines of one core plan inline.
//
// Ring protocol: `free` counts slots that may be filled; a worker takes a
// token before taking a draw index, so draw j is only started once draw
// j - depth has been consumed and its slot is empty. Each slot has its own
// `ready` semaphore; the consumer waits on the slot of the draw it wants.
import PenumbraModel
import Dispatch
import Foundation

/// The plans of a display list's draws, in order, computed ahead on worker threads.
/// One consumer calls `next()`; dropping the PlanAhead stops the workers.
@usableFromInline package final class PlanAhead {
    private let planner: DrawPlanner
    private let draws: [DrawInput]
    private let channel: Channel?
    private var consumed = 0

    /// Lists of fewer draws than this are planned on the consumer's thread.
    @usableFromInline package static let minimumDraws = 8

    /// Starts planning `draws` (the draws of `planner`'s list, in order: DrawSequence), at most
    /// `depth` draws ahead of the consumer, by `workers` jobs on `pool` (nil: one per pool thread).
    @usableFromInline package init(_ planner: DrawPlanner, draws: [DrawInput], depth: Int = 16, workers: Int? = nil,
                                   pool: PlanningPool = .shared) {
        self.planner = planner
        self.draws = draws
        let workerCount = max(1, min(workers ?? pool.threads, depth))
        guard draws.count >= PlanAhead.minimumDraws, pool.threads > 1 || workers != nil else {
            channel = nil
            return
        }
        let channel = Channel(planner: planner, draws: draws, depth: max(1, depth), pool: pool)
        self.channel = channel
        channel.workers = workerCount
        channel.tickets = (0..<workerCount).map { _ in pool.submit { channel.work() } }
    }

    /// Plans the draws of `list` (shapes' coverage in `form`) as `init(_:draws:depth:workers:pool:)` does.
    @usableFromInline package convenience init(_ list: DisplayList, depth: Int = 16, workers: Int? = nil, form: CoverageForm,
                                               pool: PlanningPool = .shared) {
        self.init(DrawPlanner(list, form: form), draws: DrawSequence.draws(of: list), depth: depth, workers: workers, pool: pool)
    }

    deinit { channel?.stop() }

    /// The plan of the next draw, nil after the last. Blocks until a worker has it.
    @usableFromInline package func next() -> PlannedDraw? {
        guard consumed < draws.count else { return nil }
        defer { consumed += 1 }
        guard let channel else { return planner.plan(draws[consumed]) }
        return channel.take(consumed)
    }

    /// The draws to plan, the ring of published plans and the semaphores that order them.
    private final class Channel: @unchecked Sendable {
        let planner: DrawPlanner
        let draws: [DrawInput]
        /// Slot k % depth holds plan k between its worker's publishing and the consumer's taking;
        /// raw memory, because workers write different slots at the same time.
        private let ring: UnsafeMutablePointer<PlannedDraw?>
        private let depth: Int
        private let ready: [DispatchSemaphore]
        private let free = DispatchSemaphore(value: 0)
        private let finished = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var nextDraw = 0   // under `lock`
        private var stopped = false  // under `lock`
        /// How many jobs run `work()` (set once, before any is submitted).
        var workers = 0
        /// The pool and its tickets for this channel's jobs (set once, after they are submitted).
        private let pool: PlanningPool
        var tickets: [UInt64] = []

        init(planner: DrawPlanner, draws: [DrawInput], depth: Int, pool: PlanningPool) {
            self.planner = planner; self.draws = draws; self.pool = pool
            self.depth = depth
            ring = .allocate(capacity: depth)
            ring.initialize(repeating: nil, count: depth)
            ready = (0..<depth).map { _ in DispatchSemaphore(value: 0) }
            // Raised from 0: libdispatch traps when a semaphore is freed below its initial value,
            // which `free` may be when the consumer stops early.
            for _ in 0..<depth { free.signal() }
        }

        deinit {
            ring.deinitialize(count: depth)
            ring.deallocate()
        }

        /// A worker's loop: take a free slot and the next draw, plan it, publish it.
        func work() {
            while true {
                free.wait()
                lock.lock()
                let index = nextDraw, stop = stopped || index >= draws.count
                if !stop { nextDraw += 1 }
                lock.unlock()
                if stop {
                    free.signal()  // pass the token on, so every waiting worker sees the end
                    break
                }
                let plan = planner.plan(draws[index])
                let slot = index % depth
                ring[slot] = plan
                ready[slot].signal()
            }
            finished.signal()
        }

        /// Plan `index` (the consumer's next): planned here when no job has taken it yet, else
        /// once its job has published it (then its slot is freed). A draw planned here never
        /// enters the ring, so the ring's tokens stay as they were.
        func take(_ index: Int) -> PlannedDraw? {
            lock.lock()
            if nextDraw == index {
                nextDraw += 1
                lock.unlock()
                return planner.plan(draws[index])
            }
            lock.unlock()
            let slot = index % depth
            ready[slot].wait()
            let plan = ring[slot]
            ring[slot] = nil
            free.signal()
            return plan
        }

        /// Stops the jobs (waking any that wait for a slot), withdraws those that never started,
        /// and waits for the others to end.
        func stop() {
            lock.lock(); stopped = true; lock.unlock()
            free.signal()
            let started = tickets.filter { !pool.withdraw($0) }.count
            for _ in 0..<started { finished.wait() }
        }
    }
}
