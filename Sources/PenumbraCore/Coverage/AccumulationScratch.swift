// AccumulationScratch: the rasterizer's signed-area cells, reused across calls.
//
// A fresh (width + 2) x height Float buffer per op used to dominate the cost
// of coverage (page faults and zeroing of up to a million cells per big
// shape). A scratch is instead kept in a small pool and handed to one call
// at a time, under one invariant: between uses every cell is zero (+0 or
// -0; a signed zero is harmless because the first nonzero addend replaces it
// exactly and the resolve reads any zero cell as "no change"). The resolve
// pass zeroes each nonzero cell it reads and clears the few cells past a
// row's last resolved one, so restoring the invariant costs only the
// touched cells. Per-row touched ranges are reset per call (one Int per row).
//
// The pool is guarded by a lock, so concurrent renders each get their own
// scratch (a new one when the pool is empty); very large scratches are
// freed instead of kept.

import Foundation

/// Zeroed cell memory and per-row touched ranges for one rasterization at a time.
final class AccumulationScratch {
    /// The cells; every one is zero (+0 or -0) whenever the scratch is not in use.
    private(set) var cells: UnsafeMutablePointer<Float>
    private(set) var cellCapacity: Int
    /// Per row, the first and one past the last touched cell.
    private(set) var touchedStart: UnsafeMutablePointer<Int>
    private(set) var touchedEnd: UnsafeMutablePointer<Int>
    private(set) var rowCapacity: Int

    init() {
        cellCapacity = 0; rowCapacity = 0
        cells = .allocate(capacity: 0)
        touchedStart = .allocate(capacity: 0); touchedEnd = .allocate(capacity: 0)
    }

    deinit {
        cells.deallocate(); touchedStart.deallocate(); touchedEnd.deallocate()
    }

    /// Makes room for `cellCount` cells and `rows` rows (contents of the cells stay zero).
    func reserve(cells cellCount: Int, rows: Int) {
        if cellCount > cellCapacity {
            cells.deallocate()
            cells = .allocate(capacity: cellCount)
            cells.initialize(repeating: 0, count: cellCount)
            cellCapacity = cellCount
        }
        if rows > rowCapacity {
            touchedStart.deallocate(); touchedEnd.deallocate()
            touchedStart = .allocate(capacity: rows); touchedEnd = .allocate(capacity: rows)
            rowCapacity = rows
        }
    }

    /// The largest scratch worth keeping for the next call (64 MiB of cells).
    static let retainedCellLimit = 1 << 24

    private static let lock = NSLock()
    nonisolated(unsafe) private static var pool: [AccumulationScratch] = []

    /// Runs `body` with a scratch whose cells are all zero; `body` must leave them zero.
    static func withScratch<R>(_ body: (AccumulationScratch) -> R) -> R {
        lock.lock()
        let scratch = pool.popLast() ?? AccumulationScratch()
        lock.unlock()
        let result = body(scratch)
        if scratch.cellCapacity <= retainedCellLimit {
            lock.lock()
            if pool.count < 8 { pool.append(scratch) }
            lock.unlock()
        }
        return result
    }
}
