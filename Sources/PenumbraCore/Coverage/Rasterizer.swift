// Rasterizer: exact-area anti-aliased coverage by signed-area accumulation
// (the scheme of libart, stb_truetype 2 and font-rs).
//
// Every edge adds, to each cell it crosses, the signed area between itself
// and the cell's right side (times its direction, +1 downward): the prefix
// sum along a row is then, at each pixel, the integral of the winding number
// over that pixel: its exact covered area for any non-self-overlapping path.
// Nonzero coverage is min(1, |A|), even-odd folds A into [0, 1]. Where edges
// of different pieces of one path cross inside a pixel the sum can differ
// from the exact area; SCENE_FORMAT.md allows exactly this.
//
// Edges are clipped to the region first, in Double, and their ends rounded
// to 1/256 pixel (24.8 fixed point: EdgeClipper in CoverageEdges.swift,
// which also gives the GPU renderer the same edges); everything after is
// integer arithmetic (docs/ARITHMETIC.md, "Coverage"), as FreeType's and
// Blend2D's cell rasterizers do: an edge is cut at row
// and column boundaries by exact floor divisions, each piece adds its cover
// (dy, 1/256 pixel) and area (dy x (fx0 + fx1)) to Int32 cells as two
// addends, and the prefix sum of a row is the coverage in units of 2^-17
// pixel, quantised to U8 once. Integer sums do not depend on the order of
// the edges, so any evaluation order gives these values: the GPU's compute
// program (accumulate.comp.glsl) accumulates the same cells with atomics.
//
// Speed without changing a value: the cells live in a reused, always-zero
// AccumulationScratch (no allocation or zeroing per op), edges are clipped
// without temporary arrays, and each edge marks the blocks of 8 cells it
// touches. The resolve visits only marked blocks: between them the prefix
// sum is constant, so the coverage is too, and the mask (CoverageMask, rows
// of spans) stores such a run as one constant span, or nothing when it is 0.
// A stroked circle thus costs its edges, not its bounding box. Every
// arithmetic expression is the one of the original dense resolve, in the
// same order: the results are bit-identical, which RasterizerIdentityTests
// checks against a copy of it.


/// Computes anti-aliased coverage masks of device shapes.
/// Not API: the stage benchmarks (Benchmarks/, a package of their own) reach it as SPI.
@_spi(Stages) public enum Rasterizer {
    /// Coverage of `shape` over `region` (device pixels); every value is in 0...1.
    @_spi(Stages) public static func coverage(of shape: DeviceShape, in region: PixelRect) -> CoverageMask {
        guard !region.isEmpty else { return CoverageMask(region: region, values: []) }
        return AccumulationScratch.withScratch { scratch -> CoverageMask in
            var acc = Accumulator(width: region.width, height: region.height, scratch: scratch)
            let ox = Double(region.x), oy = Double(region.y)
            for contour in shape.contours where contour.count >= 2 {
                var prev = contour[contour.count - 1]
                for p in contour {
                    acc.addLine(prev.x - ox, prev.y - oy, p.x - ox, p.y - oy)
                    prev = p
                }
            }
            return acc.resolveAndClear(rule: shape.rule, origin: region)
        }
    }

    /// The pixel region a shape can touch, within `bounds` (nil when it touches none).
    @_spi(Stages) public static func region(of shape: DeviceShape, within bounds: PixelRect) -> PixelRect? {
        guard let b = shape.bounds else { return nil }
        let r = PixelRect(enclosing: b).intersection(bounds)
        return r.isEmpty ? nil : r
    }
}

/// The signed-area accumulation buffer: one row of `width + 2` cells per pixel row, and one bit
/// per touched block of cells, in a borrowed scratch whose cells and bits are zero on entry and
/// again after `resolveAndClear`.
struct Accumulator {
    let width: Int
    let height: Int
    let stride: Int
    let cells: UnsafeMutablePointer<Int32>
    /// Per row, `wordsPerRow` words of bits, one per block of `blockShift`-aligned cells.
    let touched: UnsafeMutablePointer<UInt64>
    let wordsPerRow: Int
    static let blockShift = AccumulationScratch.blockWidth.trailingZeroBitCount

