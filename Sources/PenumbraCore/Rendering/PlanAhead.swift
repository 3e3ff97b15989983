// PlanAhead: a DrawPlanner run on another thread, a bounded number of draws
// ahead of the renderer that consumes its plans. Coverage (rasterizing
// strokes, clips, shadow casters) then overlaps with compositing: on a
// scene of many shapes the two take comparable time. The plans are the
// planner's, computed by the same code in the same order; only the thread
// differs, so the output is identical. Short lists (starting a thread
// costs about as much as planning a few shapes) and machines of one core
// plan inline.
import Dispatch
import Foundation

/// The plans of a display list's draws, in order, computed ahead on a background thread.
/// One consumer calls `next()`; dropping the PlanAhead stops the planner.
public final class PlanAhead {
    private let channel: Channel
    private var exhausted = false

    /// Starts planning `list`, at most `depth` draws ahead of the consumer.
    public init(_ list: DisplayList, depth: Int = 16) {
        let background = list.commands.count >= PlanAhead.minimumCommands && ProcessInfo.processInfo.activeProcessorCount > 1
        channel = Channel(DrawPlanner(list), depth: max(1, depth), background: background)
        guard background else { return }
        let channel = self.channel
        let thread = Thread { channel.produce() }
        thread.name = "penumbra.plan-ahead"
        thread.start()
    }

    deinit { channel.stop() }

    /// Lists shorter than this are planned on the consumer's thread.
    public static let minimumCommands = 8

    /// The plan of the next draw, nil after the last. Blocks until the planner has it.
    public func next() -> PlannedDraw? {
        guard !exhausted else { return nil }
        let draw = channel.take()
        if draw == nil { exhausted = true }
        return draw
    }

    /// The planner and a ring of its plans, shared by the planning thread and the consumer:
    /// `ready` counts filled slots, `free` empty ones; the semaphores order the slot accesses.
    private final class Channel: @unchecked Sendable {
        private var planner: DrawPlanner
        private let background: Bool
        private var ring: [PlannedDraw?]
        private var readIndex = 0
        private let ready = DispatchSemaphore(value: 0)
        private let free: DispatchSemaphore
        private let finished = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var stopped = false

        init(_ planner: DrawPlanner, depth: Int, background: Bool) {
            self.planner = planner; self.background = background
            ring = [PlannedDraw?](repeating: nil, count: depth)
            // Created at 0 and raised: libdispatch traps when a semaphore is freed below its
            // initial value, which `free` may be when the consumer stops early.
            free = DispatchSemaphore(value: 0)
            for _ in 0..<depth { free.signal() }
        }

        /// The planning thread's loop: plan, publish, until the end (or a stop).
        func produce() {
            var index = 0
            while true {
                free.wait()
                lock.lock(); let stop = stopped; lock.unlock()
                if stop { break }
                let draw = planner.next()
                ring[index % ring.count] = draw
                index += 1
                ready.signal()
                if draw == nil { break }
            }
            finished.signal()
        }

        /// The next plan, in order (nil once the planner is done).
        func take() -> PlannedDraw? {
            guard background else { return planner.next() }
            ready.wait()
            let slot = readIndex % ring.count
            let draw = ring[slot]
            ring[slot] = nil
            readIndex += 1
            free.signal()
            return draw
        }

        /// Stops the planning thread (waking it if it waits for room) and waits for it to end.
        func stop() {
            guard background else { return }
            lock.lock(); stopped = true; lock.unlock()
            free.signal()
            finished.wait()
        }
    }
}
