// Stroker tests: exact areas of the nonzero union of the outline (see
// StrokeTestSupport) against the areas the scene format's definition gives,
// winding numbers at chosen points, the mode each shape takes, and random
// polylines checked against the definition itself (a round-capped, round-joined
// stroke is the set of points within half the width of the polyline).

import XCTest
import PenumbraTestSupport
@testable import PenumbraModel
@testable import PenumbraCore

final class StrokerTests: XCTestCase {
    typealias S = StrokeTestSupport
    let tol = 1e-3

    /// Area lost to flattening arcs of total angle `angle` at radius r: at most r * angle * tol.
    func arcSlack(radius r: Double, angle: Double) -> Double { r * angle * tol + 1e-9 }

    // MARK: Caps

    func testStraightLineCaps() {
        let line = S.polyline([Point(10, 10), Point(110, 10)])
        let butt = S.stroke(line, StrokeStyle(width: 10, cap: .butt))
        XCTAssertEqual(S.nonzeroArea(butt), 1000, accuracy: 1e-9)
        let square = S.stroke(line, StrokeStyle(width: 10, cap: .square))
        XCTAssertEqual(S.nonzeroArea(square), 1100, accuracy: 1e-9)
        let round = S.stroke(line, StrokeStyle(width: 10, cap: .round))
        let exact = 1000 + Double.pi * 25
        let area = S.nonzeroArea(round)
        XCTAssertLessThanOrEqual(area, exact + 1e-9)
        XCTAssertGreaterThanOrEqual(area, exact - arcSlack(radius: 5, angle: 2 * .pi))
        // One contour each, and no double counting: the signed area is the union's area.
        for outline in [butt, square, round] {
            XCTAssertEqual(outline.count, 1)
            XCTAssertEqual(S.signedAreaSum(outline), S.nonzeroArea(outline), accuracy: 1e-9)
        }
    }

    func testWidthZeroStrokesNothing() {
        let line = S.polyline([Point(0, 0), Point(50, 20)])
        XCTAssertTrue(S.stroke(line, StrokeStyle(width: 0, cap: .round)).isEmpty)
        XCTAssertTrue(S.stroke(line, StrokeStyle(width: -3)).isEmpty)
        XCTAssertTrue(S.stroke(line, StrokeStyle(width: .nan)).isEmpty)
    }

    func testZeroLengthSubpathDots() {
        let dot = S.polyline([Point(5, 5), Point(5, 5)])
        let round = S.stroke(dot, StrokeStyle(width: 4, cap: .round))
        XCTAssertEqual(round.count, 1)
        let area = S.nonzeroArea(round)
        XCTAssertLessThanOrEqual(area, .pi * 4 + 1e-9)
        XCTAssertGreaterThanOrEqual(area, .pi * 4 - arcSlack(radius: 2, angle: 2 * .pi))
        let square = S.stroke(dot, StrokeStyle(width: 4, cap: .square))
        XCTAssertEqual(S.nonzeroArea(square), 16, accuracy: 1e-9)
        let box = S.bounds(square)   // no direction: aligned with the x axis
        XCTAssertEqual(box.min.x, 3, accuracy: 1e-12); XCTAssertEqual(box.max.y, 7, accuracy: 1e-12)
        XCTAssertTrue(S.stroke(dot, StrokeStyle(width: 4, cap: .butt)).isEmpty)
        // A subpath that is only a close also draws its dot.
        var closed = Path(); closed.move(to: Point(1, 1)); closed.closeSubpath()
        XCTAssertEqual(S.nonzeroArea(S.stroke(closed, StrokeStyle(width: 2, cap: .square))), 4, accuracy: 1e-9)
    }

    // MARK: Joins

    /// (0,0) -> (100,0) -> (100,100), width 10: two bands overlapping by 25, plus the join
    /// in the 5 x 5 outer corner square.
    func cornerArea(_ join: LineJoin, miterLimit: Double = 10) -> Double {
        S.nonzeroArea(S.stroke(S.polyline([Point(0, 0), Point(100, 0), Point(100, 100)]),
                               StrokeStyle(width: 10, join: join, miterLimit: miterLimit)))
    }

