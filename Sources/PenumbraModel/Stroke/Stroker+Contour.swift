// Contour mode: the stroke of a run whose band is locally simple, as one
// contour (open run) or two (closed run), with no overlapping pieces.
//
// At a vertex P turning by theta, the inner offset lines of the two segments
// meet at X = P + h (n_a + n_b) / (1 + cos theta) (n: the inner normals, h:
// half the width), t = h tan(theta / 2) from P along each segment. The outline
// uses X on the inner side and the join on the outer side (round at smooth
// vertices, the user's join at corners). This is exactly the union of the
// bands, joins and caps when the region it bounds contains every band, which
// `isLocallySimple` checks:
//
// Cut each segment's band at its ends by the bisector on the inner side and by
// the perpendicular on the outer side (the perpendicular alone at a cap or
// where the path goes straight on): a convex piece T_k. The outline bounds the
// T_k and the joins, glued along the cuts. The part of segment a's band that
// lies past the bisector at P is the triangle P, X, P + h n_a; the outline
// covers it when X lies in T_b and the band's inner corner P + h n_a lies in
// T_b, or past T_b's end in the next pieces along vertices that turn the same
// way (a locally convex hole, which no band enters: each lies on the ring side
// of its own inner offset line); symmetrically for b's band backwards. All
// within 1e-9 of the sizes involved. X in both neighbours needs t_i + t_(i+1)
// <= the segment's length: roughly, curvature radius >= h. A short last
// segment after a turn fails (the corner pokes past its cap), and cusps and
// reversals (t infinite) always fail: those runs go to pieces mode.
//
// When the test passes, the outline is the boundary of an immersed strip (or
// ring): its winding number counts the sheets covering a point, never 0 inside
// the union, so even a path that crosses itself fills correctly.

extension PreparedRun {
    /// True when contour mode outlines this run exactly (see the file's comment).
    package func isLocallySimple(halfWidth h: Double) -> Bool {
        let points = self.points, directions = self.directions, lengths = self.lengths
        let n = points.count, segmentCount = self.segmentCount, isClosed = self.isClosed
        // For each vertex that turns: the inner side (+1 left, -1 right, 0 none) and t.
        var innerSide = [Double](repeating: 0, count: n)
        var consumed = [Double](repeating: 0, count: n)
        var innerPoint = [Point](repeating: .zero, count: n)
        for vertex in jointVertices {
            let da = directions[segment(before: vertex)], db = directions[vertex]
            let turn = Turn(from: da, to: db)
            if turn.isStraight { continue }
            let t = h * abs(turn.cross) / (1 + turn.dot)
            guard t.isFinite, 1 + turn.dot > 0 else { return false }
            let side = -turn.outerSide
            innerSide[vertex] = side
            consumed[vertex] = t
            innerPoint[vertex] = points[vertex] + (leftNormal(da) + leftNormal(db)) * (side * h / (1 + turn.dot))
        }
        // Where `p` lies relative to segment k's piece T_k.
        func locate(_ p: Point, segment k: Int) -> PieceLocation {
            let start = k, end = k + 1 == n ? 0 : k + 1
            let d = directions[k], length = lengths[k]
            let rel = p - points[start]
            let along = rel.dot(d), across = rel.dot(leftNormal(d))
            // Rounding room: relative to the sizes, and a few ulps of the coordinates.
            let slack = 1e-9 * (h + length) + 1e-13 * (abs(points[start].x) + abs(points[start].y))
            guard abs(across) <= h + slack else { return .outside }
            if along < max(0, consumed[start] * across * innerSide[start] / h) - slack { return .beforeStart }
            if along > length - max(0, consumed[end] * across * innerSide[end] / h) + slack { return .pastEnd }
            return .inside
        }
        // Is `p` inside T_k, or past its end (start) inside a following (preceding) piece, along
        // a chain of vertices that turn to the same side `side`? Such a chain's pieces bound a
        // locally convex hole, so a point on the ring side of it is covered. The walk stops
        // after 64 pieces (then pieces mode, exact anyway), so the test stays linear.
        func insideChain(_ p: Point, from k: Int, forward: Bool, side: Double) -> Bool {
            var segment = k
            for _ in 0..<min(segmentCount, 64) {
                switch locate(p, segment: segment) {
                case .inside: return true
                case .outside: return false
                case .pastEnd:
                    let vertex = (segment + 1) % n
                    guard forward, innerSide[vertex] == side, isClosed || vertex != n - 1 else { return false }
                    segment = (segment + 1) % segmentCount
                case .beforeStart:
                    guard !forward, innerSide[segment] == side, isClosed || segment != 0 else { return false }
                    segment = (segment + segmentCount - 1) % segmentCount
                }
            }
            return false
        }
        for vertex in jointVertices where innerSide[vertex] != 0 {
            let a = segment(before: vertex), b = vertex
            let p = points[vertex], x = innerPoint[vertex], side = innerSide[vertex]
            let cornerA = p + leftNormal(directions[a]) * (side * h)
            let cornerB = p + leftNormal(directions[b]) * (side * h)
            guard locate(x, segment: b) == .inside, locate(x, segment: a) == .inside,
                  insideChain(cornerA, from: b, forward: true, side: side),
                  insideChain(cornerB, from: a, forward: false, side: side) else { return false }
        }
        return true
    }
}

