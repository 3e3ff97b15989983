// Parallelism: how many threads one job of a render may use. Every parallel
// stage (row bands of a composite, plan-ahead workers, stroke outlining)
// takes its thread count from here, so they agree on what a machine offers.
import Foundation

/// The thread budget of parallel rendering stages.
@usableFromInline package enum Parallelism {
    /// Threads a large job may be split over: the machine's active cores, at most 8.
    @usableFromInline package static let maxThreads = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
}

/// A value (a buffer's pointer, a function writing through one) handed to the threads of one
/// `concurrentPerform` whose iterations write disjoint parts of the memory behind it and finish
/// before it returns: the one place where such sharing is declared safe to the compiler.
@usableFromInline package struct DisjointWrites<Value>: @unchecked Sendable {
    @usableFromInline package let value: Value
    @usableFromInline package init(_ value: Value) { self.value = value }
}
