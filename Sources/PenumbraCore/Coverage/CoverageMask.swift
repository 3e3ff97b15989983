// CoverageMask: per-pixel coverage in 0...1 over a rectangle of pixels, zero
// outside it. Coverage stays in Float from the rasterizer to the composite,
// so nothing is quantised before the single rounding of the spec.
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

/// Coverage values over `region`; pixels outside the region, and inside it but in no span, have
/// coverage 0.
public struct CoverageMask: Sendable {
    /// A run of pixels of one row with nonzero coverage.
    public struct Span: Sendable, Equatable {
        /// The first pixel's column (device x).
        public var x: Int
        /// How many pixels the span covers (at least 1).
        public var count: Int
        /// Index in the mask's value storage of the first pixel's coverage, or -1 when every
        /// pixel of the span has `constant`.
        var valueStart: Int
        /// The coverage of every pixel of a constant span (unused for explicit spans).
        public var constant: Float
        /// Whether every pixel of the span has the same coverage, `constant`.
        public var isConstant: Bool { valueStart < 0 }
    }

    public let region: PixelRect
    /// For row `r` (relative to the region), its spans are `spans[rowStarts[r]..<rowStarts[r + 1]]`.
    private(set) var rowStarts: [Int]
    private(set) var spans: [Span]
    /// The values of the explicit spans.
    private(set) var storage: [Float]

    init(region: PixelRect, rowStarts: [Int], spans: [Span], storage: [Float]) {
        precondition(rowStarts.count == region.height + 1 || (region.isEmpty && rowStarts.count <= 1))
        self.region = region; self.rowStarts = rowStarts; self.spans = spans; self.storage = storage
    }

    /// A mask from dense row-major values over `region` (every value in 0...1).
    public init(region: PixelRect, values: [Float]) {
        precondition(values.count == region.area)
        var builder = Builder(region: region, storage: values)
        values.withUnsafeBufferPointer { v in
            for row in 0..<region.height {
                let base = row * region.width
                var first = 0, last = region.width
                while first < last && v[base + first] == 0 { first += 1 }
                while last > first && v[base + last - 1] == 0 { last -= 1 }
                if first < last { builder.addStoredSpan(x: region.x + first, count: last - first, valueStart: base + first) }
                builder.endRow()
            }
        }
        self = builder.finish()
    }

    /// A mask with the same coverage everywhere in `region`.
    public init(region: PixelRect, constant: Float) {
        var builder = Builder(region: region)
        for _ in 0..<max(0, region.height) {
            if constant != 0 && region.width > 0 { builder.addConstantSpan(x: region.x, count: region.width, value: constant) }
            builder.endRow()
        }
        self = builder.finish()
    }

    /// An empty mask (no region, no coverage).
    public static let empty = CoverageMask(region: PixelRect(x: 0, y: 0, width: 0, height: 0), values: [])

    /// Calls `body` with each span of row `y` that meets columns `from..<to`, cut to them, left
    /// to right: its first column, its pixel count, and either the coverage values (`values`,
    /// one per pixel) or, when `values` is nil, the one coverage `constant` of every pixel.
    @inline(__always)
    public func forEachSpan(inRow y: Int, from: Int, to: Int,
                            _ body: (_ x: Int, _ count: Int, _ values: UnsafePointer<Float>?, _ constant: Float) -> Void) {
        guard y >= region.y, y < region.maxY, from < to else { return }
        let row = y - region.y
        let lo = max(from, region.x), hi = min(to, region.maxX)
        guard lo < hi else { return }
        storage.withUnsafeBufferPointer { values in
            for s in spans[rowStarts[row]..<rowStarts[row + 1]] {
                let start = max(s.x, lo), end = min(s.x + s.count, hi)
                if end <= start { if s.x >= hi { break } else { continue } }
                if s.isConstant {
                    body(start, end - start, nil, s.constant)
                } else {
                    body(start, end - start, values.baseAddress! + s.valueStart + (start - s.x), 0)
                }
            }
        }
    }

    /// Coverage at a pixel (0 outside the region).
    public subscript(x: Int, y: Int) -> Float {
        var value: Float = 0
        forEachSpan(inRow: y, from: x, to: x + 1) { _, _, values, constant in value = values?[0] ?? constant }
        return value
    }

