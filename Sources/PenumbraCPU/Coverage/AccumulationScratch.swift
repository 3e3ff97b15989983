// AccumulationScratch: the rasterizer's signed-area cells, reused across calls.
//
// A fresh (width + 2) x height Int32 buffer per op used to dominate the cost
// of coverage (page faults and zeroing of up to a million cells per big
// shape). A scratch is instead kept in a small pool and handed to one call
// at a time, under one invariant: between uses every cell is zero. Beside the
// cells, one bit per block of `blockWidth` cells marks the blocks an edge
// touched; the bits are zero between uses too. The resolve pass visits only
// marked blocks, zeroing their cells and their bits, so restoring the
// invariant costs only the touched blocks.
//
// The pool is guarded by a lock, so concurrent renders each get their own
// scratch (a new one when the pool is empty); very large scratches are
// freed instead of kept.

import PenumbraModel
import PenumbraCore
import Foundation
import Synchronization

/// Zeroed cell memory and touched-block bits for one rasterization at a time.
final class AccumulationScratch {
    /// The cells; every one is zero whenever the scratch is not in use.
    private(set) var cells: UnsafeMutablePointer<Int32>
    private(set) var cellCapacity: Int
    /// One bit per block of `blockWidth` cells that an edge touched; all zero when not in use.
    private(set) var touchedBlocks: UnsafeMutablePointer<UInt64>
    private(set) var wordCapacity: Int
    /// A region's edges by band, and the list of edges reaching the band being accumulated, for
    /// regions taller than a band; their buffers are kept for the next call.
    var edges = BandedEdges()
    var activeEdges: [FixedEdge] = []
    /// The row being resolved (CoverageRow): its spans, and its explicit values by column.
    private(set) var rowSpans: UnsafeMutablePointer<CoverageMask.Span>
    private(set) var rowValues: UnsafeMutablePointer<UInt8>
    private var rowCapacity = 0

    /// Cells per touched-block bit, and its base-2 logarithm (8: the resolve holds a block's
    /// coverage values in one 64-bit word).
    static let blockWidth = 1 << blockShift
    static let blockShift = 3

    init() {
        cellCapacity = 0; wordCapacity = 0
        cells = .allocate(capacity: 0)
        touchedBlocks = .allocate(capacity: 0)
        rowSpans = .allocate(capacity: 0)
        rowValues = .allocate(capacity: 0)
    }

    deinit {
        cells.deallocate(); touchedBlocks.deallocate(); rowSpans.deallocate(); rowValues.deallocate()
    }

    /// Makes room for a row of `width` columns: a span per column at most, and a value per
    /// column plus a block (the resolve stores whole blocks).
    func reserveRow(width: Int) {
        guard width > rowCapacity else { return }
        rowSpans.deallocate(); rowValues.deallocate()
        rowCapacity = width
        rowSpans = .allocate(capacity: width + 1)
        rowValues = .allocate(capacity: width + AccumulationScratch.blockWidth)
    }

    /// Makes room for `cellCount` cells and `wordCount` words of touched-block bits (contents stay
    /// zero).
    func reserve(cells cellCount: Int, words wordCount: Int) {
        if cellCount > cellCapacity {
            cells.deallocate()
            cells = .allocate(capacity: cellCount)
            cells.initialize(repeating: 0, count: cellCount)
            cellCapacity = cellCount
        }
        if wordCount > wordCapacity {
            touchedBlocks.deallocate()
            touchedBlocks = .allocate(capacity: wordCount)
            touchedBlocks.initialize(repeating: 0, count: wordCount)
            wordCapacity = wordCount
        }
    }

    /// The largest scratch worth keeping for the next call (64 MiB of cells).
    static let retainedCellLimit = 1 << 24
    /// The most edges whose buffers are kept for the next call (a few MiB); a shape with more
    /// frees its lists when done.
    static let retainedEdgeLimit = 1 << 17

    /// Frees the edge lists when they hold room for more than `retainedEdgeLimit` edges.
    func releaseLargeEdgeLists() {
        if edges.capacity > AccumulationScratch.retainedEdgeLimit || activeEdges.capacity > AccumulationScratch.retainedEdgeLimit {
            edges = BandedEdges(); activeEdges = []
        }
    }

    /// Idle scratches; each is used by one thread at a time, handed over through this lock.
    private static let pool = Mutex<[UnsafeScratch]>([])

    /// A scratch crossing threads through the pool (only ever used by the thread that took it).
    private struct UnsafeScratch: @unchecked Sendable { let scratch: AccumulationScratch }

    /// Runs `body` with a scratch whose cells are all zero; `body` must leave them zero.
    static func withScratch<R>(_ body: (AccumulationScratch) -> R) -> R {
        let scratch = pool.withLock { $0.popLast()?.scratch } ?? AccumulationScratch()
        let result = body(scratch)
        scratch.releaseLargeEdgeLists()
        if scratch.cellCapacity <= retainedCellLimit {
            pool.withLock { if $0.count < 8 { $0.append(UnsafeScratch(scratch: scratch)) } }
        }
        return result
    }
}