    init(width: Int, height: Int, scratch: AccumulationScratch) {
        self.width = width; self.height = height; stride = width + 2
        let blocks = (stride + AccumulationScratch.blockWidth - 1) >> Accumulator.blockShift
        wordsPerRow = (blocks + 63) >> 6
        scratch.reserve(cells: stride * height, words: wordsPerRow * height)
        cells = scratch.cells
        touched = scratch.touchedBlocks
    }

    /// Marks the blocks holding cells `first...last` of `row` as touched.
    @inline(__always)
    private func markTouched(row: Int, first: Int, last: Int) {
        let words = touched + row * wordsPerRow
        for block in (first >> Accumulator.blockShift)...(last >> Accumulator.blockShift) {
            words[block >> 6] |= 1 << UInt64(block & 63)
        }
    }

    /// Adds one edge, in region coordinates (pixel (0, 0) is the region's top-left pixel).
    mutating func addLine(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        EdgeClipper(width: width, height: height).clip(x0, y0, x1, y1) { addEdge($0, $1, $2, $3) }
    }

    /// Subpixel bits of the fixed-point edges: 1/256 pixel.
    static let subpixelShift = 8
    static let subpixels = Double(1 << subpixelShift)
    /// A whole pixel in the cells' units: cover 256 times twice the mean x offset 256.
    static let fullArea: Int32 = 1 << (2 * subpixelShift + 1)

    /// `floor(a * b / c)` for a, b >= 0 and c > 0 (products within 64 bits).
    @inline(__always)
    private static func scaled(_ a: Int, _ b: Int, _ c: Int) -> Int { a * b / c }

    /// Adds an edge in 24.8 fixed point with 0 <= x <= width * 256 and 0 <= y <= height * 256:
    /// cut at each row boundary (x there from an exact floor division), then each row's piece at
    /// each column boundary (y likewise), each cell piece adding `cover * (512 - fx0 - fx1)` to
    /// its cell and `cover * (fx0 + fx1)` to the next (fx: the piece's ends within the cell).
    mutating func addEdge(_ px0: Int, _ py0: Int, _ px1: Int, _ py1: Int) {
        guard py0 != py1 else { return }
        let dir: Int32 = py0 < py1 ? 1 : -1
        let (sx, sy, ex, ey) = py0 < py1 ? (px0, py0, px1, py1) : (px1, py1, px0, py0)
        let shift = Accumulator.subpixelShift
        let dx = abs(ex - sx), dy = ey - sy, stepX = ex >= sx ? 1 : -1
        var x = sx, y = sy
        for row in (sy >> shift)...((ey - 1) >> shift) {
            let bottom = min(ey, (row + 1) << shift)
            let nextX = bottom == ey ? ex : sx + stepX * Accumulator.scaled(dx, bottom - sy, dy)
            addRowPiece(row, x, y - (row << shift), nextX, bottom - (row << shift), dir)
            x = nextX; y = bottom
        }
    }

    /// One row's piece of an edge, from (xa, ya) down to (xb, yb) with ya < yb in 0...256.
    @inline(__always)
    private mutating func addRowPiece(_ row: Int, _ xa: Int, _ ya: Int, _ xb: Int, _ yb: Int, _ dir: Int32) {
        let shift = Accumulator.subpixelShift, one = 1 << shift
        let a = cells + row * stride
        let height = yb - ya
        if xa == xb {
            let cell = xa >> shift
            markTouched(row: row, first: cell, last: cell + 1)
            let cover = Int32(height) * dir, sum = Int32(2 * (xa - (cell << shift)))
            a[cell] &+= cover &* (Int32(2 * one) - sum)
            a[cell + 1] &+= cover &* sum
            return
        }
        // Left to right; t(x) = floor(height (x - left) / (right - left)) is the cover from the left
        // end to x, exact at both ends, so the cells' covers add up to the piece's height.
        let (left, right) = xa < xb ? (xa, xb) : (xb, xa)
        let span = right - left
        let first = left >> shift, last = (right - 1) >> shift
        markTouched(row: row, first: first, last: last + 1)
        var covered = 0
        for cell in first...last {
            let cellLeft = cell << shift
            let from = max(left, cellLeft), to = min(right, cellLeft + one)
            let reached = to == right ? height : Accumulator.scaled(height, to - left, span)
            let cover = Int32(reached - covered) * dir, sum = Int32(from + to - 2 * cellLeft)
            a[cell] &+= cover &* (Int32(2 * one) - sum)
            a[cell + 1] &+= cover &* sum
            covered = reached
        }
    }