    /// Multiplies `row[i]` by the coverage at (x0 + i, y), which is 0 outside every span: how
    /// renderers combine geometry and clip a row at a time.
    public func multiplyRow(y: Int, x0: Int, into row: UnsafeMutableBufferPointer<Float>) {
        var next = 0  // the first index not yet multiplied
        forEachSpan(inRow: y, from: x0, to: x0 + row.count) { x, count, values, constant in
            let start = x - x0
            for i in next..<start { row[i] = 0 }
            if let values {
                for i in 0..<count { row[start + i] *= values[i] }
            } else {
                for i in start..<(start + count) { row[i] *= constant }
            }
            next = start + count
        }
        for i in next..<row.count { row[i] = 0 }
    }

    /// All coverage over the region, row-major, with zeros where no span is.
    public func denseValues() -> [Float] {
        var out = [Float](repeating: 0, count: region.area)
        out.withUnsafeMutableBufferPointer { out in
            for row in 0..<region.height {
                let base = row * region.width - region.x
                forEachSpan(inRow: region.y + row, from: region.x, to: region.maxX) { x, count, values, constant in
                    for i in 0..<count { out[base + x + i] = values?[i] ?? constant }
                }
            }
        }
        return out
    }

    /// The smallest rectangle holding every span (empty when the mask covers nothing).
    public var spanBounds: PixelRect {
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

    /// The sum of all coverage: the covered area in square pixels.
    public var totalCoverage: Double {
        var total = 0.0
        for row in 0..<max(0, region.height) {
            forEachSpan(inRow: region.y + row, from: region.x, to: region.maxX) { _, count, values, constant in
                if let values { for i in 0..<count { total += Double(values[i]) } } else { total += Double(constant) * Double(count) }
            }
        }
        return total
    }

    /// This mask times another (the other is read as 0 outside its spans); the result keeps
    /// this mask's region.
    public func multiplied(by other: CoverageMask) -> CoverageMask {
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
    /// Builds a mask a row at a time, top to bottom, spans left to right. Adjacent explicit spans
    /// whose values are adjacent in storage merge into one.
    struct Builder {
        let region: PixelRect
        private var rowStarts: [Int]
        private var spans: [Span] = []
        private(set) var storage: [Float]

        init(region: PixelRect, storage: [Float] = []) {
            self.region = region; self.storage = storage
            rowStarts = [0]
            rowStarts.reserveCapacity(max(0, region.height) + 1)
        }

        /// Adds a span whose values are `storage[valueStart..<valueStart + count]`.
        mutating func addStoredSpan(x: Int, count: Int, valueStart: Int) {
            if spans.count > rowStarts[rowStarts.count - 1], let last = spans.last, !last.isConstant,
               last.x + last.count == x, last.valueStart + last.count == valueStart {
                spans[spans.count - 1].count += count
                return
            }
            spans.append(Span(x: x, count: count, valueStart: valueStart, constant: 0))
        }

        /// Appends `values[0..<count]` to the storage and adds them as a span starting at `x`.
        mutating func addExplicitSpan(x: Int, values: UnsafePointer<Float>, count: Int) {
            let start = storage.count
            storage.append(contentsOf: UnsafeBufferPointer(start: values, count: count))
            addStoredSpan(x: x, count: count, valueStart: start)
        }

        /// Adds a run of `count` pixels of coverage `value` (nonzero); it merges with a constant
        /// span of the same value that ends at `x`.
        mutating func addConstantSpan(x: Int, count: Int, value: Float) {
            if spans.count > rowStarts[rowStarts.count - 1], let last = spans.last, last.isConstant,
               last.constant == value, last.x + last.count == x {
                spans[spans.count - 1].count += count
                return
            }
            spans.append(Span(x: x, count: count, valueStart: -1, constant: value))
        }

        /// Closes the current row.
        mutating func endRow() { rowStarts.append(spans.count) }

        func finish() -> CoverageMask {
            CoverageMask(region: region, rowStarts: rowStarts, spans: spans, storage: storage)
        }
    }
}
