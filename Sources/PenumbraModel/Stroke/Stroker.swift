// Stroker: turns flattened subpaths (user space) into outline contours that
// both renderers fill with the nonzero rule. The scene format defines the
// result (SCENE_FORMAT.md, "Strokes"):
//
//   "A stroke covers, for each piece of the path, the band within half the
//   line width measured perpendicular to it, plus caps and joins (a cusp gets
//   the join), whatever the curvature (a circle whose radius is less than half
//   the width strokes to a solid disc); the outline is filled with the nonzero
//   rule. A line width of 0 strokes nothing."
//
// The renderers compute coverage by signed-area accumulation, where pieces of
// one outline that overlap are counted twice along their edges. So the
// stroker emits as few overlaps as exactness allows, in three stages:
//
// 1. Dash (Dasher.swift): each subpath becomes open dash pieces, or stays as
//    it is for a solid line (closed subpaths stay closed).
// 2. Prepare (StrokeRun.swift): drop zero-length segments; a run whose points
//    are all equal is a zero-length subpath and becomes a dot (Stroker+Caps).
// 3. Outline each run in one of two modes:
//    - contour mode (Stroker+Contour.swift) when the band is locally simple
//      (roughly: curvature radius >= half width everywhere): one contour for
//      an open run, two (ring and hole) for a closed one, no overlaps;
//    - pieces mode (Stroker+Pieces.swift) otherwise (cusps, hairpins, small
//      circles under wide strokes): every segment band, join and cap is its own
//      polygon, all with the same orientation, so that the nonzero union is
//      exactly the union the scene format describes.
//
// Orientation: every polygon of pieces mode, every dot and every open contour
// has positive signed area, A = 1/2 * sum(x_i * y_(i+1) - x_(i+1) * y_i),
// which is clockwise on screen (y down) and winding number +1 inside. Of a
// closed run's two contours, the one on the left of the path (screen left,
// the normal (d.y, -d.x) of direction d) runs forwards and the one on the
// right backwards, so that the ring has winding 1 and the hole 0.
//
// Output is deterministic (no hashing order, no randomness) and finite: a
// contour with a non-finite point is dropped, never returned.

import Dispatch

