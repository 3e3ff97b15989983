// Parallelism: how many threads one job of a render may use. Every parallel
// stage (row bands of a composite, plan-ahead workers, stroke outlining)
// takes its thread count from here, so they agree on what a machine offers.
import Foundation

/// The thread budget of parallel rendering stages.
public enum Parallelism {
    /// Threads a large job may be split over: the machine's active cores, at most 8.
    public static let maxThreads = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
}
