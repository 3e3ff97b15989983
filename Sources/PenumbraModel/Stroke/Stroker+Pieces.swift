// Pieces mode: the stroke as a union of simple polygons, for runs whose band
// folds over itself (cusps, hairpins, curvature radius below half the width).
//
// Each segment's band is a rectangle; each vertex that turns gets its join
// (round at smooth vertices, the user's join at corners, at reversals too) as
// a wedge on the outer side, from the vertex to the outer offset points; an
// open run gets its caps as separate polygons. Every polygon has positive
// signed area, so the nonzero fill of the whole is exactly the union that the
// scene format defines: the bands within half the width of each segment, plus
// caps and joins, whatever the curvature. A circle of radius 3 stroked 10
// wide becomes rectangles and wedges that all cover its centre: a solid disc.
//
// Rectangles of consecutive segments share their end edges, which cancel in
// signed-area accumulation; only edges that cross inside the union are counted
// twice, as the scene format allows. A band that repeats an earlier one exactly
// (a path going back over the same segment, a zero-height rectangle) is
// emitted once, so it does not double the coverage of its edges.

extension Stroker {
    /// Emits the run as separate positive polygons: bands, joins and caps.
    package static func emitPieces(_ run: PreparedRun, _ parameters: StrokeParameters, into sink: inout OutlineSink) {
        let h = parameters.halfWidth
        var emittedBands = Set<BandKey>()
        for k in 0..<run.segmentCount where !sink.isFull {
            let a = run.points[k], b = run.end(ofSegment: k)
            guard emittedBands.insert(BandKey(a, b)).inserted else { continue }
            let n = leftNormal(run.directions[k]) * h
            sink.append([a + n, b + n, b - n, a - n])   // positive: left edge forwards
        }
        for vertex in run.jointVertices where !sink.isFull {
            let da = run.directions[run.segment(before: vertex)], db = run.directions[vertex]
            let turn = Turn(from: da, to: db)
            guard !turn.isStraight else { continue }
            let kind = joinKind(smooth: run.smooth[vertex], parameters)
            sink.appendPositive(joinWedge(at: run.points[vertex], from: da, to: db, turn: turn, kind: kind, parameters))
        }
        if !run.isClosed {
            let last = run.segmentCount - 1
            sink.appendPositive(startCapPolygon(at: run.points[0], direction: run.directions[0], parameters))
            sink.appendPositive(endCapPolygon(at: run.points[run.points.count - 1],
                                              direction: run.directions[last], parameters))
        }
    }
}

/// A segment's band regardless of its direction: the same two end points in either order.
private struct BandKey: Hashable {
    let p: Point, q: Point
    init(_ a: Point, _ b: Point) {
        if a.x < b.x || (a.x == b.x && a.y < b.y) { p = a; q = b } else { p = b; q = a }
    }
}