    func testRightAngleJoins() {
        XCTAssertEqual(cornerArea(.miter), 2000, accuracy: 1e-9)
        XCTAssertEqual(cornerArea(.bevel), 1987.5, accuracy: 1e-9)
        let round = cornerArea(.round)
        XCTAssertLessThanOrEqual(round, 1975 + 25 * .pi / 4 + 1e-9)
        XCTAssertGreaterThanOrEqual(round, 1975 + 25 * .pi / 4 - arcSlack(radius: 5, angle: .pi / 2))
    }

    func testMiterLimitThreshold() {
        // A right angle's miter length / width is sqrt(2).
        XCTAssertEqual(cornerArea(.miter, miterLimit: 2.0.squareRoot()), 2000, accuracy: 1e-9)
        XCTAssertEqual(cornerArea(.miter, miterLimit: 2.0.squareRoot() * (1 - 1e-9)), 1987.5, accuracy: 1e-9)
        XCTAssertEqual(cornerArea(.miter, miterLimit: 1.5), 2000, accuracy: 1e-9)
        XCTAssertEqual(cornerArea(.miter, miterLimit: 1), 1987.5, accuracy: 1e-9)
    }

    func testSharpAngleBeyondLimitBecomesBevel() {
        // Arms 200 long meeting at 10 degrees: miter ratio 1 / sin(5 deg) = 11.47 > 10.
        let alpha = 10 * Double.pi / 180
        let v = S.polyline([Point(0, 0), Point(200, 0), Point(200 - 200 * cos(alpha), 200 * sin(alpha))])
        let h = 1.0
        let bevel = S.nonzeroArea(S.stroke(v, StrokeStyle(width: 2 * h, join: .bevel)))
        let defaultLimit = S.nonzeroArea(S.stroke(v, StrokeStyle(width: 2 * h, join: .miter)))
        XCTAssertEqual(defaultLimit, bevel, accuracy: 1e-9)
        let mitred = S.nonzeroArea(S.stroke(v, StrokeStyle(width: 2 * h, join: .miter, miterLimit: 12)))
        let theta = Double.pi - alpha   // the turning angle
        XCTAssertEqual(mitred - bevel, h * h * (tan(theta / 2) - sin(theta) / 2), accuracy: 1e-7)
        XCTAssertEqual(Stroker.mode(of: StrokeRun(v.flattened()[0]), halfWidth: h), .contour)
    }

    func testCuspGetsTheJoin() {
        // The path reverses at (100, 0): a round join is the half disc beyond it.
        let cusp = S.polyline([Point(0, 0), Point(100, 0), Point(50, 0)])
        XCTAssertEqual(Stroker.mode(of: StrokeRun(cusp.flattened()[0]), halfWidth: 5), .pieces)
        let round = S.nonzeroArea(S.stroke(cusp, StrokeStyle(width: 10, join: .round)))
        XCTAssertLessThanOrEqual(round, 1000 + 12.5 * .pi + 1e-9)
        XCTAssertGreaterThanOrEqual(round, 1000 + 12.5 * .pi - arcSlack(radius: 5, angle: .pi))
        // A miter there is infinitely long, so it becomes a bevel, which adds nothing.
        XCTAssertEqual(S.nonzeroArea(S.stroke(cusp, StrokeStyle(width: 10, join: .miter))), 1000, accuracy: 1e-9)
    }

    func testCubicCuspIsCoveredWithinHalfWidth() {
        // This cubic has a cusp at t = 1/2, at (50, 75); its vertices there are smooth.
        var path = Path()
        path.move(to: Point(0, 0))
        path.addCurve(to: Point(100, 0), control1: Point(100, 100), control2: Point(0, 100))
        let outline = S.stroke(path, StrokeStyle(width: 12))
        let cusp = Point(50, 75)
        for k in 0..<72 {
            let a = Double(k) * .pi / 36
            for r in [1.0, 3, 5.9] {
                let p = cusp + Point(cos(a), sin(a)) * r
                XCTAssertNotEqual(S.winding(at: p, outline), 0, "uncovered at \(p)")
            }
        }
        XCTAssertEqual(S.winding(at: Point(50, 82), outline), 0)   // 7 beyond the cusp
    }

