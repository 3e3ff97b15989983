// Flattening against the scene format's promise: "Both renderers flatten
// curves with the same shared code, in device space, to within 1/64 px."
// Random quads, cubics, conics, ellipses and arcs under random transforms
// (seeded) are sampled densely with their own formulas (the rational formula
// for conics) and compared with the polyline in both directions: every sample
// near the polyline, every polyline vertex on the curve. The helpers at the
// bottom (SplitMix64, curve evaluation, distances) are shared by the other
// path test files.

import Foundation
import XCTest
import PenumbraTestSupport
@testable import PenumbraModel
@testable import PenumbraCore

final class FlattenTests: XCTestCase {
    let tolerance = flatteningTolerance

    // MARK: Tolerance

    /// A curve whose piece count is finite but beyond Int's range (found by the request fuzzer)
    /// gets the cap, not a trap converting the count.
    func testAPieceCountBeyondIntsRangeIsCapped() {
        XCTAssertEqual(Flattener.pieceCount(secondDifference: 1e300, degreeFactor: 0.25, tolerance: 1e-300), maximumPiecesPerCurve)
        XCTAssertEqual(Flattener.pieceCount(secondDifference: 1e40, degreeFactor: 0.25, tolerance: 0.25), maximumPiecesPerCurve)
        XCTAssertEqual(Flattener.pieceCount(secondDifference: 0, degreeFactor: 0.25, tolerance: 0.25), 1)
        var path = Path()
        path.move(to: Point(0, 0))
        path.addQuadCurve(to: Point(1e300, 0), control: Point(0, 1e300))
        XCTAssertLessThanOrEqual(path.flattened(transform: .identity).reduce(0) { $0 + $1.points.count }, 2 * maximumPiecesPerCurve + 4)
    }

    func testRandomQuadsStayWithinToleranceUnderRandomTransforms() {
        var rng = SplitMix64(seed: 0x51_AD)
        for _ in 0..<150 {
            let p = (0..<3).map { _ in rng.point(in: -200...200) }
            let t = rng.transform()
            var path = Path()
            path.move(to: p[0]); path.addQuadCurve(to: p[2], control: p[1])
            let d = p.map(t.apply)
            checkFlattening(path, transform: t) { s in
                let u = 1 - s
                return u * u * d[0] + 2 * u * s * d[1] + s * s * d[2]
            }
        }
    }

    func testRandomCubicsStayWithinToleranceUnderRandomTransforms() {
        var rng = SplitMix64(seed: 0xC0B1C)
        for _ in 0..<150 {
            let p = (0..<4).map { _ in rng.point(in: -200...200) }
            let t = rng.transform()
            var path = Path()
            path.move(to: p[0]); path.addCurve(to: p[3], control1: p[1], control2: p[2])
            let d = p.map(t.apply)
            checkFlattening(path, transform: t) { s in evaluateCubic(d[0], d[1], d[2], d[3], s) }
        }
    }

    func testRandomConicsStayWithinToleranceUnderRandomTransforms() {
        var rng = SplitMix64(seed: 0xC0_41C)
        for _ in 0..<200 {
            let p = (0..<3).map { _ in rng.point(in: -200...200) }
            let w = exp(rng.double(in: log(0.05)...log(8)))
            let t = rng.transform()
            var path = Path()
            path.move(to: p[0]); path.addConic(to: p[2], control: p[1], weight: w)
            let d = p.map(t.apply)
            checkFlattening(path, transform: t) { s in evaluateConic(d[0], d[1], d[2], w, s) }
        }
    }

    /// A conic whose control point lies far beyond one end of its chord: the curve runs back
    /// past its start, so closeness to the chord's line alone does not bound the error.
    func testConicThatOvershootsItsChordStaysWithinTolerance() {
        let p0 = Point(0, 0), p1 = Point(-10, 0.01), p2 = Point(1, 0)
        var path = Path()
        path.move(to: p0); path.addConic(to: p2, control: p1, weight: 1)
        checkFlattening(path, transform: .identity) { s in evaluateConic(p0, p1, p2, 1, s) }
    }

