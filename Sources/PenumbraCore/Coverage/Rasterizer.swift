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
// Double, accumulation in Float. The CPU computes coverage for both
// renderers, so parity of coverage holds by construction.
//
// Speed without changing a value: the cells live in a reused, always-zero
// AccumulationScratch (no allocation or zeroing per op), edges are clipped
// without temporary arrays, the output is written exactly once (zeros before
// a row's first touched cell, the prefix sums, then the row's final value),
// and coverage is recomputed only where a cell is nonzero (elsewhere the sum
// keeps its magnitude, so its coverage is unchanged). Every arithmetic
// expression is the one of the original, in the same order: the results are
// bit-identical, which RasterizerIdentityTests checks against a copy of it.


/// Computes anti-aliased coverage masks of device shapes.
public enum Rasterizer {
    /// Coverage of `shape` over `region` (device pixels); every value is in 0...1.
    public static func coverage(of shape: DeviceShape, in region: PixelRect) -> CoverageMask {
        guard !region.isEmpty else { return CoverageMask(region: region, values: []) }
        let values = AccumulationScratch.withScratch { scratch -> [Float] in
            var acc = Accumulator(width: region.width, height: region.height, scratch: scratch)
            let ox = Double(region.x), oy = Double(region.y)
            for contour in shape.contours where contour.count >= 2 {
                var prev = contour[contour.count - 1]
                for p in contour {
                    acc.addLine(prev.x - ox, prev.y - oy, p.x - ox, p.y - oy)
                    prev = p
                }
            }
            return acc.resolveAndClear(rule: shape.rule)
        }
        return CoverageMask(region: region, values: values)
    }

    /// The pixel region a shape can touch, within `bounds` (nil when it touches none).
    public static func region(of shape: DeviceShape, within bounds: PixelRect) -> PixelRect? {
        guard let b = shape.bounds else { return nil }
        let r = PixelRect(enclosing: b).intersection(bounds)
        return r.isEmpty ? nil : r
    }
}

/// The signed-area accumulation buffer: one row of `width + 2` cells per pixel row, in a
/// borrowed scratch whose cells are zero on entry and again after `resolveAndClear`.
struct Accumulator {
    let width: Int
    let height: Int
    let stride: Int
    let cells: UnsafeMutablePointer<Float>
    /// Per row, the first and one past the last cell any edge touched (first > last: none).
    let touchedStart: UnsafeMutablePointer<Int>
    let touchedEnd: UnsafeMutablePointer<Int>

    init(width: Int, height: Int, scratch: AccumulationScratch) {
        self.width = width; self.height = height; stride = width + 2
        scratch.reserve(cells: stride * height, rows: height)
        cells = scratch.cells
        touchedStart = scratch.touchedStart; touchedEnd = scratch.touchedEnd
        touchedStart.initialize(repeating: Int.max, count: height)
        touchedEnd.initialize(repeating: 0, count: height)
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
            touchedStart[row] = min(touchedStart[row], x0i)
            touchedEnd[row] = max(touchedEnd[row], max(x1i, x0i + 1) + 1)
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

    /// Prefix-sums each row into coverage under the fill rule, zeroing every nonzero cell it
    /// touched (the scratch's invariant). Cells before a row's first touched cell are zero; after its
    /// last one the sum is constant, so the rest of the row is filled with one value. Each
    /// output value is written once.
    func resolveAndClear(rule: FillRule) -> [Float] {
        let evenOdd = rule == .evenOdd
        @inline(__always) func coverage(_ sum: Float) -> Float {
            var c = abs(sum)
            if evenOdd {
                c = c.truncatingRemainder(dividingBy: 2)
                if c > 1 { c = 2 - c }
            } else if c > 1 {
                c = 1
            }
            // Snap accumulated rounding noise so untouched pixels stay untouched.
            if c < 1e-6 { c = 0 } else if c > 1 - 1e-6 { c = 1 }
            return c
        }
        let (width, height, stride) = (self.width, self.height, self.stride)
        return [Float](unsafeUninitializedCapacity: width * height) { out, initialized in
            let o = out.baseAddress!
            for row in 0..<height {
                let a = cells + row * stride, orow = o + row * width
                let touchedFirst = touchedStart[row], touchedLast = touchedEnd[row]
                let first = min(touchedFirst, width), last = min(width, touchedLast)
                guard first < last else {
                    orow.initialize(repeating: 0, count: width)
                    if touchedFirst < touchedLast {
                        (a + touchedFirst).update(repeating: 0, count: touchedLast - touchedFirst)
                    }
                    continue
                }
                orow.initialize(repeating: 0, count: first)
                var sum: Float = 0
                var c: Float = 0
                for x in first..<last {
                    let cell = a[x]
                    // Adding a zero leaves |sum|, hence the coverage, unchanged.
                    if cell != 0 {
                        sum += cell
                        c = coverage(sum)
                        a[x] = 0
                    }
                    (orow + x).initialize(to: c)
                }
                if last < touchedLast { (a + last).update(repeating: 0, count: touchedLast - last) }
                (orow + last).initialize(repeating: coverage(sum), count: width - last)
            }
            initialized = width * height
        }
    }
}