    // MARK: Closed shapes

    func testClosedRectRing() {
        var rect = Path(); rect.addRect(Rect(x: 0, y: 0, width: 100, height: 50))
        let miter = S.stroke(rect, StrokeStyle(width: 10))
        XCTAssertEqual(miter.count, 2)
        XCTAssertEqual(S.nonzeroArea(miter), 110 * 60 - 90 * 40, accuracy: 1e-9)
        XCTAssertEqual(S.signedAreaSum(miter), 3000, accuracy: 1e-9)
        XCTAssertEqual(S.winding(at: Point(50, 25), miter), 0)   // the hole
        XCTAssertEqual(S.winding(at: Point(50, 2), miter), 1)
        XCTAssertEqual(S.winding(at: Point(-4, -4), miter), 1)   // the mitred corner
        XCTAssertEqual(S.nonzeroArea(S.stroke(rect, StrokeStyle(width: 10, join: .bevel))), 2950, accuracy: 1e-9)
        let round = S.nonzeroArea(S.stroke(rect, StrokeStyle(width: 10, join: .round)))
        let exact = 3000 - 4 * (25 - 25 * Double.pi / 4)
        XCTAssertLessThanOrEqual(round, exact + 1e-9)
        XCTAssertGreaterThanOrEqual(round, exact - arcSlack(radius: 5, angle: 2 * .pi))
    }

    func testCircleRing() {
        let outline = S.stroke(S.circle(center: Point(50, 50), radius: 20), StrokeStyle(width: 4))
        XCTAssertEqual(outline.count, 2)
        let ring = 2 * Double.pi * 20 * 4
        XCTAssertEqual(S.nonzeroArea(outline), ring, accuracy: ring * 2e-3)
        XCTAssertEqual(S.winding(at: Point(50, 50), outline), 0)
        XCTAssertEqual(S.winding(at: Point(70, 50), outline), 1)
    }

    func testSmallCircleWideStrokeIsSolidDisc() {
        let circle = S.circle(center: Point(0, 0), radius: 3)
        let coarse = 0.01   // fewer overlapping pieces keep the exact union area quick
        XCTAssertEqual(Stroker.mode(of: StrokeRun(circle.flattened(tolerance: coarse)[0]), halfWidth: 5), .pieces)
        let outline = S.stroke(circle, StrokeStyle(width: 10), tolerance: coarse)
        let disc = Double.pi * 64, area = S.nonzeroArea(outline)
        XCTAssertLessThanOrEqual(area, disc + 1e-9)
        XCTAssertGreaterThanOrEqual(area, disc - 2 * .pi * 8 * coarse)
        XCTAssertNotEqual(S.winding(at: Point(0, 0), outline), 0)
        XCTAssertNotEqual(S.winding(at: Point(0.3, -0.2), outline), 0)
        XCTAssertEqual(S.winding(at: Point(8.1, 0), outline), 0)
        for contour in outline { XCTAssertGreaterThan(signedArea(contour), 0) }
    }

    func testCircleJustWiderThanHalfWidthStaysAContour() {
        // Radius 6 under a stroke 10 wide: the band is still locally simple (the hole has
        // radius about 1), so it is one ring and its hole, exact, with no double counting.
        let circle = S.circle(center: .zero, radius: 6)
        let outline = S.stroke(circle, StrokeStyle(width: 10), tolerance: 0.01)
        XCTAssertEqual(outline.count, 2)
        let ring = 4 * Double.pi * 6 * 5
        XCTAssertEqual(S.nonzeroArea(outline), ring, accuracy: ring * 2e-3)
        XCTAssertEqual(S.signedAreaSum(outline), S.nonzeroArea(outline), accuracy: ring * 1e-9)
        XCTAssertEqual(S.winding(at: Point(0.5, 0), outline), 0)
    }

