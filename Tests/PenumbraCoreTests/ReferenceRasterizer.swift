// ReferenceRasterizer: a verbatim copy of the rasterizer before its buffers were
// reused across calls, so RasterizerIdentityTests can demand bit-identical output
// (its Float coverage quantised by Fixed.unit8, as the rasterizer now stores it).

@testable import PenumbraCore

/// `Rasterizer.coverage` as it was before the scratch-reuse rewrite, on `ReferenceAccumulator`.
func referenceCoverage(of shape: DeviceShape, in region: PixelRect) -> CoverageMask {
    guard !region.isEmpty else { return CoverageMask(region: region, values: []) }
    var acc = ReferenceAccumulator(width: region.width, height: region.height)
    let ox = Double(region.x), oy = Double(region.y)
    for contour in shape.contours where contour.count >= 2 {
        var prev = contour[contour.count - 1]
        for p in contour {
            acc.addLine(prev.x - ox, prev.y - oy, p.x - ox, p.y - oy)
            prev = p
        }
    }
    return CoverageMask(region: region, quantising: acc.resolve(rule: shape.rule))
}

/// The accumulator as it was before the scratch-reuse rewrite (commit 286e3d7), kept verbatim
/// as the reference the optimised one must match bit for bit.
struct ReferenceAccumulator {
    let width: Int
    let height: Int
    let stride: Int
    var cells: [Float]
    /// Per row, the first and one past the last cell any edge touched (first > last: none).
    var touchedStart: [Int]
    var touchedEnd: [Int]

    init(width: Int, height: Int) {
        self.width = width; self.height = height; stride = width + 2
        cells = [Float](repeating: 0, count: stride * height)
        touchedStart = [Int](repeating: Int.max, count: height)
        touchedEnd = [Int](repeating: 0, count: height)
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
        var ts: [Double] = []
        if (ax < 0) != (bx < 0) { ts.append((0 - ax) / (bx - ax)) }
        if (ax > w) != (bx > w) { ts.append((w - ax) / (bx - ax)) }
        if ts.isEmpty {
            addClippedPiece(ax, ay, bx, by, w)
            return
        }
        ts.sort()
        var px = ax, py = ay
        for t in ts + [1.0] {
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
        cells.withUnsafeMutableBufferPointer { a in
            for row in rowStart..<rowEnd {
                let line = row * stride
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
                    a[line + x0i] += Float(d - d * xmf)
                    a[line + x0i + 1] += Float(d * xmf)
                } else {
                    let s = 1 / (x1 - x0)
                    let x0f = x0 - x0floor
                    let a0 = 0.5 * s * (1 - x0f) * (1 - x0f)
                    let x1f = x1 - x1ceil + 1
                    let am = 0.5 * s * x1f * x1f
                    a[line + x0i] += Float(d * a0)
                    if x1i == x0i + 2 {
                        a[line + x0i + 1] += Float(d * (1 - a0 - am))
                    } else {
                        let a1 = s * (1.5 - x0f)
                        a[line + x0i + 1] += Float(d * (a1 - a0))
                        if x0i + 2 < x1i - 1 {
                            let ds = Float(d * s)
                            for xi in (x0i + 2)..<(x1i - 1) { a[line + xi] += ds }
                        }
                        let a2 = a1 + Double(x1i - x0i - 3) * s
                        a[line + x1i - 1] += Float(d * (1 - a2 - am))
                    }
                    a[line + x1i] += Float(d * am)
                }
                x = xnext
            }
        }
    }

    /// Prefix-sums each row into coverage under the fill rule. Cells before a row's first
    /// touched cell are zero; after its last one the sum is constant, so the rest of the row is
    /// filled with one value.
    func resolve(rule: FillRule) -> [Float] {
        var out = [Float](repeating: 0, count: width * height)
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
        cells.withUnsafeBufferPointer { a in
            out.withUnsafeMutableBufferPointer { o in
                for row in 0..<height {
                    let first = touchedStart[row], last = min(width, touchedEnd[row])
                    guard first < last else { continue }
                    var sum: Float = 0
                    let line = row * stride, orow = row * width
                    for x in first..<last {
                        sum += a[line + x]
                        o[orow + x] = coverage(sum)
                    }
                    let rest = coverage(sum)
                    if rest != 0 { for x in last..<width { o[orow + x] = rest } }
                }
            }
        }
        return out
    }
}
