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
// Edges are clipped to the region first: the part left of it becomes a
// vertical edge on its left side (which keeps the winding of the row), the
// part right of it is dropped, rows outside are skipped. Geometry is done in
// Double, accumulation in Float, and the coverage is quantised to U8 once
// (Fixed.unit8). The CPU computes coverage for both renderers, so parity of
// coverage holds by construction.
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
public enum Rasterizer {
    /// Coverage of `shape` over `region` (device pixels); every value is in 0...1.
    public static func coverage(of shape: DeviceShape, in region: PixelRect) -> CoverageMask {
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
    public static func region(of shape: DeviceShape, within bounds: PixelRect) -> PixelRect? {
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
    let cells: UnsafeMutablePointer<Float>
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
        guard y0 != y1, x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return }
        let h = Double(height), w = Double(width)
        // Clip to the rows of the region.
        if (y0 <= 0 && y1 <= 0) || (y0 >= h && y1 >= h) { return }
        var ax = x0, ay = y0, bx = x1, by = y1
        let dxdy = (x1 - x0) / (y1 - y0)
        if ay < 0 { ax += (0 - ay) * dxdy; ay = 0 } else if ay > h { ax += (h - ay) * dxdy; ay = h }
        if by < 0 { bx += (0 - by) * dxdy; by = 0 } else if by > h { bx += (h - by) * dxdy; by = h }
        guard ay != by else { return }
        // Split at x = 0 and x = width: left parts become vertical edges at 0, right parts vanish.
        // At most two split parameters, in ascending order (as a two-element sort would leave them).
        let crossesLeft = (ax < 0) != (bx < 0), crossesRight = (ax > w) != (bx > w)
        if !crossesLeft && !crossesRight {
            addClippedPiece(ax, ay, bx, by, w)
            return
        }
        var t0 = 0.0, t1 = 0.0, count = 0
        if crossesLeft { t0 = (0 - ax) / (bx - ax); count = 1 }
        if crossesRight {
            let t = (w - ax) / (bx - ax)
            if count == 0 { t0 = t } else if t < t0 { t1 = t0; t0 = t } else { t1 = t }
            count += 1
        }
        var px = ax, py = ay
        for i in 0...count {
            let t = i == count ? 1.0 : (i == 0 ? t0 : t1)
            let qx = t == 1 ? bx : ax + (bx - ax) * t
            let qy = t == 1 ? by : ay + (by - ay) * t
            addClippedPiece(px, py, qx, qy, w)
            px = qx; py = qy
        }
    }

    /// Adds a piece that lies entirely on one side of each vertical clip line.
    private mutating func addClippedPiece(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ w: Double) {
        guard y0 != y1 else { return }
        let mid = (x0 + x1) / 2
        if mid >= w { return }
        if mid <= 0 { addEdge(0, y0, 0, y1); return }
        addEdge(min(w, max(0, x0)), y0, min(w, max(0, x1)), y1)
    }

    /// Adds an edge with 0 <= x <= width and 0 <= y <= height (font-rs's draw_line, in Double).
    private mutating func addEdge(_ px0: Double, _ py0: Double, _ px1: Double, _ py1: Double) {
        let dir: Double
        let (sx, sy, ex, ey): (Double, Double, Double, Double)
        if py0 < py1 { dir = 1; (sx, sy, ex, ey) = (px0, py0, px1, py1) } else { dir = -1; (sx, sy, ex, ey) = (px1, py1, px0, py0) }
        let dxdy = (ex - sx) / (ey - sy)
        let maxX = Double(width)
        var x = min(maxX, max(0, sx))
        let rowStart = max(0, Int(sy.rounded(.down)))
        let rowEnd = min(height, Int(ey.rounded(.up)))
        guard rowStart < rowEnd else { return }
        for row in rowStart..<rowEnd {
            let a = cells + row * stride
            let dy = min(Double(row + 1), ey) - max(Double(row), sy)
            // Stepping x row by row can drift a hair outside [0, width]; clamp it back.
            let xnext = min(maxX, max(0, x + dxdy * dy))
            let d = dy * dir
            let (x0, x1) = x < xnext ? (x, xnext) : (xnext, x)
            let x0floor = x0.rounded(.down)
            let x0i = Int(x0floor)
            let x1ceil = x1.rounded(.up)
            let x1i = Int(x1ceil)
            markTouched(row: row, first: x0i, last: max(x1i, x0i + 1))
            if x1i <= x0i + 1 {
                let xmf = 0.5 * (x + xnext) - x0floor
                a[x0i] += Float(d - d * xmf)
                a[x0i + 1] += Float(d * xmf)
            } else {
                let s = 1 / (x1 - x0)
                let x0f = x0 - x0floor
                let a0 = 0.5 * s * (1 - x0f) * (1 - x0f)
                let x1f = x1 - x1ceil + 1
                let am = 0.5 * s * x1f * x1f
                a[x0i] += Float(d * a0)
                if x1i == x0i + 2 {
                    a[x0i + 1] += Float(d * (1 - a0 - am))
                } else {
                    let a1 = s * (1.5 - x0f)
                    a[x0i + 1] += Float(d * (a1 - a0))
                    if x0i + 2 < x1i - 1 {
                        let ds = Float(d * s)
                        for xi in (x0i + 2)..<(x1i - 1) { a[xi] += ds }
                    }
                    let a2 = a1 + Double(x1i - x0i - 3) * s
                    a[x1i - 1] += Float(d * (1 - a2 - am))
                }
                a[x1i] += Float(d * am)
            }
            x = xnext
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
        @inline(__always) func coverage(_ sum: Float) -> UInt8 {
            var c = abs(sum)
            if evenOdd {
                c = c.truncatingRemainder(dividingBy: 2)
                if c > 1 { c = 2 - c }
            } else if c > 1 {
                c = 1
            }
            // Quantised once, here, to U8 (rounding noise far below half a level vanishes).
            return Fixed.unit8(c)
        }
        let (width, stride, blockWidth) = (self.width, self.stride, AccumulationScratch.blockWidth)
        var builder = CoverageMask.Builder(region: origin)
        for row in 0..<height {
            let a = cells + row * stride, words = touched + row * wordsPerRow
            var sum: Float = 0, c: UInt8 = 0
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
                            // Adding a zero leaves |sum|, hence the coverage, unchanged.
                            if cell != 0 {
                                sum += cell
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
