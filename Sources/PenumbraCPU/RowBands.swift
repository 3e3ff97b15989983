// RowBands: runs independent rows of a job on the machine's cores.
//
// Rows of a composite never read or write each other's pixels, so a region
// can be cut into contiguous bands of rows, one per thread; every pixel is
// computed by the same code in the same order whichever thread runs it, so
// the output is identical for any thread count. Small jobs stay on the
// calling thread: waking a worker costs tens of microseconds.
import Dispatch
import Foundation

enum RowBands {
    /// Threads a large job is split over: the machine's active cores, at most 8.
    static let threadCount = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
    /// Pixels below which a job runs on the calling thread.
    static let parallelThreshold = 48 * 1024

    /// Calls `body` with contiguous, disjoint bands of `rows` covering all of it, concurrently
    /// when `pixels` (the job's size) is large enough and `threads` allows.
    static func run(rows: Range<Int>, pixels: Int, threads: Int = threadCount, _ body: (Range<Int>) -> Void) {
        let bands = min(threads, rows.count, pixels / parallelThreshold)
        guard bands > 1 else { body(rows); return }
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            let lo = rows.lowerBound + rows.count * band / bands
            let hi = rows.lowerBound + rows.count * (band + 1) / bands
            body(lo..<hi)
        }
    }
}
