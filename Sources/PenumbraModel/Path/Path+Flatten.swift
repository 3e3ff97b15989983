// Flattening: curves to polylines, shared by both renderers and by the
// stroker, so parity of geometry holds by construction.
//
// Béziers use Wang's formula: n = ceil(sqrt(d(d-1)/8 * M / tol)) uniform
// pieces, M the largest second difference of the control points, keeps every
// piece within `tol` of the curve. Conics (ellipses, arcs) are halved exactly
// (a half of a conic is a conic) until the deviation bound w h / (1 + w)
// (h: distance from the control point to the chord's line) is within `tol`;
// when the control point projects outside the chord the curve runs back past
// an end, and the bound is the control point's distance to the chord segment.
// The scene format asks for 1/64 px in device space: fills transform first
// and flatten with 1/64; strokes flatten in user space with 1/64 divided by
// the transform's largest stretch.

/// The device-space flattening tolerance of the scene format, in pixels.
package let flatteningTolerance: Double = 1.0 / 64.0

/// Most pieces one curve may become: a guard against absurd coordinates, far above what any
/// on-canvas curve needs at 1/64 px (a circle of radius 10^6 px needs about 18,000 in all).
let maximumPiecesPerCurve = 1 << 16

extension Path {
    /// The path mapped through `transform` and flattened to polylines within `tolerance`.
    package func flattened(transform: AffineTransform = .identity, tolerance: Double = flatteningTolerance) -> [FlatSubpath] {
        flattened(transform: transform, tolerance: tolerance, pointLimit: .max) ?? []
    }

    /// The path flattened as `flattened(transform:tolerance:)` does, or nil as soon as it has
    /// more than `pointLimit` points (checked per element, so at most one curve's pieces more
    /// are ever made): a geometry budget's way to stop before holding them all.
    package func flattened(transform: AffineTransform, tolerance: Double, pointLimit: Int) -> [FlatSubpath]? {
        var result: [FlatSubpath] = []
        var pointCount = 0
        var points: [Point] = []
        var smooth: [Bool] = []
        var hasSegment = false
        var current = Point.zero
        // The curve's own directions at the subpath's ends (nil where a line starts or ends it).
        var startTangent: Point?, endTangent: Point?

        func finish(closed: Bool) {
            if hasSegment, !points.isEmpty {
                if closed, points.count > 1, points.last == points.first {
                    // The vertex before the dropped one keeps its flag: when the last element is a
                    // curve ending at the start, that vertex lies inside the curve.
                    points.removeLast(); smooth.removeLast()
                } else {
                    smooth[smooth.count - 1] = false
                }
                smooth[0] = false
                result.append(FlatSubpath(points: points, smooth: smooth, isClosed: closed,
                                          startTangent: closed ? nil : startTangent, endTangent: closed ? nil : endTangent))
            }
            points = []; smooth = []; hasSegment = false; startTangent = nil; endTangent = nil
        }
        func begin(_ p: Point) { points = [p]; smooth = [false]; current = p }
        // Appends the interior and end points of one element; interior ones are smooth.
        // `controls` are the element's points after the current one, for its end tangents.
        func appendCurvePoints(_ pts: [Point], controls: [Point] = []) {
            if !controls.isEmpty {
                let all = [current] + controls
                let first = all.dropFirst().first { $0 != current }.map { $0 - current }
                let end = all.last!
                let last = all.dropLast().last { $0 != end }.map { end - $0 }
                if !hasSegment { startTangent = first }
                endTangent = last
            } else {
                if !hasSegment { startTangent = nil }
                endTangent = nil
            }
            hasSegment = true
            pointCount += pts.count
            for (i, p) in pts.enumerated() {
                points.append(p); smooth.append(i < pts.count - 1)
            }
            current = pts.last ?? current
        }

        for element in elements {
            guard pointCount <= pointLimit else { return nil }
            switch element {
            case .move(let p):
                pointCount += 1
                finish(closed: false)
                begin(transform.apply(p))
            case .line(let p):
                appendCurvePoints([transform.apply(p)])
            case .quad(let c, let p):
                let (tc, tp) = (transform.apply(c), transform.apply(p))
                appendCurvePoints(Flattener.quad(current, tc, tp, tolerance), controls: [tc, tp])
            case .cubic(let c1, let c2, let p):
                let (t1, t2, tp) = (transform.apply(c1), transform.apply(c2), transform.apply(p))
                appendCurvePoints(Flattener.cubic(current, t1, t2, tp, tolerance), controls: [t1, t2, tp])
            case .conic(let c, let p, let w):
                let (tc, tp) = (transform.apply(c), transform.apply(p))
                appendCurvePoints(Flattener.conic(current, tc, tp, w, tolerance), controls: [tc, tp])
            case .close:
                hasSegment = true
                let start = points.first ?? current
                finish(closed: true)
                begin(start)
            }
        }
        finish(closed: false)
        return pointCount <= pointLimit ? result : nil
    }
}