/// Outlines strokes: the shared stroking code of both renderers (CGContextStrokePath's geometry).
package enum Stroker {
    /// The most dash pieces one `outline` call produces; the rest of the path is not dashed.
    /// A guard against patterns of tiny lengths on huge paths (it bounds time and memory).
    package static let maximumDashPieces = 1_000_000

    /// The most outline points one `outline` call returns (2^25, 512 MiB of points); contours
    /// past it are dropped. A guard against absurd widths and dash patterns, far above what a
    /// scene within the format's limits of 1,000,000 path segments needs.
    package static let maximumOutlinePoints = 1 << 25

    /// Outlines flattened subpaths (user space) into contours to fill with the nonzero rule.
    ///
    /// - Parameters:
    ///   - subpaths: the path flattened in user space (`Path.flattened`).
    ///   - style: width, cap, join, miter limit and dashes. A width that is not positive and
    ///     finite strokes nothing. A dash pattern with a negative or non-finite entry, or whose
    ///     entries sum to 0, strokes solid; an odd count of entries is repeated once (Quartz:
    ///     `[10]` is 10 on, 10 off).
    ///   - tolerance: the largest distance between a round cap or join and its flattened chords,
    ///     in user space (`GraphicsContext` passes 1/64 px divided by the transform's largest
    ///     stretch). One that is not positive and finite is taken as 1/64.
    /// - Returns: contours in user space, each at least three points, implicitly closed.
    package static func outline(_ subpaths: [FlatSubpath], style: StrokeStyle, tolerance: Double) -> [[Point]] {
        outline(subpaths, style: style, tolerance: tolerance, budget: nil, cancellation: nil).contours
    }

    /// `outline(_:style:tolerance:)` taking its points from a recording's shared `budget` (the
    /// result says when it ran out, and holds only what fitted) and stopping early, with a
    /// partial result, once `cancellation` is set (looked at every 1,024 runs or dash pieces).
    /// With `threads` above 1, a solid stroke's subpaths are outlined on that many threads, in
    /// runs of consecutive subpaths whose contours are joined in order: each subpath's outline
    /// depends on that subpath alone, so the contours are those of one thread. (A dashed stroke's
    /// pieces share the dash budget in path order, so it stays on one thread.)
    package static func outline(_ subpaths: [FlatSubpath], style: StrokeStyle, tolerance: Double,
                                budget: GeometryBudget?, cancellation: RenderCancellation?, threads: Int = 1)
        -> (contours: [[Point]], overBudget: Bool) {
        let halfWidth = style.width / 2
        guard halfWidth > 0, halfWidth.isFinite else { return ([], false) }
        let parameters = StrokeParameters(
            halfWidth: halfWidth,
            tolerance: tolerance > 0 && tolerance.isFinite ? tolerance : flatteningTolerance,
            cap: style.cap, join: style.join, miterLimit: style.miterLimit)
        let pattern = DashPattern(lengths: style.dashLengths, phase: style.dashPhase)
        if pattern == nil, threads > 1, subpaths.count > 1, (budget?.limit ?? 0) < maximumOutlinePoints,
           let parallel = outlineInParallel(subpaths, parameters, budget: budget, cancellation: cancellation, threads: threads) {
            return parallel
        }
        var sink = OutlineSink(pointLimit: maximumOutlinePoints, shared: budget)
        var dashBudget = maximumDashPieces
        var runs = 0
        func goOn() -> Bool {
            runs += 1
            if runs & 1023 == 0, cancellation?.isCancelled == true { sink.stop() }
            return !sink.isFull
        }

        for subpath in subpaths where goOn() {
            guard !subpath.points.isEmpty, subpath.points.allSatisfy(\.isFinite) else { continue }
            if let pattern {
                Dasher.split(subpath, pattern: pattern, budget: &dashBudget) { run in
                    outline(run, parameters, into: &sink)
                    return goOn()
                }
            } else {
                outline(StrokeRun(subpath), parameters, into: &sink)
            }
        }
        return (sink.contours, sink.overBudget)
    }

    /// A solid stroke's subpaths outlined in `threads` runs of consecutive subpaths (about equal
    /// in points), each into a sink of its own, the contours joined in subpath order. Nil when
    /// that could differ from one sink's result, so the caller outlines on one thread: when the
    /// contours reach the call's point limit, where one sink would have stopped part way. That
    /// is only possible without a shared budget; with one (smaller than the limit, or this is
    /// not tried) the budget runs out first, so its points are never taken twice. A cancelled
    /// outline returns what it made, as one thread's does.
    private static func outlineInParallel(_ subpaths: [FlatSubpath], _ parameters: StrokeParameters,
                                          budget: GeometryBudget?, cancellation: RenderCancellation?, threads: Int)
        -> (contours: [[Point]], overBudget: Bool)? {
        // Runs of subpaths split where the running point count crosses each thread's share.
        let total = subpaths.reduce(0) { $0 + $1.points.count }
        var bounds = [0]
        var seen = 0
        for (i, subpath) in subpaths.enumerated() {
            seen += subpath.points.count
            if bounds.count < threads, seen * threads >= total * bounds.count, i + 1 < subpaths.count { bounds.append(i + 1) }
        }
        bounds.append(subpaths.count)
        let runs = bounds.count - 1, starts = bounds
        guard runs > 1 else { return nil }
        let results = UnsafeMutableBufferPointer<OutlineSink>.allocate(capacity: runs)
        results.initialize(repeating: OutlineSink(pointLimit: maximumOutlinePoints, shared: budget))
        defer { results.deinitialize(); results.deallocate() }
        let output = DisjointWrites(results)
        DispatchQueue.concurrentPerform(iterations: runs) { run in
            var sink = OutlineSink(pointLimit: maximumOutlinePoints, shared: budget)
            for subpath in subpaths[starts[run]..<starts[run + 1]] {
                if sink.isFull || cancellation?.isCancelled == true { break }
                guard !subpath.points.isEmpty, subpath.points.allSatisfy(\.isFinite) else { continue }
                outline(StrokeRun(subpath), parameters, into: &sink)
            }
            output.value[run] = sink
        }
        let overBudget = results.contains { $0.overBudget }
        if !overBudget, results.reduce(0, { $0 + $1.pointCount }) >= maximumOutlinePoints { return nil }
        return (results.flatMap(\.contours), overBudget)
    }

    /// Outlines one run (a solid subpath or a dash piece) in the mode it needs.
    static func outline(_ run: StrokeRun, _ parameters: StrokeParameters, into sink: inout OutlineSink) {
        guard let prepared = PreparedRun(run) else {
            if let p = run.points.first { emitDot(at: p, direction: run.direction, parameters, into: &sink) }
            return
        }
        if prepared.isLocallySimple(halfWidth: parameters.halfWidth) {
            emitContours(prepared, parameters, into: &sink)
        } else {
            emitPieces(prepared, parameters, into: &sink)
        }
        if !prepared.isClosed { emitEndTangentWedges(run, prepared, parameters, into: &sink) }
    }

    /// Where a curve starts or ends an open run, the first (last) chord's band stops on a line
    /// perpendicular to the chord, not to the curve: on the outside of the curve a thin wedge
    /// of the true band is missing (half the width times half the chord's angle: a notch where
    /// the ends of an unclosed circle meet). A round wedge between the two normals restores it.
    static func emitEndTangentWedges(_ run: StrokeRun, _ prepared: PreparedRun, _ parameters: StrokeParameters,
                                     into sink: inout OutlineSink) {
        let n = prepared.segmentCount
        guard n > 0 else { return }
        if let t = run.startTangent, let (tangent, _) = unitDirection(t) {
            let turn = Turn(from: tangent, to: prepared.directions[0])
            if !turn.isStraight, turn.dot > 0 {
                sink.appendPositive(joinWedge(at: prepared.points[0], from: tangent, to: prepared.directions[0], turn: turn,
                                              kind: .round, parameters))
            }
        }
        if let t = run.endTangent, let (tangent, _) = unitDirection(t) {
            let turn = Turn(from: prepared.directions[n - 1], to: tangent)
            if !turn.isStraight, turn.dot > 0 {
                sink.appendPositive(joinWedge(at: prepared.points[prepared.points.count - 1], from: prepared.directions[n - 1],
                                              to: tangent, turn: turn, kind: .round, parameters))
            }
        }
    }

    /// How a run is outlined (for tests and diagnostics).
    package enum Mode: Equatable { case dot, contour, pieces }

    /// The mode `outline` uses for `run` at half width `halfWidth`.
    package static func mode(of run: StrokeRun, halfWidth: Double) -> Mode {
        guard let prepared = PreparedRun(run) else { return .dot }
        return prepared.isLocallySimple(halfWidth: halfWidth) ? .contour : .pieces
    }
}

