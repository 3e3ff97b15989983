// RowBands: runs independent rows of a job on the machine's cores.
//
// Rows of a composite never read or write each other's pixels, so a region
// can be cut into contiguous bands of rows, one per thread; every pixel is
// computed by the same code in the same order whichever thread runs it, so
// the output is identical for any thread count. Small jobs stay on the
// calling thread: waking a worker costs tens of microseconds.
import Dispatch
import PenumbraModel
import PenumbraCore

enum RowBands {
    /// Threads a large job is split over.
    static var threadCount: Int { Parallelism.maxThreads }
    /// Pixels below which a job runs on the calling thread.
    static let parallelThreshold = 48 * 1024

    /// Calls `body` with contiguous, disjoint bands of `rows` covering all of it, concurrently
    /// when `pixels` (the job's size) is large enough and `threads` allows.
    static func run(rows: Range<Int>, pixels: Int, threads: Int = threadCount, _ body: (Range<Int>) -> Void) {
        run(rows: rows, bands: min(threads, pixels / parallelThreshold), body)
    }

    /// Calls `body` with `bands` (at most one per row, at least one) contiguous, disjoint bands of
    /// `rows` covering all of it, concurrently when there are several.
    static func run(rows: Range<Int>, bands requested: Int, _ body: (Range<Int>) -> Void) {
        let bands = min(requested, rows.count)
        guard bands > 1 else { body(rows); return }
        withoutActuallyEscaping(body) { body in
            // The bands are disjoint rows, and all finish before this returns.
            let work = DisjointWrites(body)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let lo = rows.lowerBound + rows.count * band / bands
                let hi = rows.lowerBound + rows.count * (band + 1) / bands
                work.value(lo..<hi)
            }
        }
    }
}
