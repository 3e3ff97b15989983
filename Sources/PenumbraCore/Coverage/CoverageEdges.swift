// CoverageEdges: a shape's edges as the coverage arithmetic takes them, the
// one input both coverage implementations share (docs/ARITHMETIC.md,
// "Coverage").
//
// The only floating-point step of coverage is here: each edge, in Double
// device coordinates, is clipped to the region (the part left of it becomes
// a vertical edge on its left side, which keeps the winding of the row; the
// part right of it is dropped; rows outside are skipped) and its ends are
// rounded to 1/256 pixel (24.8 fixed point, region coordinates). Everything
// after that is integer arithmetic whose sums do not depend on the order of
// the edges. The CPU's Accumulator feeds the clipped edges straight into its
// cells; the GPU renderer takes them as a list (`Rasterizer.edges`), uploads
// them and accumulates the same cells with integer atomics in a compute
// program (accumulate.comp.glsl), so both start from the same clipped,
// rounded edges and the masks are equal by construction.
//
// The list is kept in the form the GPU uploads, built here once on the
// planning threads rather than converted on the rendering thread: chains
// of points, each point after the first of its chain ending an edge that
// began at the point before it. A closed contour is one chain; a left-out
// horizontal edge or a clipped-away part starts a new one. Points are
// packed two to three 32-bit words, x and y 24 bits each (at most 2^22:
// the widest region the GPU takes, 16384 pixels, in 24.8), x's bit 23
// marking a chain's first point, so an edge costs about 6 bytes.

import PenumbraModel

/// A shape's edges clipped to a region and rounded to 24.8 fixed point (region coordinates,
/// 0 <= x <= width * 256, 0 <= y <= height * 256; horizontal edges add nothing and are left
/// out), with its fill rule, as chains of packed points.
package struct CoverageEdges: Sendable, Equatable {
    /// The pixels the edges were clipped to; coordinates are relative to its top-left pixel.
    package let region: PixelRect
    package let rule: FillRule
    /// The points, two to three words: point k in bits 48k to 48k + 47 (x in the low 24, y in
    /// the next 24), x's bit 23 set on a chain's first point.
    package private(set) var words: [UInt32] = []
    /// How many points there are; even once the list is finished (an odd count is padded with
    /// a chain's first point, which ends no edge).
    package private(set) var points = 0
    /// How many edges there are.
    package private(set) var count = 0
    private var lastX = -1, lastY = -1
    /// x's bit marking a chain's first point.
    package static let chainStart: UInt32 = 1 << 23

    package init(region: PixelRect, rule: FillRule) {
        self.region = region; self.rule = rule
    }

    mutating func append(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
        guard y0 != y1 else { return }
        if x0 != lastX || y0 != lastY { appendPoint(UInt32(x0) | CoverageEdges.chainStart, UInt32(y0)) }
        appendPoint(UInt32(x1), UInt32(y1))
        (lastX, lastY) = (x1, y1)
        count += 1
    }

    private mutating func appendPoint(_ x: UInt32, _ y: UInt32) {
        if points & 1 == 0 {
            words.append(x | (y << 24)); words.append(y >> 8); words.append(0)
        } else {
            let w = words.count - 3
            words[w + 1] |= x << 16
            words[w + 2] = (x >> 16) | (y << 8)
        }
        points += 1
    }

    /// Pads an odd point count with a chain's first point: lists then follow one another in a
    /// batch without an edge joining them.
    mutating func finish() {
        if points & 1 == 1 { appendPoint(CoverageEdges.chainStart, 0) }
    }
}

extension Rasterizer {
    /// The edges of `shape` over `region` (device pixels) that `coverage(of:in:)` accumulates.
    package static func edges(of shape: DeviceShape, in region: PixelRect) -> CoverageEdges {
        var edges = CoverageEdges(region: region, rule: shape.rule)
        guard !region.isEmpty else { return edges }
        EdgeClipper.forEachEdge(of: shape, in: region) { edges.append($0, $1, $2, $3) }
        edges.finish()
        return edges
    }
}

