// Geometry for the stroker tests: the exact area of the nonzero union of a set
// of contours, winding numbers, signed areas, distances, and a seeded random
// generator.
//
// The union area is computed by exact slab decomposition: cut the plane at
// every vertex's y and every y where two edges cross; inside one slab no edges
// cross, so the covered length along a horizontal line is linear in y and its
// value at the slab's middle times the slab's height is the slab's exact area.

import XCTest
@testable import PenumbraModel
@testable import PenumbraCore

enum StrokeTestSupport {
    /// The area of the region where the winding number of `contours` is not zero.
    static func nonzeroArea(_ contours: [[Point]]) -> Double {
        var edges: [(a: Point, b: Point, winding: Int)] = []
        var ys: [Double] = []
        for contour in contours where contour.count >= 3 {
            for i in 0..<contour.count {
                let p = contour[i], q = contour[(i + 1) % contour.count]
                ys.append(p.y)
                if p.y < q.y { edges.append((p, q, 1)) } else if p.y > q.y { edges.append((q, p, -1)) }
            }
        }
        edges.sort { $0.a.y < $1.a.y }
        for i in 0..<edges.count {
            let e = edges[i]
            for j in (i + 1)..<max(i + 1, edges.count) {
                let f = edges[j]
                if f.a.y >= e.b.y { break }
                if max(e.a.x, e.b.x) < min(f.a.x, f.b.x) || max(f.a.x, f.b.x) < min(e.a.x, e.b.x) { continue }
                let d1 = e.b - e.a, d2 = f.b - f.a
                let denominator = d1.cross(d2)
                guard denominator != 0 else { continue }
                let t = (f.a - e.a).cross(d2) / denominator
                let u = (f.a - e.a).cross(d1) / denominator
                if t > 0, t < 1, u > 0, u < 1 { ys.append(e.a.y + t * d1.y) }
            }
        }
        ys.sort()
        var area = 0.0
        var crossings: [(x: Double, winding: Int)] = []
        var lowest = 0
        for k in 1..<max(1, ys.count) {
            let y0 = ys[k - 1], y1 = ys[k]
            guard y1 > y0 else { continue }
            let ym = (y0 + y1) / 2
            crossings.removeAll(keepingCapacity: true)
            while lowest < edges.count, edges[lowest].b.y <= y0, edges[lowest].a.y <= y0 { lowest += 1 }
            for e in edges[lowest...] {
                if e.a.y > ym { break }
                guard e.b.y > ym else { continue }
                let x = e.a.x + (e.b.x - e.a.x) * (ym - e.a.y) / (e.b.y - e.a.y)
                crossings.append((x, e.winding))
            }
            crossings.sort { $0.x < $1.x }
            var winding = 0, covered = 0.0
            for (i, c) in crossings.enumerated() {
                winding += c.winding
                if winding != 0, i + 1 < crossings.count { covered += crossings[i + 1].x - c.x }
            }
            area += covered * (y1 - y0)
        }
        return area
    }

    /// The winding number of `contours` around `p` (+1 inside a contour of positive signed area).
    static func winding(at p: Point, _ contours: [[Point]]) -> Int {
        var w = 0
        for contour in contours where contour.count >= 3 {
            for i in 0..<contour.count {
                let a = contour[i], b = contour[(i + 1) % contour.count]
                let side = (b - a).cross(p - a)
                if a.y <= p.y, b.y > p.y, side > 0 { w += 1 }
                if b.y <= p.y, a.y > p.y, side < 0 { w -= 1 }
            }
        }
        return w
    }

    /// The sum of the contours' signed areas (what signed-area accumulation integrates).
    static func signedAreaSum(_ contours: [[Point]]) -> Double {
        contours.reduce(0) { $0 + signedArea($1) }
    }

    /// Distance from `p` to the segment from `a` to `b`.
    static func distance(_ p: Point, toSegment a: Point, _ b: Point) -> Double {
        let d = b - a
        let l2 = d.dot(d)
        let t = l2 > 0 ? min(1, max(0, (p - a).dot(d) / l2)) : 0
        return (p - (a + d * t)).length
    }

    /// Distance from `p` to a polyline (closed ones include the closing segment).
    static func distance(_ p: Point, toPolyline points: [Point], closed: Bool) -> Double {
        guard points.count > 1 else { return points.first.map { (p - $0).length } ?? .infinity }
        var best = Double.infinity
        let count = closed ? points.count : points.count - 1
        for i in 0..<count { best = min(best, distance(p, toSegment: points[i], points[(i + 1) % points.count])) }
        return best
    }

    /// Bounding box of all contour points.
    static func bounds(_ contours: [[Point]]) -> (min: Point, max: Point) {
        var lo = Point(.infinity, .infinity), hi = Point(-.infinity, -.infinity)
        for c in contours { for p in c { lo = Point(min(lo.x, p.x), min(lo.y, p.y)); hi = Point(max(hi.x, p.x), max(hi.y, p.y)) } }
        return (lo, hi)
    }

    /// Strokes `path` (flattened in user space at `tolerance`).
    static func stroke(_ path: Path, _ style: StrokeStyle, tolerance: Double = 1e-3) -> [[Point]] {
        Stroker.outline(path.flattened(tolerance: tolerance), style: style, tolerance: tolerance)
    }

    /// A path through `points`, closed when asked.
    static func polyline(_ points: [Point], closed: Bool = false) -> Path {
        var path = Path()
        path.move(to: points[0])
        for p in points.dropFirst() { path.addLine(to: p) }
        if closed { path.closeSubpath() }
        return path
    }

    /// A circle as the scene format builds it (four conics).
    static func circle(center: Point, radius: Double) -> Path {
        var path = Path()
        path.addEllipse(in: Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
        return path
    }

    /// A rounded rectangle with circular (conic) corners, clockwise on screen from (x + r, y).
    static func roundedRect(_ r: Rect, radius: Double) -> Path {
        let w = 0.5.squareRoot()
        var path = Path()
        path.move(to: Point(r.minX + radius, r.minY))
        path.addLine(to: Point(r.maxX - radius, r.minY))
        path.addConic(to: Point(r.maxX, r.minY + radius), control: Point(r.maxX, r.minY), weight: w)
        path.addLine(to: Point(r.maxX, r.maxY - radius))
        path.addConic(to: Point(r.maxX - radius, r.maxY), control: Point(r.maxX, r.maxY), weight: w)
        path.addLine(to: Point(r.minX + radius, r.maxY))
        path.addConic(to: Point(r.minX, r.maxY - radius), control: Point(r.minX, r.maxY), weight: w)
        path.addLine(to: Point(r.minX, r.minY + radius))
        path.addConic(to: Point(r.minX + radius, r.minY), control: Point(r.minX, r.minY), weight: w)
        path.closeSubpath()
        return path
    }
}