/// Curve flattening primitives: each returns the points after the start, ending at the end point.
enum Flattener {
    static func pieceCount(secondDifference m: Double, degreeFactor: Double, tolerance: Double) -> Int {
        guard m.isFinite, tolerance > 0 else { return 1 }
        let n = (degreeFactor * m / tolerance).squareRoot().rounded(.up)
        guard n.isFinite else { return maximumPiecesPerCurve }
        // Clamped as a Double first: a finite count beyond Int's range must not trap the conversion.
        return max(1, Int(min(Double(maximumPiecesPerCurve), n)))
    }

    static func quad(_ p0: Point, _ p1: Point, _ p2: Point, _ tol: Double) -> [Point] {
        let m = (p0 - 2 * p1 + p2).length
        let n = pieceCount(secondDifference: m, degreeFactor: 0.25, tolerance: tol)
        var out: [Point] = []
        out.reserveCapacity(n)
        for i in 1..<n {
            let t = Double(i) / Double(n), u = 1 - t
            out.append(u * u * p0 + 2 * u * t * p1 + t * t * p2)
        }
        out.append(p2)
        return out
    }

    static func cubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ tol: Double) -> [Point] {
        let m = max((p0 - 2 * p1 + p2).length, (p1 - 2 * p2 + p3).length)
        let n = pieceCount(secondDifference: m, degreeFactor: 0.75, tolerance: tol)
        var out: [Point] = []
        out.reserveCapacity(n)
        for i in 1..<n {
            let t = Double(i) / Double(n), u = 1 - t
            out.append(u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3)
        }
        out.append(p3)
        return out
    }

    static func conic(_ p0: Point, _ p1: Point, _ p2: Point, _ w: Double, _ tol: Double) -> [Point] {
        var out: [Point] = []
        subdivideConic(p0, p1, p2, w, tol, depth: 0, into: &out)
        return out
    }

    /// A bound on the distance from the conic to its chord (the segment p0 p2).
    ///
    /// The conic lies in the triangle p0 p1 p2. When p1 projects onto the chord within the
    /// segment, so does the whole triangle, and the distance to the segment is the distance to
    /// its line, largest at t = 1/2: w h / (1 + w), h the distance from p1 to the line. Otherwise
    /// the curve runs back past an end of the chord, and the bound is the distance from p1 to the
    /// segment (the farthest point of the triangle).
    static func conicDeviation(_ p0: Point, _ p1: Point, _ p2: Point, _ w: Double) -> Double {
        let chord = p2 - p0
        let len2 = chord.dot(chord)
        guard len2 > 0 else { return (p1 - p0).length }
        let along = (p1 - p0).dot(chord) / len2
        if along < 0 { return (p1 - p0).length }
        if along > 1 { return (p1 - p2).length }
        let h = abs(chord.cross(p1 - p0)) / len2.squareRoot()
        return w * h / (1 + w)
    }

    /// Halves the conic until its deviation from the chord is within `tol` (at most 16 levels).
    private static func subdivideConic(_ p0: Point, _ p1: Point, _ p2: Point, _ w: Double, _ tol: Double,
                                       depth: Int, into out: inout [Point]) {
        let deviation = conicDeviation(p0, p1, p2, w)
        if deviation <= tol || depth >= 16 || !deviation.isFinite {
            out.append(p2); return
        }
        let mid = (p0 + 2 * w * p1 + p2) * (1 / (2 * (1 + w)))
        let c0 = (p0 + w * p1) * (1 / (1 + w))
        let c1 = (w * p1 + p2) * (1 / (1 + w))
        let w2 = ((1 + w) / 2).squareRoot()
        subdivideConic(p0, c0, mid, w2, tol, depth: depth + 1, into: &out)
        subdivideConic(mid, c1, p2, w2, tol, depth: depth + 1, into: &out)
    }
}
