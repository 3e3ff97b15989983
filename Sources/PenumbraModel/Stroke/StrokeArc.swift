// Circular arcs of round caps, round joins and round dots, flattened to chords.
//
// A chord spanning angle phi on a circle of radius r lies at most
// r * (1 - cos(phi / 2)) inside the arc; keeping that within the tolerance
// gives phi <= 2 * acos(1 - tol / r) = 4 * asin(sqrt(tol / (2 r))) (the second
// form keeps its precision when tol / r is tiny). An arc is split into equal
// chords of at most that angle and at most a quarter turn (so a full dot has
// at least four sides), and at most 2^16 chords per full turn, as the curve
// flattener caps its pieces. The end points are the exact offset points the
// caller passes, so arcs meet the straight edges of an outline exactly.

import Foundation

enum StrokeArc {
    /// The most chords of one full turn (as many as one flattened curve may have pieces).
    static let maximumChordsPerTurn = Double(1 << 16)

    /// The number of equal chords that keep an arc of `angle` radians (>= 0) and radius `radius`
    /// within `tolerance` of the circle: 1 for a small angle, never more than the cap allows.
    static func chordCount(angle: Double, radius: Double, tolerance: Double) -> Int {
        guard angle > 0, radius > 0 else { return 1 }
        let wanted = (angle / largestChordAngle(radius: radius, tolerance: tolerance)).rounded(.up)
        let cap = (maximumChordsPerTurn * angle / (2 * Double.pi)).rounded(.up)
        let n = min(wanted, cap)
        return n.isFinite ? max(1, Int(n)) : 1
    }

    /// The largest angle one chord of a circle of `radius` (> 0) may span within `tolerance`.
    static func largestChordAngle(radius: Double, tolerance: Double) -> Double {
        let ratio = tolerance / radius
        let step = ratio >= 2 ? Double.pi : 4 * asin((ratio / 2).squareRoot())
        return min(step, Double.pi / 2)
    }

    /// A bound on a turn's tangent |cross| / dot (dot > 0) below which `chordCount` of its
    /// angle is 1, without computing the angle: the angle is at most its tangent, and the
    /// margin covers the rounding of the tangent's product and of `atan2` (a few ulps, against
    /// 1e-12). 0 when the radius is not positive (no turn is then bounded).
    static func oneChordTangent(radius: Double, tolerance: Double) -> Double {
        guard radius > 0 else { return 0 }
        let limit = largestChordAngle(radius: radius, tolerance: tolerance) * (1 - 1e-12)
        return limit.isFinite ? limit : 0
    }

    /// Appends the points of the arc around `center` from `center + radius * from` to
    /// `center + radius * to`, turning by `sweep` radians (signed: positive turns from +x
    /// towards +y). `from` and `to` are unit vectors; the ends are included when asked.
    static func append(center: Point, radius: Double, from: Point, to: Point, sweep: Double,
                       tolerance: Double, includeStart: Bool, includeEnd: Bool, into out: inout [Point]) {
        let n = chordCount(angle: abs(sweep), radius: radius, tolerance: tolerance)
        if includeStart { out.append(center + from * radius) }
        if n > 1 {
            for k in 1..<n {
                let a = sweep * Double(k) / Double(n)
                let c = cos(a), s = sin(a)
                let v = Point(from.x * c - from.y * s, from.x * s + from.y * c)
                out.append(center + v * radius)
            }
        }
        if includeEnd { out.append(center + to * radius) }
    }

    /// A full circle (a round dot) as a polygon with positive signed area.
    static func circle(center: Point, radius: Double, tolerance: Double) -> [Point] {
        let n = max(4, chordCount(angle: 2 * Double.pi, radius: radius, tolerance: tolerance))
        var out: [Point] = []
        out.reserveCapacity(n)
        for k in 0..<n {
            let a = 2 * Double.pi * Double(k) / Double(n)
            out.append(center + Point(cos(a), sin(a)) * radius)
        }
        return out
    }
}