    func testEllipsesUnderRandomTransformsStayWithinTolerance() {
        var rng = SplitMix64(seed: 0xE111)
        for _ in 0..<60 {
            let rect = Rect(x: rng.double(in: -100...100), y: rng.double(in: -100...100),
                            width: rng.double(in: 0.5...300), height: rng.double(in: 0.5...300))
            let t = rng.transform()
            let path = Path(ellipseIn: rect)
            let (cx, cy, rx, ry) = (rect.midX, rect.midY, rect.width / 2, rect.height / 2)
            // The ellipse's angle parameter runs once round over s in [0, 1].
            checkFlattening(path, transform: t, closed: true) { s in
                t.apply(Point(cx + rx * cos(2 * .pi * s), cy + ry * sin(2 * .pi * s)))
            }
        }
    }

    func testArcsUnderRandomTransformsStayWithinTolerance() {
        var rng = SplitMix64(seed: 0xA4C)
        for _ in 0..<60 {
            let centre = rng.point(in: -100...100), radius = rng.double(in: 0.5...250)
            let start = rng.double(in: -10...10), end = rng.double(in: -10...10)
            let clockwise = rng.next() & 1 == 0
            let t = rng.transform()
            let sweep = Path.arcSweep(startAngle: start, endAngle: end, clockwise: clockwise)
            let path = Path(arcCenter: centre, radius: radius, startAngle: start, endAngle: end, clockwise: clockwise)
            checkFlattening(path, transform: t) { s in
                let angle = start + (clockwise ? 1 : -1) * sweep * s
                return t.apply(Point(centre.x + radius * cos(angle), centre.y + radius * sin(angle)))
            }
        }
    }

    // MARK: Piece counts

    func testCircleOfRadius100IsNotWasteful() throws {
        let radius = 100.0
        let flat = try XCTUnwrap(Path(ellipseIn: Rect(x: 0, y: 0, width: 2 * radius, height: 2 * radius)).flattened().first)
        // The fewest chords of equal angle whose sagitta r (1 - cos(θ/2)) stays within tolerance.
        let chordAngle = 2 * acos(1 - tolerance / radius)
        let minimal = Int((2 * Double.pi / chordAngle).rounded(.up))
        XCTAssertGreaterThanOrEqual(flat.points.count, minimal)
        XCTAssertLessThan(flat.points.count, 4 * minimal)
    }

    func testStraightBeziersAreOnePiece() throws {
        var path = Path()
        path.move(to: Point(0, 0))
        path.addQuadCurve(to: Point(100, 50), control: Point(50, 25))
        path.addCurve(to: Point(400, 200), control1: Point(200, 100), control2: Point(300, 150))
        let flat = try XCTUnwrap(path.flattened().first)
        XCTAssertEqual(flat.points, [Point(0, 0), Point(100, 50), Point(400, 200)])
    }

    func testFlatteningUnderATransformEqualsFlatteningTheTransformedPath() {
        let t = AffineTransform(a: 2, b: 0.5, c: -0.3, d: 1.5, tx: 10, ty: -4)
        var path = Path(ellipseIn: Rect(x: 0, y: 0, width: 40, height: 20))
        path.move(to: Point(0, 0)); path.addCurve(to: Point(30, 0), control1: Point(10, 30), control2: Point(20, -30))
        XCTAssertEqual(path.flattened(transform: t), path.applying(t).flattened())
    }

    // MARK: Smooth flags and closing

    func testSmoothFlagsMarkOnlyVerticesInsideOneCurve() throws {
        var path = Path()
        path.move(to: Point(0, 0))
        path.addLine(to: Point(100, 0))
        path.addQuadCurve(to: Point(100, 100), control: Point(200, 50))
        path.addCurve(to: Point(0, 100), control1: Point(50, 200), control2: Point(50, 0))
        let flat = try XCTUnwrap(path.flattened().first)
        XCTAssertFalse(flat.isClosed)
        let corners = [Point(0, 0), Point(100, 0), Point(100, 100), Point(0, 100)]
        XCTAssertGreaterThan(flat.points.count, 10, "the curves are split")
        XCTAssertEqual(flat.smooth.count, flat.points.count)
        for (p, smooth) in zip(flat.points, flat.smooth) {
            XCTAssertEqual(smooth, !corners.contains(p), "vertex \(p)")
        }
        XCTAssertEqual(flat.points.first, corners[0])
        XCTAssertEqual(flat.points.last, corners[3])
    }

