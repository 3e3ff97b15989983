// Joins: what covers the outer side of a corner between two segments.
//
// The outer side runs from segment a's offset point P + h n_a to segment b's
// P + h n_b (n: the outer normals, h: half the width). A round join is the arc
// between them (flattened within the tolerance); a bevel is the straight chord;
// a miter is the point where the two outer offset lines meet, at distance
// h / cos(theta / 2) from P for a turn of theta. Quartz's rule: the miter
// length is w / sin(alpha / 2) for an angle alpha = pi - theta between the
// segments, and a miter whose length / w exceeds the miter limit becomes a
// bevel; a ratio equal to the limit (within 1e-12 relative, so that a limit of
// exactly sqrt(2) keeps a right angle mitred) stays a miter. An exact reversal
// has an infinite miter, so a miter or bevel join there adds nothing, and a
// round join is the half disc beyond the vertex (the scene format's "a cusp
// gets the join"). Vertices inside one curve (smooth) always join round.

import Foundation

extension Stroker {
    /// The join shape used at a vertex.
    static func joinKind(smooth: Bool, _ parameters: StrokeParameters) -> LineJoin {
        smooth ? .round : parameters.join
    }

    /// True when a miter join for `turn` stays within `limit` (miter length / width).
    static func miterWithinLimit(_ turn: Turn, limit: Double) -> Bool {
        let cosHalf = max(0, (1 + turn.dot) / 2).squareRoot()   // 1 / (miter length / width)
        return limit * cosHalf >= 1 - 1e-12
    }

    /// Appends the outer side of the join at `p` from segment a's outer offset point to
    /// segment b's, both included, for a vertex that turns (not straight).
    ///
    /// With `miterPointOnly` (contour mode) a miter is just its tip: the offset points lie on
    /// the outline's straight edges on either side, so they would only add collinear points.
    static func appendOuterJoin(at p: Point, from da: Point, to db: Point, turn: Turn, kind: LineJoin,
                                _ parameters: StrokeParameters, miterPointOnly: Bool, into out: inout [Point]) {
        let h = parameters.halfWidth
        let side = turn.outerSide
        let na = leftNormal(da) * side, nb = leftNormal(db) * side
        switch kind {
        case .round where turn.dot > 0 && abs(turn.cross) <= turn.dot * parameters.oneChordTangent:
            // One chord (chordCount is 1 for this turn): its ends, with no angle to compute.
            out.append(p + na * h); out.append(p + nb * h)
        case .round:
            StrokeArc.append(center: p, radius: h, from: na, to: nb, sweep: side * turn.angle,
                             tolerance: parameters.tolerance, includeStart: true, includeEnd: true, into: &out)
        case .miter where miterWithinLimit(turn, limit: parameters.miterLimit):
            let tip = p + (na + nb) * (h / (1 + turn.dot))
            if miterPointOnly {
                out.append(tip)
            } else {
                out.append(p + na * h); out.append(tip); out.append(p + nb * h)
            }
        case .miter, .bevel:
            out.append(p + na * h); out.append(p + nb * h)
        }
    }

    /// The join at `p` as its own polygon (pieces mode): the vertex and the outer side.
    /// Its orientation is whatever the turn gives; the sink makes it positive.
    static func joinWedge(at p: Point, from da: Point, to db: Point, turn: Turn, kind: LineJoin,
                          _ parameters: StrokeParameters) -> [Point] {
        var wedge = [p]
        appendOuterJoin(at: p, from: da, to: db, turn: turn, kind: kind, parameters, miterPointOnly: false, into: &wedge)
        return wedge
    }
}