    func testShortSegmentAfterATurnKeepsTheCornerOfTheBandBefore() {
        // a: (-10, 0) -> (0, 0), then b turns 60 degrees and ends after 0.7 < h sin 60: a's band
        // reaches (0, 1), past b's butt end. It is covered all the same (pieces mode).
        let b = Point(cos(Double.pi / 3), sin(Double.pi / 3)) * 0.7
        let path = S.polyline([Point(-10, 0), Point(0, 0), b])
        XCTAssertEqual(Stroker.mode(of: StrokeRun(path.flattened()[0]), halfWidth: 1), .pieces)
        for join in LineJoin.allCases {
            let outline = S.stroke(path, StrokeStyle(width: 2, cap: .butt, join: join))
            XCTAssertNotEqual(S.winding(at: Point(-0.01, 0.98), outline), 0, "\(join)")
            XCTAssertEqual(S.winding(at: Point(0.2, 1.1), outline), 0, "\(join)")
        }
    }

    func testContourModeHasNoDoubleCounting() {
        let circle = S.circle(center: Point(0, 0), radius: 100)
        let style = StrokeStyle(width: 10)
        let outline = Stroker.outline(circle.flattened(tolerance: 0.01), style: style, tolerance: 0.01)
        XCTAssertEqual(outline.count, 2)
        let union = S.nonzeroArea(outline)
        XCTAssertEqual(S.signedAreaSum(outline), union, accuracy: union * 1e-6)
        XCTAssertEqual(union, 2 * .pi * 100 * 10, accuracy: 2 * .pi * 1000 * 2e-3)
    }

    func testLargeCircleEdgeCounts() {
        // A circle of radius 500 px, 10 wide, at 1/64: the hole has one point per vertex, the
        // ring two (a round join needing no intermediate point is its two offset points).
        let flat = S.circle(center: Point(600, 600), radius: 500).flattened(tolerance: 1.0 / 64)
        let outline = Stroker.outline(flat, style: StrokeStyle(width: 10), tolerance: 1.0 / 64)
        XCTAssertEqual(Stroker.mode(of: StrokeRun(flat[0]), halfWidth: 5), .contour)
        XCTAssertEqual(outline.count, 2)
        // The hole has one point per vertex; the ring two at smooth vertices, one at the four
        // corners between the conics (a miter join is its tip) and where the path runs straight.
        let vertices = flat[0].points.count
        let counts = outline.map(\.count).sorted()
        XCTAssertEqual(counts[0], vertices)
        XCTAssertLessThanOrEqual(counts[1], 2 * vertices - 4)
        XCTAssertGreaterThan(counts[1], 2 * vertices - 16)
        print("circle r=500 w=10 tol=1/64: \(flat[0].points.count) path vertices, contours \(outline.map(\.count))")
    }

    /// A round join whose turn is within one chord is written as the chord's two ends without
    /// computing its angle: the points equal the flattened arc's, for turns on both sides of the
    /// bound (where the arc needs one chord and where it needs two), at several widths and
    /// tolerances, and the bound never admits a turn that needs more than one chord.
    func testRoundJoinsOfOneChordEqualTheFlattenedArc() {
        var g = SplitMix64(state: 11)
        var shortcuts = 0, arcs = 0
        for trial in 0..<4000 {
            let halfWidth = [0.3, 5, 40, 900][trial % 4], tolerance = [1.0 / 64, 0.25, 3][trial % 3]
            let parameters = StrokeParameters(halfWidth: halfWidth, tolerance: tolerance, cap: .butt, join: .round, miterLimit: 10)
            let step = StrokeArc.largestChordAngle(radius: halfWidth, tolerance: tolerance)
            // Turns from well inside the bound to twice it, with some within a few ulps of it.
            let angle = trial % 5 == 0 ? step * (1 + Double(Int(g.next() % 9) - 4) * 1e-15)
                : step * Double(g.next() % 2000) / 1000
            let heading = Double(g.next() % 6283) / 1000, side: Double = trial % 2 == 0 ? 1 : -1
            let da = Point(cos(heading), sin(heading)), db = Point(cos(heading + side * angle), sin(heading + side * angle))
            let turn = Turn(from: da, to: db)
            guard !turn.isStraight else { continue }
            let p = Point(Double(g.next() % 1000), Double(g.next() % 1000))
            var joined: [Point] = []
            Stroker.appendOuterJoin(at: p, from: da, to: db, turn: turn, kind: .round, parameters, miterPointOnly: true, into: &joined)
            var arc: [Point] = []
            let outer = turn.outerSide
            StrokeArc.append(center: p, radius: halfWidth, from: leftNormal(da) * outer, to: leftNormal(db) * outer,
                             sweep: outer * turn.angle, tolerance: tolerance, includeStart: true, includeEnd: true, into: &arc)
            XCTAssertEqual(joined, arc, "turn \(turn.angle) against one chord's \(step), half width \(halfWidth)")
            if turn.dot > 0 && abs(turn.cross) <= turn.dot * parameters.oneChordTangent {
                shortcuts += 1
                XCTAssertEqual(StrokeArc.chordCount(angle: turn.angle, radius: halfWidth, tolerance: tolerance), 1)
            } else {
                arcs += 1
            }
        }
        // Both branches were taken many times.
        XCTAssertGreaterThan(shortcuts, 1000)
        XCTAssertGreaterThan(arcs, 1000)
    }

