// ReferenceRasterizer: the rasterizer without its speed machinery (reused
// scratch, touched blocks, spans): dense cells, clipping as the rasterizer
// clips, and the integer accumulation written again from docs/ARITHMETIC.md,
// so RasterizerIdentityTests can demand bit-identical output.

@testable import PenumbraModel
@testable import PenumbraCore
@testable import PenumbraCPU
@_spi(Stages) import PenumbraCore

/// `Rasterizer.coverage` on the dense `ReferenceAccumulator`.
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
    return CoverageMask(region: region, values: acc.resolve(rule: shape.rule))
}

/// Dense integer cells, the reference the optimised accumulator must match bit for bit.
struct ReferenceAccumulator {
    let width: Int
    let height: Int
    let stride: Int
    var cells: [Int32]
    /// Per row, the first and one past the last cell any edge touched (first > last: none).
    var touchedStart: [Int]
    var touchedEnd: [Int]

    init(width: Int, height: Int) {
        self.width = width; self.height = height; stride = width + 2
        cells = [Int32](repeating: 0, count: stride * height)
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

    /// Adds a piece that lies entirely on one side of each vertical clip line, in 24.8 fixed point.
    private mutating func addClippedPiece(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ w: Double) {
        guard y0 != y1 else { return }
        let mid = (x0 + x1) / 2
        if mid >= w { return }
        func fixed(_ v: Double, _ limit: Int) -> Int { min(limit, max(0, Int((v * 256).rounded()))) }
        let (fy0, fy1) = (fixed(y0, height * 256), fixed(y1, height * 256))
        if mid <= 0 { addEdge(0, fy0, 0, fy1); return }
        addEdge(fixed(x0, width * 256), fy0, fixed(x1, width * 256), fy1)
    }

    /// docs/ARITHMETIC.md's "Coverage", written plainly: the edge's x at each row boundary and
    /// its y (as cover from the piece's left end) at each column boundary by floor divisions;
    /// every cell piece adds cover (512 - fx0 - fx1) to its cell and cover (fx0 + fx1) to the next.
    private mutating func addEdge(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
        guard y0 != y1 else { return }
        let dir = y0 < y1 ? 1 : -1
        let (sx, sy, ex, ey) = y0 < y1 ? (x0, y0, x1, y1) : (x1, y1, x0, y0)
        func xAt(_ y: Int) -> Int {
            y == ey ? ex : sx + (ex >= sx ? 1 : -1) * (abs(ex - sx) * (y - sy) / (ey - sy))
        }
        var row = sy / 256
        while row * 256 < ey {
            let top = max(sy, row * 256), bottom = min(ey, row * 256 + 256)
            let xa = xAt(top), xb = xAt(bottom), h = bottom - top
            let line = row * stride
            touchedStart[row] = min(touchedStart[row], min(xa, xb) / 256)
            touchedEnd[row] = max(touchedEnd[row], max(xa, xb) / 256 + 2)
            if xa == xb {
                let cell = xa / 256, fx = xa - cell * 256
                cells[line + cell] += Int32(dir * h * (512 - 2 * fx))
                cells[line + cell + 1] += Int32(dir * h * 2 * fx)
            } else {
                let left = min(xa, xb), right = max(xa, xb)
                var previous = 0
                for cell in (left / 256)...((right - 1) / 256) {
                    let from = max(left, cell * 256), to = min(right, cell * 256 + 256)
                    let reached = h * (to - left) / (right - left)
                    let cover = reached - previous, sum = (from - cell * 256) + (to - cell * 256)
                    cells[line + cell] += Int32(dir * cover * (512 - sum))
                    cells[line + cell + 1] += Int32(dir * cover * sum)
                    previous = reached
                }
            }
            row += 1
        }
    }

    /// Prefix-sums each row, folds the sum (units of 2^-17 pixel) by the rule and rounds it half
    /// up to U8.
    func resolve(rule: FillRule) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height)
        func coverage(_ sum: Int) -> UInt8 {
            var v = abs(sum)
            if rule == .evenOdd {
                v %= 1 << 18
                if v > 1 << 17 { v = (1 << 18) - v }
            } else {
                v = min(v, 1 << 17)
            }
            return UInt8((v * 255 + (1 << 16)) >> 17)
        }
        for row in 0..<height {
            var sum = 0
            for x in 0..<width {
                sum += Int(cells[row * stride + x])
                out[row * width + x] = coverage(sum)
            }
        }
        return out
    }
}