/// Where a point lies relative to a segment's piece of the band.
private enum PieceLocation { case inside, outside, beforeStart, pastEnd }

extension Stroker {
    /// Emits a locally simple run as one contour (open) or a ring and its hole (closed).
    package static func emitContours(_ run: PreparedRun, _ parameters: StrokeParameters, into sink: inout OutlineSink) {
        let h = parameters.halfWidth
        let n = run.points.count
        var left: [Point] = [], right: [Point] = []
        left.reserveCapacity(2 * n + 2); right.reserveCapacity(2 * n + 2)

        // One vertex: the inner point on the inner side, the join on the outer side.
        func addJoint(vertex i: Int, a: Int, b: Int) {
            let p = run.points[i], da = run.directions[a], db = run.directions[b]
            let turn = Turn(from: da, to: db)
            let na = leftNormal(da)
            if turn.isStraight {
                left.append(p + na * h); right.append(p - na * h)
                return
            }
            let side = turn.outerSide
            let inner = p - (na + leftNormal(db)) * (side * h / (1 + turn.dot))
            let kind = joinKind(smooth: run.smooth[i], parameters)
            if side > 0 {
                appendOuterJoin(at: p, from: da, to: db, turn: turn, kind: kind, parameters, miterPointOnly: true, into: &left)
                right.append(inner)
            } else {
                left.append(inner)
                appendOuterJoin(at: p, from: da, to: db, turn: turn, kind: kind, parameters, miterPointOnly: true, into: &right)
            }
        }

        if run.isClosed {
            for vertex in run.jointVertices { addJoint(vertex: vertex, a: run.segment(before: vertex), b: vertex) }
            sink.append(left)
            sink.append(right.reversed())
            return
        }
        let first = run.points[0], last = run.points[n - 1]
        let d0 = run.directions[0], dn = run.directions[run.segmentCount - 1]
        left.append(first + leftNormal(d0) * h); right.append(first - leftNormal(d0) * h)
        for vertex in run.jointVertices { addJoint(vertex: vertex, a: run.segment(before: vertex), b: vertex) }
        left.append(last + leftNormal(dn) * h); right.append(last - leftNormal(dn) * h)

        var contour = left
        contour.reserveCapacity(left.count + right.count + 8)
        appendEndCap(at: last, direction: dn, parameters, into: &contour)
        contour.append(contentsOf: right.reversed())
        appendStartCap(at: first, direction: d0, parameters, into: &contour)
        sink.append(contour)
    }
}