    func testClosedEllipseDropsTheRepeatedStartAndKeepsItsLastVertexSmooth() throws {
        let rect = Rect(x: 0, y: 0, width: 60, height: 40)
        let flat = try XCTUnwrap(Path(ellipseIn: rect).flattened().first)
        XCTAssertTrue(flat.isClosed)
        XCTAssertEqual(flat.points.first, Point(60, 20))
        XCTAssertNotEqual(flat.points.last, flat.points.first)
        // Only the joints between the four quarter conics are corners.
        let cornerIndices = flat.smooth.indices.filter { !flat.smooth[$0] }
        XCTAssertEqual(cornerIndices.map { flat.points[$0] }, [Point(60, 20), Point(30, 40), Point(0, 20), Point(30, 0)])
        XCTAssertEqual(flat.smooth.last, true)
    }

    func testClosedPolygonKeepsALastPointThatDiffersFromTheFirst() throws {
        var path = Path()
        path.move(to: Point(0, 0)); path.addLine(to: Point(10, 0)); path.addLine(to: Point(10, 10)); path.closeSubpath()
        path.move(to: Point(20, 0)); path.addLine(to: Point(30, 0)); path.addLine(to: Point(20, 0)); path.closeSubpath()
        let flat = path.flattened()
        XCTAssertEqual(flat.count, 2)
        XCTAssertEqual(flat[0].points, [Point(0, 0), Point(10, 0), Point(10, 10)])
        XCTAssertEqual(flat[0].smooth, [false, false, false])
        XCTAssertTrue(flat[0].isClosed)
        XCTAssertEqual(flat[1].points, [Point(20, 0), Point(30, 0)])
    }

    func testLoneMovesAreOmitted() {
        var path = Path()
        path.move(to: Point(1, 1)); path.move(to: Point(2, 2)); path.addLine(to: Point(3, 3)); path.move(to: Point(9, 9))
        let flat = path.flattened()
        XCTAssertEqual(flat.map(\.points), [[Point(2, 2), Point(3, 3)]])
    }

    // MARK: Checking one flattening

    /// Flattens `path` under `transform`; asserts that 2,000 samples of `curve` (device space,
    /// s in [0, 1]) lie within the tolerance of the polyline and every vertex lies on the curve.
    func checkFlattening(_ path: Path, transform: AffineTransform, closed: Bool = false,
                         file: StaticString = #filePath, line: UInt = #line, curve: (Double) -> Point) {
        let flat = path.flattened(transform: transform)
        guard flat.count == 1, let polyline = flat.first else {
            return XCTFail("expected one subpath, got \(flat.count)", file: file, line: line)
        }
        XCTAssertEqual(polyline.isClosed, closed, file: file, line: line)
        let sampleCount = 2_000
        let samples = (0...sampleCount).map { curve(Double($0) / Double(sampleCount)) }
        let limit = tolerance + 1e-9
        var segmentHint = 0
        for p in samples where !isNearPolyline(p, polyline.points, closed: closed, within: limit, hint: &segmentHint) {
            let d = distanceToPolyline(p, polyline.points, closed: closed)
            return XCTFail("sample \(p) is \(d) off the polyline", file: file, line: line)
        }
        let scale = samples.reduce(1.0) { max($0, abs($1.x), abs($1.y)) }
        if let v = firstVertexOffCurve(polyline.points, samples: samples, within: 1e-9 * scale, curve: curve) {
            let d = distanceToCurve(v, samples: samples, curve: curve)
            return XCTFail("vertex \(v) is \(d) off the curve", file: file, line: line)
        }
    }
}

// MARK: - Shared helpers for the path tests

/// Foundation has an `AffineTransform` too; the tests mean Penumbra's.
typealias AffineTransform = PenumbraModel.AffineTransform

func evaluateCubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ t: Double) -> Point {
    let u = 1 - t
    return u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3
}