/// The resolved stroke parameters every stage needs.
package struct StrokeParameters: Hashable, Sendable {
    /// Half the line width (> 0, finite).
    let halfWidth: Double
    /// Flattening tolerance of round caps and joins (> 0).
    let tolerance: Double
    let cap: LineCap
    let join: LineJoin
    let miterLimit: Double
    /// A round join whose turn's tangent (|cross| / dot) is at most this is a single chord
    /// (StrokeArc.oneChordTangent): resolved once per stroke, not per vertex.
    let oneChordTangent: Double

    init(halfWidth: Double, tolerance: Double, cap: LineCap, join: LineJoin, miterLimit: Double) {
        self.halfWidth = halfWidth; self.tolerance = tolerance
        self.cap = cap; self.join = join; self.miterLimit = miterLimit
        oneChordTangent = StrokeArc.oneChordTangent(radius: halfWidth, tolerance: tolerance)
    }
}

/// Collects output contours, drops non-finite ones, and stops at a point budget: its own
/// (one call's) and the recording's shared one.
package struct OutlineSink {
    private(set) var contours: [[Point]] = []
    private(set) var pointCount = 0
    let pointLimit: Int
    /// The recording's budget, taken from contour by contour.
    let shared: GeometryBudget?
    /// True once a contour did not fit the shared budget.
    private(set) var overBudget = false
    private var stopped = false

    package init(pointLimit: Int, shared: GeometryBudget? = nil) { self.pointLimit = pointLimit; self.shared = shared }

    /// What a contour costs the shared budget beyond its points: its array's header and the
    /// allocator's, about four points' worth (a dash piece of four points costs eight).
    static let contourOverhead = 4

    /// True once the point budget is spent or the sink was stopped; later contours are dropped.
    package var isFull: Bool { stopped || overBudget || pointCount >= pointLimit }

    /// Drops every later contour (the work was cancelled).
    mutating func stop() { stopped = true }

    /// Appends a contour of at least three finite points (others are dropped).
    package mutating func append(_ contour: [Point]) {
        guard contour.count >= 3, !isFull, contour.allSatisfy(\.isFinite) else { return }
        if let shared, !shared.take(contour.count + OutlineSink.contourOverhead) {
            overBudget = true
            return
        }
        pointCount += contour.count
        contours.append(contour)
    }

    /// Appends a polygon of pieces mode with positive signed area: reversed when negative,
    /// dropped when it has none (a degenerate join or cap covers nothing).
    package mutating func appendPositive(_ polygon: [Point]) {
        let area = signedArea(polygon)
        if area > 0 { append(polygon) } else if area < 0 { append(polygon.reversed()) }
    }
}

/// The signed area 1/2 * sum(x_i y_(i+1) - x_(i+1) y_i) of a closed polygon;
/// positive is clockwise on screen (y down).
func signedArea(_ polygon: [Point]) -> Double {
    guard polygon.count >= 3 else { return 0 }
    var sum = 0.0
    var previous = polygon[polygon.count - 1]
    for p in polygon {
        sum += previous.x * p.y - p.x * previous.y
        previous = p
    }
    return sum / 2
}