    /// Prefix-sums each row into coverage under the fill rule, as spans of the mask over `origin`
    /// (the region, whose size is this accumulator's), zeroing every touched block's cells and
    /// bits (the scratch's invariant). A touched block inside the row becomes an explicit span,
    /// less its leading values equal to the coverage before it and its trailing values equal to
    /// the coverage after it; those join the constant runs between blocks, which become constant
    /// spans when they are not zero. Cells at or past `width` are cleared but never summed.
    func resolveAndClear(rule: FillRule, origin: PixelRect) -> CoverageMask {
        let evenOdd = rule == .evenOdd
        // The area in units of 2^-17 pixel, folded by the rule and rounded half up to U8.
        @inline(__always) func coverage(_ sum: Int32) -> UInt8 {
            let full = UInt32(Accumulator.fullArea)
            var v = sum.magnitude
            if evenOdd {
                v &= 2 * full - 1
                if v > full { v = 2 * full - v }
            } else if v > full {
                v = full
            }
            return UInt8(truncatingIfNeeded: (v &* 255 &+ full / 2) >> UInt32(2 * Accumulator.subpixelShift + 1))
        }
        let (width, stride, blockWidth) = (self.width, self.stride, AccumulationScratch.blockWidth)
        var builder = CoverageMask.Builder(region: origin)
        for row in 0..<height {
            let a = cells + row * stride, words = touched + row * wordsPerRow
            var sum: Int32 = 0, c: UInt8 = 0
            var next = 0  // the first column not yet in a span; coverage is c from there on
            for w in 0..<wordsPerRow {
                var bits = words[w]
                words[w] = 0
                while bits != 0 {
                    let start = (w << 6 | bits.trailingZeroBitCount) << Accumulator.blockShift
                    bits &= bits - 1
                    let end = min(start + blockWidth, width)
                    if start < width {
                        let before = c
                        let block = builder.valueSlot(count: end - start)
                        for x in start..<end {
                            let cell = a[x]
                            // Adding a zero leaves the sum, hence the coverage, unchanged.
                            if cell != 0 {
                                sum &+= cell
                                c = coverage(sum)
                                a[x] = 0
                            }
                            block[x - start] = c
                        }
                        // Values equal to the coverage before the block extend the run before
                        // it; values equal to the coverage after it start the run after it.
                        var first = 0, last = end - start
                        while first < last && block[first] == before { first += 1 }
                        while last > first && block[last - 1] == c { last -= 1 }
                        if first < last || before != c {
                            if start + first > next && before != 0 {
                                builder.addConstantSpan(x: origin.x + next, count: start + first - next, value: before)
                            }
                            if first < last {
                                builder.commitExplicitSpan(x: origin.x + start + first, first: first, count: last - first)
                            }
                            next = start + last
                        }
                    }
                    let clearFrom = max(start, width), clearTo = min(start + blockWidth, stride)
                    if clearFrom < clearTo { (a + clearFrom).update(repeating: 0, count: clearTo - clearFrom) }
                }
            }
            if next < width && c != 0 { builder.addConstantSpan(x: origin.x + next, count: width - next, value: c) }
            builder.endRow()
        }
        return builder.finish()
    }
}
