// CoverageMask: per-pixel coverage over a rectangle of pixels, zero outside
// it, as U8 values (255 is full coverage; docs/ARITHMETIC.md, "Coverage"): the
// rasterizer quantises once, and everything after it (clip products, the
// composite, the GPU's R8UI masks) is integer arithmetic on these bytes.
//
// Storage is sparse, by rows of spans (the layout of Blend2D's and
// tiny-skia's span buffers): each row is a sorted list of non-overlapping
// spans of nonzero coverage, each either explicit (one stored value per
// pixel, where edges cross) or constant (one value for the whole run: the
// inside of a shape, or a band of a ring). Pixels in no span have coverage
// exactly +0. A stroked circle of radius 500 thus stores a few thousand
// values instead of a million, and the composite touches only its spans.
// A dense array of values (a blurred shadow plane) is stored as one
// explicit span per row, trimmed to the row's nonzero range, without a copy.

import PenumbraModel
import PenumbraCore

/// Coverage values over `region`; pixels outside the region, and inside it but in no span, have
/// coverage 0.
@usableFromInline package struct CoverageMask: Sendable {
    /// A run of pixels of one row with nonzero coverage.
    @usableFromInline package struct Span: Sendable, Equatable {
        // 16 bytes: columns, counts and storage indices fit 32 bits (a mask has at most
        // 100 megapixels; coordinates are saturated to 2^30).
        private var x32: Int32, count32: Int32, valueStart32: Int32
        /// The coverage of every pixel of a constant span (unused for explicit spans).
        @usableFromInline package var constant: UInt8

        init(x: Int, count: Int, valueStart: Int, constant: UInt8) {
            x32 = Int32(x); count32 = Int32(count); valueStart32 = Int32(valueStart); self.constant = constant
        }
        /// The first pixel's column (device x).
        @usableFromInline package var x: Int { Int(x32) }
        /// How many pixels the span covers (at least 1).
        @usableFromInline package var count: Int {
            get { Int(count32) }
            set { count32 = Int32(newValue) }
        }
        /// Index in the mask's value storage of the first pixel's coverage, or -1 when every
        /// pixel of the span has `constant`.
        var valueStart: Int { Int(valueStart32) }
        /// Whether every pixel of the span has the same coverage, `constant`.
        @usableFromInline package var isConstant: Bool { valueStart32 < 0 }
    }

    @usableFromInline package let region: PixelRect
    /// For row `r` (relative to the region), its spans are `spans[rowStarts[r]..<rowStarts[r + 1]]`.
    private(set) var rowStarts: [Int]
    private(set) var spans: [Span]
    /// The values of the explicit spans.
    private(set) var storage: [UInt8]

    init(region: PixelRect, rowStarts: [Int], spans: [Span], storage: [UInt8]) {
        precondition(rowStarts.count == region.height + 1 || (region.isEmpty && rowStarts.count <= 1))
        self.region = region; self.rowStarts = rowStarts; self.spans = spans; self.storage = storage
    }

    /// A mask from dense row-major U8 values over `region`. The values are kept as they are;
    /// each row becomes one explicit span over its nonzero range.
    @usableFromInline package init(region: PixelRect, values: [UInt8]) {
        precondition(values.count == region.area)
        var rowStarts = [0], spans: [Span] = []
        rowStarts.reserveCapacity(region.height + 1)
        values.withUnsafeBufferPointer { v in
            for row in 0..<region.height {
                let base = row * region.width
                var first = 0, last = region.width
                while first < last && v[base + first] == 0 { first += 1 }
                while last > first && v[base + last - 1] == 0 { last -= 1 }
                if first < last {
                    spans.append(Span(x: region.x + first, count: last - first, valueStart: base + first, constant: 0))
                }
                rowStarts.append(spans.count)
            }
        }
        self.init(region: region, rowStarts: rowStarts, spans: spans, storage: values)
    }

    /// A mask with the same coverage everywhere in `region`.
    @usableFromInline package init(region: PixelRect, constant: UInt8) {
        let rows = region.height, filled = constant != 0 && region.width > 0
        let span = Span(x: region.x, count: region.width, valueStart: -1, constant: constant)
        self.init(region: region, rowStarts: (0...rows).map { filled ? $0 : 0 },
                  spans: filled ? [Span](repeating: span, count: rows) : [], storage: [])
    }

    /// An empty mask (no region, no coverage).
    @usableFromInline package static let empty = CoverageMask(region: PixelRect(x: 0, y: 0, width: 0, height: 0), values: [])

    /// Calls `body` with each span of row `y` that meets columns `from..<to`, cut to them, left
    /// to right: its first column, its pixel count, and either the coverage values (`values`,
    /// one per pixel) or, when `values` is nil, the one coverage `constant` of every pixel.
    @inline(__always)
    @usableFromInline package func forEachSpan(inRow y: Int, from: Int, to: Int,
                            _ body: (_ x: Int, _ count: Int, _ values: UnsafePointer<UInt8>?, _ constant: UInt8) -> Void) {
        guard y >= region.y, y < region.maxY, from < to else { return }
        let row = y - region.y
        let lo = max(from, region.x), hi = min(to, region.maxX)
        guard lo < hi else { return }
        let range = rowStarts[row]..<rowStarts[row + 1]
        guard !range.isEmpty else { return }
        storage.withUnsafeBufferPointer { values in spans.withUnsafeBufferPointer { spans in
            for s in UnsafeBufferPointer(rebasing: spans[range]) {
                let start = max(s.x, lo), end = min(s.x + s.count, hi)
                if end <= start { if s.x >= hi { break } else { continue } }
                if s.isConstant {
                    body(start, end - start, nil, s.constant)
                } else {
                    body(start, end - start, values.baseAddress! + s.valueStart + (start - s.x), 0)
                }
            }
        } }
    }

    /// Calls `body` with the spans of row `y` that meet columns `from..<to`, cut to them, left to
    /// right, collected into `list` (emptied first); their values point into the mask's storage
    /// and stay valid during the call.
    @inline(__always)
    package func withSpans<R>(inRow y: Int, from: Int, to: Int, collectingInto list: inout [RowSpan],
                              _ body: ([RowSpan]) -> R) -> R {
        storage.withUnsafeBufferPointer { _ in  // the storage, pinned while `body` reads it
            list.removeAll(keepingCapacity: true)
            forEachSpan(inRow: y, from: from, to: to) { x, count, values, constant in
                list.append(RowSpan(x: x, count: count, values: values, constant: constant))
            }
            return body(list)
        }
    }

    /// Coverage at a pixel (0 outside the region).
    @usableFromInline package subscript(x: Int, y: Int) -> UInt8 {
        var value: UInt8 = 0
        forEachSpan(inRow: y, from: x, to: x + 1) { _, _, values, constant in value = values?[0] ?? constant }
        return value
    }

    /// Multiplies `row[i]` by the coverage at (x0 + i, y), which is 0 outside every span:
    /// `div255(row[i] x coverage)`, how renderers combine geometry and clip a row at a time.
    @usableFromInline package func multiplyRow(y: Int, x0: Int, into row: UnsafeMutableBufferPointer<UInt8>) {
        var next = 0  // the first index not yet multiplied
        forEachSpan(inRow: y, from: x0, to: x0 + row.count) { x, count, values, constant in
            let start = x - x0
            for i in next..<start { row[i] = 0 }
            if let values {
                for i in 0..<count { row[start + i] = CoverageMask.product(row[start + i], values[i]) }
            } else if constant != 255 {
                for i in start..<(start + count) { row[i] = CoverageMask.product(row[i], constant) }
            }
            next = start + count
        }
        for i in next..<row.count { row[i] = 0 }
    }

    /// The product of two coverages, `div255(a b)`.
    @inline(__always)
    @usableFromInline package static func product(_ a: UInt8, _ b: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: Fixed.div255(Int32(a) &* Int32(b)))
    }

    /// All coverage over the region, row-major, with zeros where no span is.
    @usableFromInline package func denseValues() -> [UInt8] { denseValues(in: region) }

    /// The coverage over `rect` (within the region), row-major, with zeros where no span is.
    @usableFromInline package func denseValues(in rect: PixelRect) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: rect.area)
        out.withUnsafeMutableBufferPointer { out in
            for row in 0..<rect.height {
                let base = row * rect.width - rect.x
                forEachSpan(inRow: rect.y + row, from: rect.x, to: rect.maxX) { x, count, values, constant in
                    for i in 0..<count { out[base + x + i] = values?[i] ?? constant }
                }
            }
        }
        return out
    }

    /// The smallest rectangle holding every span (empty when the mask covers nothing).
    @usableFromInline package var spanBounds: PixelRect {
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
        for row in 0..<max(0, region.height) where rowStarts[row] < rowStarts[row + 1] {
            minY = min(minY, region.y + row); maxY = region.y + row + 1
            minX = min(minX, spans[rowStarts[row]].x)
            let last = spans[rowStarts[row + 1] - 1]
            maxX = max(maxX, last.x + last.count)
        }
        guard minY < maxY else { return PixelRect(x: region.x, y: region.y, width: 0, height: 0) }
        return PixelRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The sum of all coverage: the covered area in square pixels (each value / 255).
    @usableFromInline package var totalCoverage: Double {
        var total = 0
        for row in 0..<max(0, region.height) {
            forEachSpan(inRow: region.y + row, from: region.x, to: region.maxX) { _, count, values, constant in
                if let values { for i in 0..<count { total += Int(values[i]) } } else { total += Int(constant) * count }
            }
        }
        return Double(total) / 255
    }

    /// This mask times another (the other is read as 0 outside its spans); the result keeps
    /// this mask's region.
    @usableFromInline package func multiplied(by other: CoverageMask) -> CoverageMask {
        var values = denseValues()
        values.withUnsafeMutableBufferPointer { v in
            for row in 0..<region.height {
                let rowValues = UnsafeMutableBufferPointer(rebasing: v[(row * region.width)..<((row + 1) * region.width)])
                other.multiplyRow(y: region.y + row, x0: region.x, into: rowValues)
            }
        }
        return CoverageMask(region: region, values: values)
    }
}