    func testModesOfCommonShapes() {
        func mode(_ path: Path, width: Double) -> Stroker.Mode {
            Stroker.mode(of: StrokeRun(path.flattened(tolerance: 0.01)[0]), halfWidth: width / 2)
        }
        var rect = Path(); rect.addRect(Rect(x: 0, y: 0, width: 40, height: 30))
        XCTAssertEqual(mode(rect, width: 10), .contour)
        XCTAssertEqual(mode(S.polyline([Point(0, 0), Point(10, 0)]), width: 50), .contour)
        XCTAssertEqual(mode(S.circle(center: .zero, radius: 20), width: 4), .contour)
        XCTAssertEqual(mode(S.circle(center: .zero, radius: 3), width: 10), .pieces)
        let box = Rect(x: 0, y: 0, width: 80, height: 60)
        XCTAssertEqual(mode(S.roundedRect(box, radius: 8), width: 10), .contour)
        XCTAssertEqual(mode(S.roundedRect(box, radius: 3), width: 10), .pieces)
        XCTAssertEqual(mode(S.polyline([Point(0, 0), Point(0, 0)]), width: 10), .dot)
        // A rounded rect whose radius is below half the width still strokes exactly: its hole
        // is the rectangle inset by half the width, with square corners.
        let outline = S.stroke(S.roundedRect(box, radius: 3), StrokeStyle(width: 10))
        XCTAssertEqual(S.winding(at: Point(5.2, 5.2), outline), 0)
        XCTAssertNotEqual(S.winding(at: Point(4.9, 30), outline), 0)
    }

    // MARK: Random polylines

    func randomPolyline(_ g: inout SplitMix64) -> [Point] {
        let count = Int.random(in: 2...9, using: &g)
        var points: [Point] = []
        for _ in 0..<count {
            if let last = points.last, Int.random(in: 0..<6, using: &g) == 0 {
                points.append(Int.random(in: 0..<2, using: &g) == 0 ? last : last + Point(1e-9, 0))
            } else {
                points.append(Point(Double.random(in: 0...40, using: &g), Double.random(in: 0...40, using: &g)))
            }
        }
        return points
    }

    func testRoundStrokeIsTheSetWithinHalfWidth() {
        // With round caps and joins, the scene format's union of bands, caps and joins is the
        // set of points within h of the polyline; arcs are flattened at most `tol` inside.
        var g = SplitMix64(seed: 7)
        var modes: Set<String> = []
        for _ in 0..<60 {
            let points = randomPolyline(&g)
            let closed = Bool.random(using: &g)
            let h = Double.random(in: 0.5...12, using: &g)
            let path = S.polyline(points, closed: closed)
            let flat = path.flattened()
            if let run = flat.first { modes.insert("\(Stroker.mode(of: StrokeRun(run), halfWidth: h))") }
            let outline = Stroker.outline(flat, style: StrokeStyle(width: 2 * h, cap: .round, join: .round), tolerance: tol)
            for _ in 0..<200 {
                let p = Point(Double.random(in: -15...55, using: &g), Double.random(in: -15...55, using: &g))
                let d = S.distance(p, toPolyline: points, closed: closed)
                if d < h - 2 * tol { XCTAssertNotEqual(S.winding(at: p, outline), 0, "\(points) h \(h) at \(p)") }
                if d > h + 1e-9 { XCTAssertEqual(S.winding(at: p, outline), 0, "\(points) h \(h) at \(p)") }
            }
        }
        XCTAssertTrue(modes.isSuperset(of: ["contour", "pieces"]), "\(modes)")
    }