/// The rational quadratic with end weights 1 and middle weight `w`.
func evaluateConic(_ p0: Point, _ p1: Point, _ p2: Point, _ w: Double, _ t: Double) -> Point {
    let u = 1 - t
    let b0 = u * u, b1 = 2 * w * u * t, b2 = t * t
    return (b0 * p0 + b1 * p1 + b2 * p2) * (1 / (b0 + b1 + b2))
}

func distanceToSegment(_ p: Point, _ a: Point, _ b: Point) -> Double {
    let ab = b - a
    let len2 = ab.dot(ab)
    let t = len2 > 0 ? min(1, max(0, (p - a).dot(ab) / len2)) : 0
    return (p - (a + ab * t)).length
}

func distanceToPolyline(_ p: Point, _ points: [Point], closed: Bool) -> Double {
    guard points.count > 1 else { return points.first.map { (p - $0).length } ?? .infinity }
    var best = Double.infinity
    for i in 1..<points.count { best = min(best, distanceToSegment(p, points[i - 1], points[i])) }
    if closed { best = min(best, distanceToSegment(p, points[points.count - 1], points[0])) }
    return best
}

/// Whether `p` is within `limit` of some segment of the polyline; the search starts at segment
/// `hint` (consecutive samples of a curve are usually near the same or the next segment) and
/// leaves there the segment that matched.
func isNearPolyline(_ p: Point, _ points: [Point], closed: Bool, within limit: Double, hint: inout Int) -> Bool {
    guard points.count > 1 else { return points.first.map { (p - $0).length <= limit } ?? false }
    let segmentCount = closed ? points.count : points.count - 1
    for k in 0..<segmentCount {
        let i = (hint + k) % segmentCount
        if distanceToSegment(p, points[i], points[(i + 1) % points.count]) <= limit { hint = i; return true }
    }
    return false
}

/// The first of `vertices` (in the curve's parameter order) that does not lie on the curve within
/// `limit`, or nil. Each vertex is looked for at or after the parameter of the previous one: at
/// every local minimum of the distance to the dense samples, refined by a ternary search.
func firstVertexOffCurve(_ vertices: [Point], samples: [Point], within limit: Double, curve: (Double) -> Point) -> Point? {
    let n = samples.count - 1
    var from = 0
    search: for v in vertices {
        var i = from
        while i <= n {
            let d = (samples[i] - v).length
            let isLocalMinimum = (i == from || d <= (samples[i - 1] - v).length) && (i == n || d <= (samples[i + 1] - v).length)
            if isLocalMinimum, refineDistance(v, around: i, sampleCount: n, curve: curve) <= limit {
                from = max(0, i - 1)
                continue search
            }
            i += 1
        }
        return v
    }
    return nil
}

/// The least distance from `p` to the curve between the parameters of samples i - 1 and i + 1.
func refineDistance(_ p: Point, around i: Int, sampleCount n: Int, curve: (Double) -> Point) -> Double {
    var lo = Double(max(0, i - 1)) / Double(n), hi = Double(min(n, i + 1)) / Double(n)
    for _ in 0..<70 {
        let m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3
        if (curve(m1) - p).length < (curve(m2) - p).length { hi = m2 } else { lo = m1 }
    }
    return (curve((lo + hi) / 2) - p).length
}

/// The distance from `p` to a parametric curve, or the first one found within `goal`: the local
/// minima of the distance over the dense samples, nearest first (another branch of a looping
/// curve passing close by must not hide the right one), each refined by a ternary search of the
/// parameter between its neighbouring samples.
func distanceToCurve(_ p: Point, samples: [Point], goal: Double = 0, curve: (Double) -> Point) -> Double {
    let n = samples.count - 1
    let distances = samples.map { ($0 - p).length }
    let localMinima = distances.indices.filter { i in
        (i == 0 || distances[i] <= distances[i - 1]) && (i == n || distances[i] <= distances[i + 1])
    }
    var best = Double.infinity
    for nearest in localMinima.sorted(by: { distances[$0] < distances[$1] }).prefix(8) {
        best = min(best, refineDistance(p, around: nearest, sampleCount: n, curve: curve))
        if best <= goal { break }
    }
    return best
}