extension CoverageMask {
    /// Builds a mask a row at a time, top to bottom, spans left to right, in buffers that grow
    /// without per-append checks (the rasterizer's resolve adds a span every few pixels); a
    /// noncopyable value, so its buffers are freed exactly once.
    /// Explicit values are written in place (`valueSlot`) and then committed as a span; adjacent
    /// explicit spans whose values are adjacent merge, as do adjacent equal constant spans.
    struct Builder: ~Copyable {
        let region: PixelRect
        private var rowStarts: [Int] = []
        private var spans: UnsafeMutablePointer<Span>
        private var spanCount = 0, spanCapacity: Int
        private var values: UnsafeMutablePointer<UInt8>
        private var valueCount = 0, valueCapacity: Int

        init(region: PixelRect) {
            self.region = region
            rowStarts.reserveCapacity(region.height + 1)
            rowStarts.append(0)
            // A ring's row holds about 4 edge crossings: start near that, grow when needed.
            spanCapacity = max(64, 8 * region.height)
            valueCapacity = max(256, 16 * region.height)
            spans = .allocate(capacity: spanCapacity)
            values = .allocate(capacity: valueCapacity)
        }

        deinit { spans.deallocate(); values.deallocate() }

        /// Room for `count` more values: write them at the returned pointer, then commit.
        mutating func valueSlot(count: Int) -> UnsafeMutablePointer<UInt8> {
            if valueCount + count > valueCapacity {
                var capacity = valueCapacity * 2
                while capacity < valueCount + count { capacity *= 2 }
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                grown.update(from: values, count: valueCount)
                values.deallocate()
                values = grown; valueCapacity = capacity
            }
            return values + valueCount
        }