    func testBevelStrokeCoversEveryBandAndNothingBeyond() {
        // With butt caps and bevel joins every piece lies within h of the polyline, and each
        // segment's band (the rectangle within h of it, measured perpendicular) must be covered.
        // Short segments under a wide stroke make the bands of neighbours reach past each other.
        var g = SplitMix64(seed: 11)
        for _ in 0..<150 {
            var points = [Point(20, 20)]
            for _ in 0..<Int.random(in: 2...6, using: &g) {
                let a = Double.random(in: 0..<(2 * .pi), using: &g), l = Double.random(in: 0.2...6, using: &g)
                points.append(points[points.count - 1] + Point(cos(a), sin(a)) * l)
            }
            let closed = Bool.random(using: &g)
            let h = Double.random(in: 0.5...4, using: &g)
            let outline = S.stroke(S.polyline(points, closed: closed), StrokeStyle(width: 2 * h, cap: .butt, join: .bevel))
            let count = closed ? points.count : points.count - 1
            for _ in 0..<300 {
                let p = Point(Double.random(in: 5...35, using: &g), Double.random(in: 5...35, using: &g))
                let w = S.winding(at: p, outline)
                if S.distance(p, toPolyline: points, closed: closed) > h + 1e-9 { XCTAssertEqual(w, 0) }
                for k in 0..<count {
                    let a = points[k], b = points[(k + 1) % points.count], d = b - a
                    let along = (p - a).dot(d) / d.length, across = abs(d.cross(p - a)) / d.length
                    if along > 1e-6, along < d.length - 1e-6, across < h - 1e-6 {
                        XCTAssertNotEqual(w, 0, "\(points) closed \(closed) h \(h): band \(k) at \(p)")
                    }
                }
            }
        }
    }

    func testContourModeEqualsTheUnionOfPieces() {
        // Pieces mode is the scene format's union taken literally; wherever contour mode is
        // chosen, its single outline must cover exactly the same area.
        var g = SplitMix64(seed: 3)
        var contourRuns = 0
        for trial in 0..<300 {
            var points = [Point(0, 0)], heading = 0.0
            let count = Int.random(in: 2...8, using: &g)
            for _ in 0..<count {
                heading += Double.random(in: -2.2...2.2, using: &g)
                points.append(points[points.count - 1] + Point(cos(heading), sin(heading)) * Double.random(in: 0.3...8, using: &g))
            }
            let smooth = points.indices.map { _ in Bool.random(using: &g) }
            let run = StrokeRun(points: points, smooth: smooth, isClosed: trial % 3 == 0)
            let parameters = StrokeParameters(halfWidth: Double.random(in: 0.2...3, using: &g), tolerance: 0.01,
                                              cap: LineCap.allCases.randomElement(using: &g)!,
                                              join: LineJoin.allCases.randomElement(using: &g)!,
                                              miterLimit: Double.random(in: 1...6, using: &g))
            guard let prepared = PreparedRun(run), prepared.isLocallySimple(halfWidth: parameters.halfWidth) else { continue }
            contourRuns += 1
            var contour = OutlineSink(pointLimit: .max), pieces = OutlineSink(pointLimit: .max)
            Stroker.emitContours(prepared, parameters, into: &contour)
            Stroker.emitPieces(prepared, parameters, into: &pieces)
            let expected = S.nonzeroArea(pieces.contours)
            XCTAssertEqual(S.nonzeroArea(contour.contours), expected, accuracy: expected * 1e-9, "\(run) \(parameters)")
        }
        XCTAssertGreaterThan(contourRuns, 60)
    }

