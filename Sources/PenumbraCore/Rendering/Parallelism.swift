// Parallelism: how many threads one job of a render may use. Every parallel
// stage (row bands of a composite, plan-ahead workers, stroke outlining)
// takes its thread count from here, so they agree on what a machine offers.
import Foundation

/// The thread budget of parallel rendering stages.
public enum Parallelism {
    /// Threads a large job may be split over: the machine's active cores, at most 8.
    public static let maxThreads = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
}

/// A value (a buffer's pointer, a function writing through one) handed to the threads of one
/// `concurrentPerform` whose iterations write disjoint parts of the memory behind it and finish
/// before it returns: the one place where such sharing is declared safe to the compiler.
package struct DisjointWrites<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