        /// Adds the span of `count` pixels from `x` whose values are `valueSlot(...)[first..<first + count]`,
        /// and consumes the slot up to the span's end.
        @inline(__always)
        mutating func commitExplicitSpan(x: Int, first: Int, count: Int) {
            let valueStart = valueCount + first
            valueCount = valueStart + count
            if spanCount > rowStarts[rowStarts.count - 1] {
                let last = spans + spanCount - 1
                if !last.pointee.isConstant, last.pointee.x + last.pointee.count == x,
                   last.pointee.valueStart + last.pointee.count == valueStart {
                    last.pointee.count += count
                    return
                }
            }
            appendSpan(Span(x: x, count: count, valueStart: valueStart, constant: 0))
        }

        /// Adds a run of `count` pixels of coverage `value` (nonzero).
        @inline(__always)
        mutating func addConstantSpan(x: Int, count: Int, value: UInt8) {
            if spanCount > rowStarts[rowStarts.count - 1] {
                let last = spans + spanCount - 1
                if last.pointee.isConstant, last.pointee.constant == value, last.pointee.x + last.pointee.count == x {
                    last.pointee.count += count
                    return
                }
            }
            appendSpan(Span(x: x, count: count, valueStart: -1, constant: value))
        }

        private mutating func appendSpan(_ span: Span) {
            if spanCount == spanCapacity {
                let grown = UnsafeMutablePointer<Span>.allocate(capacity: spanCapacity * 2)
                grown.moveInitialize(from: spans, count: spanCount)
                spans.deallocate()
                spans = grown; spanCapacity *= 2
            }
            (spans + spanCount).initialize(to: span)
            spanCount += 1
        }

        /// Closes the current row.
        mutating func endRow() { rowStarts.append(spanCount) }

        /// Adds `row` as the next row (its values copied).
        mutating func append(_ row: CoverageRow) {
            row.forEachSpan { x, count, rowValues, constant in
                if let rowValues {
                    valueSlot(count: count).update(from: rowValues, count: count)
                    commitExplicitSpan(x: x, first: 0, count: count)
                } else {
                    addConstantSpan(x: x, count: count, value: constant)
                }
            }
            endRow()
        }

        /// The mask (the buffers are copied to arrays and freed).
        consuming func finish() -> CoverageMask {
            CoverageMask(region: region, rowStarts: rowStarts,
                         spans: Array(UnsafeBufferPointer(start: spans, count: spanCount)),
                         storage: Array(UnsafeBufferPointer(start: values, count: valueCount)))
        }
    }
}