/// Clips Double edges (region coordinates) to a region of `width x height` pixels and rounds
/// the pieces to 24.8 fixed point. Inlinable: the CPU's rasterizer (PenumbraCPU) takes every
/// edge through `emit`, which must be inlined into its loops rather than called per edge.
@usableFromInline package struct EdgeClipper {
    @usableFromInline let width: Int, height: Int

    @usableFromInline init(width: Int, height: Int) { self.width = width; self.height = height }

    /// Subpixel bits of the fixed-point edges: 1/256 pixel.
    @usableFromInline package static let subpixelShift = 8
    @usableFromInline package static let subpixels = Double(1 << subpixelShift)

    /// Hands each edge of `shape` (device coordinates), clipped to `region` and rounded, to
    /// `emit` in region coordinates, contour by contour, each contour's closing edge first.
    ///
    /// A contour inside the region (the usual case: a region is a shape's bounds within the
    /// target) needs no clipping, and its points are rounded once each rather than once per
    /// edge end: its edges reach `emit` as `clip` would give them, since an edge inside the
    /// region is a single piece, rounded the same way. `clip` drops an edge lying on the
    /// region's right side and one whose ends round to the same height, and so does this.
    @inlinable @inline(__always)
    package static func forEachEdge(of shape: DeviceShape, in region: PixelRect, _ emit: (Int, Int, Int, Int) -> Void) {
        forEachEdge(of: shape, contours: shape.contours.indices, in: region, emit)
    }

    /// ``forEachEdge(of:in:_:)`` for the contours `contours` of `shape` alone: the edges it hands
    /// on for them, in the same order.
    @inlinable @inline(__always)
    package static func forEachEdge(of shape: DeviceShape, contours: Range<Int>, in region: PixelRect,
                            _ emit: (Int, Int, Int, Int) -> Void) {
        let clipper = EdgeClipper(width: region.width, height: region.height)
        let ox = Double(region.x), oy = Double(region.y)
        let w = Double(region.width), h = Double(region.height)
        for contour in shape.contours[contours] where contour.count >= 2 {
            // False for a NaN or infinite point too: those take `clip`, which skips their edges.
            let inside = contour.allSatisfy { p in
                let x = p.x - ox, y = p.y - oy
                return x >= 0 && x <= w && y >= 0 && y <= h
            }
            var prev = contour[contour.count - 1]
            guard inside else {
                for p in contour {
                    clipper.clip(prev.x - ox, prev.y - oy, p.x - ox, p.y - oy, emit)
                    prev = p
                }
                continue
            }
            let (maxX, maxY) = (region.width << EdgeClipper.subpixelShift, region.height << EdgeClipper.subpixelShift)
            var dx = prev.x - ox
            var px = EdgeClipper.fixed(dx, maxX), py = EdgeClipper.fixed(prev.y - oy, maxY)
            for p in contour {
                let ex = p.x - ox
                let x = EdgeClipper.fixed(ex, maxX), y = EdgeClipper.fixed(p.y - oy, maxY)
                // `piece`'s test for the right side, on the same Double values.
                if py != y && (dx + ex) / 2 < w { emit(px, py, x, y) }
                (dx, px, py) = (ex, x, y)
            }
        }
    }

    /// `v` in 1/256 pixel, rounded half away from zero (as `rounded()`), within 0...limit.
    /// Rounded without a call into libm: `s - trunc(s)` is exact (trunc(s) is within a factor of
    /// two of s, or 0), so comparing it with one half rounds exactly as `rounded()` does.
    @inlinable @inline(__always)
    static func fixed(_ v: Double, _ limit: Int) -> Int {
        let s = v * EdgeClipper.subpixels
        let t = Int(s)
        let fraction = s - Double(t)
        let rounded = fraction >= 0.5 ? t &+ 1 : (fraction <= -0.5 ? t &- 1 : t)
        return min(limit, max(0, rounded))
    }

    /// Hands each clipped piece of the edge (x0, y0) to (x1, y1) to `emit` in 1/256 pixel,
    /// 0...width * 256 by 0...height * 256.
    @inlinable @inline(__always)
    func clip(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ emit: (Int, Int, Int, Int) -> Void) {
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
            piece(ax, ay, bx, by, w, emit)
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
            piece(px, py, qx, qy, w, emit)
            px = qx; py = qy
        }
    }

    /// A piece that lies entirely on one side of each vertical clip line, rounded.
    @inlinable @inline(__always)
    func piece(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ w: Double,
                       _ emit: (Int, Int, Int, Int) -> Void) {
        guard y0 != y1 else { return }
        let mid = (x0 + x1) / 2
        if mid >= w { return }
        let (maxX, maxY) = (width << EdgeClipper.subpixelShift, height << EdgeClipper.subpixelShift)
        let (fy0, fy1) = (EdgeClipper.fixed(y0, maxY), EdgeClipper.fixed(y1, maxY))
        if mid <= 0 { emit(0, fy0, 0, fy1); return }
        emit(EdgeClipper.fixed(x0, maxX), fy0, EdgeClipper.fixed(x1, maxX), fy1)
    }
}
