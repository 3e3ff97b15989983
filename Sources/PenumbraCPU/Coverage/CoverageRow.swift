// CoverageRow: one resolved row of a shape's coverage, the form the
// rasterizer hands to whoever consumes it (Accumulator.swift).
//
// A row is a sorted list of non-overlapping spans, each explicit (an 8-bit
// value per pixel, where edges cross) or constant (one value for a run: the
// inside of a shape, or a band of a ring); pixels in no span have coverage 0.
// It is the sparse form both consumers share: a mask stores rows as they
// come (CoverageMask.Builder.append), and the CPU renderer composites each
// row as it is resolved (PenumbraCPU's CPUFrame+Bands), so a shape drawn
// once needs no mask at all: no buffer of spans built, copied and read back.
//
// The row's buffers are the accumulation scratch's and are reused by the
// next row: a consumer reads them inside its callback and keeps nothing.
// Explicit values sit at their column (region-relative), so adjacent
// explicit spans are adjacent in memory and merge into one.

import PenumbraModel
import PenumbraCore

/// One row of coverage over a region's columns: spans left to right, pixels in no span 0.
package struct CoverageRow {
    /// The row (device y).
    package internal(set) var y: Int
    /// The device x of the region's first column.
    package let originX: Int
    private let spans: UnsafeMutablePointer<CoverageMask.Span>
    /// Explicit values, indexed by region column.
    let values: UnsafeMutablePointer<UInt8>
    package private(set) var spanCount = 0

    /// A row over the scratch's row buffers (room for `width` columns).
    init(y: Int, originX: Int, scratch: AccumulationScratch, width: Int) {
        scratch.reserveRow(width: width)
        self.y = y; self.originX = originX
        spans = scratch.rowSpans; values = scratch.rowValues
    }

    /// The slot of the values from `column` on: a resolve writes them there, then adds a span.
    @inline(__always)
    func valueSlot(column: Int) -> UnsafeMutablePointer<UInt8> { values + column }

    /// Adds the explicit span of `count` columns from `column`, whose values are in its slot.
    @inline(__always)
    mutating func addExplicitSpan(column: Int, count: Int) {
        if spanCount > 0 {
            let last = spans + spanCount - 1
            if !last.pointee.isConstant, last.pointee.valueStart + last.pointee.count == column {
                last.pointee.count += count
                return
            }
        }
        spans[spanCount] = CoverageMask.Span(x: originX + column, count: count, valueStart: column, constant: 0)
        spanCount += 1
    }

    /// Adds a run of `count` columns from `column` of coverage `value` (nonzero).
    @inline(__always)
    mutating func addConstantSpan(column: Int, count: Int, value: UInt8) {
        let x = originX + column
        if spanCount > 0 {
            let last = spans + spanCount - 1
            if last.pointee.isConstant, last.pointee.constant == value, last.pointee.x + last.pointee.count == x {
                last.pointee.count += count
                return
            }
        }
        spans[spanCount] = CoverageMask.Span(x: x, count: count, valueStart: -1, constant: value)
        spanCount += 1
    }

    /// The columns from the first span's first pixel to the last span's end (device x), nil
    /// when the row has no span.
    package var extent: Range<Int>? {
        guard spanCount > 0 else { return nil }
        let last = spans[spanCount - 1]
        return spans[0].x..<(last.x + last.count)
    }

    /// Empties the row and moves it to `y`.
    mutating func reset(y: Int) { self.y = y; spanCount = 0 }

    /// Calls `body` with each span left to right: its first pixel's device x, its pixel count,
    /// and either its values (one per pixel) or, when `values` is nil, its one `constant`.
    @inline(__always)
    package func forEachSpan(_ body: (_ x: Int, _ count: Int, _ values: UnsafePointer<UInt8>?, _ constant: UInt8) -> Void) {
        for i in 0..<spanCount {
            let s = spans[i]
            if s.isConstant { body(s.x, s.count, nil, s.constant) } else { body(s.x, s.count, values + s.valueStart, 0) }
        }
    }
}

/// A span of one row's coverage as a consumer holds it between two lists (a clip's product):
/// its first pixel's device x, its pixel count, and its values (one per pixel) or, when
/// `values` is nil, its one `constant`. The values belong to the list it came from.
package struct RowSpan {
    package var x: Int, count: Int
    package var values: UnsafePointer<UInt8>?
    package var constant: UInt8
    package init(x: Int, count: Int, values: UnsafePointer<UInt8>?, constant: UInt8) {
        self.x = x; self.count = count; self.values = values; self.constant = constant
    }
}

extension CoverageRow {
    /// The row's spans, left to right, into `list` (emptied first); their values are the row's
    /// buffers, valid until the row is reset.
    package func collectSpans(into list: inout [RowSpan]) {
        list.removeAll(keepingCapacity: true)
        forEachSpan { x, count, values, constant in list.append(RowSpan(x: x, count: count, values: values, constant: constant)) }
    }
}