    func testRandomOutlinesAreFiniteAndOriented() {
        var g = SplitMix64(seed: 42)
        for _ in 0..<300 {
            let points = randomPolyline(&g)
            let style = StrokeStyle(width: Double.random(in: 0.01...30, using: &g),
                                    cap: LineCap.allCases.randomElement(using: &g)!,
                                    join: LineJoin.allCases.randomElement(using: &g)!,
                                    miterLimit: Double.random(in: 0.5...20, using: &g),
                                    dashPhase: Double.random(in: -20...20, using: &g),
                                    dashLengths: Bool.random(using: &g) ? [] : [Double.random(in: 0...9, using: &g), 3])
            let flat = S.polyline(points, closed: Bool.random(using: &g)).flattened()
            let outline = Stroker.outline(flat, style: style, tolerance: 0.01)
            XCTAssertTrue(outline.allSatisfy { $0.count >= 3 && $0.allSatisfy(\.isFinite) })
            XCTAssertGreaterThanOrEqual(S.signedAreaSum(outline), -1e-9)
            XCTAssertEqual(outline, Stroker.outline(flat, style: style, tolerance: 0.01))   // deterministic
            // In pieces mode every polygon has positive signed area.
            if style.dashLengths.isEmpty, let run = flat.first,
               Stroker.mode(of: StrokeRun(run), halfWidth: style.width / 2) == .pieces {
                for contour in outline { XCTAssertGreaterThan(signedArea(contour), 0) }
            }
        }
    }

    func testOutlineSinkStopsAtItsPointBudget() {
        var sink = OutlineSink(pointLimit: 10)
        let square = [Point(0, 0), Point(1, 0), Point(1, 1), Point(0, 1)]
        sink.append(square); sink.append(square); sink.append(square)
        XCTAssertTrue(sink.isFull)
        sink.append(square)
        XCTAssertEqual(sink.contours.count, 3)
        var oriented = OutlineSink(pointLimit: 100)
        oriented.appendPositive(square.reversed()); oriented.appendPositive([Point(0, 0), Point(1, 1), Point(2, 2)])
        XCTAssertEqual(oriented.contours, [square])   // reversed to positive; the flat one dropped
    }

    func testNonFiniteInputDrawsNothing() {
        let flat = [FlatSubpath(points: [Point(0, 0), Point(.infinity, 3)], smooth: [false, false], isClosed: false)]
        XCTAssertTrue(Stroker.outline(flat, style: StrokeStyle(width: 2, cap: .round), tolerance: 0.01).isEmpty)
        let huge = [FlatSubpath(points: [Point(-1e308, 0), Point(1e308, 1)], smooth: [false, false], isClosed: false)]
        let outline = Stroker.outline(huge, style: StrokeStyle(width: 2, cap: .square), tolerance: .nan)
        XCTAssertTrue(outline.allSatisfy { $0.allSatisfy(\.isFinite) })
    }
}

extension StrokerTests {
    /// An unclosed full circle with butt caps: the caps follow the curve's own tangent, so the two
    /// ends meet flush and no wedge of the ring is missing where the flattened chords turn away.
    func testButtEndsOfACurveArePerpendicularToTheCurveNotTheChord() {
        var arc = Path(); arc.addArc(center: Point(0, 0), radius: 12, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        let outline = Stroker.outline(arc.flattened(tolerance: 1.0 / 64), style: StrokeStyle(width: 10), tolerance: 1.0 / 64)
        // Just outside the start point (12, 0), on the outer side, slightly above and below it:
        // the chord bands alone leave these uncovered.
        for p in [Point(16.5, -0.05), Point(16.5, 0.05), Point(16.9, 0)] {
            XCTAssertNotEqual(StrokeTestSupport.winding(at: p, outline), 0, "\(p)")
        }
        // The end wedges add no more than the gap: the ring's area stays 2 pi r w within the
        // flattening error.
        XCTAssertEqual(StrokeTestSupport.nonzeroArea(outline), 2 * .pi * 12 * 10, accuracy: 2 * .pi * 12 * 10 * 2e-3)
    }
}
