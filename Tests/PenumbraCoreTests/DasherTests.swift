// Dasher tests: the pieces a pattern cuts from a path (count, positions and
// lengths worked out by hand from the pattern), phases, closed subpaths, dots
// of zero-length dashes, invalid patterns, and the piece budget.

import XCTest
@testable import PenumbraModel
@testable import PenumbraCore

final class DasherTests: XCTestCase {
    typealias S = StrokeTestSupport

    func line(_ length: Double) -> FlatSubpath {
        FlatSubpath(points: [Point(0, 0), Point(length, 0)], smooth: [false, false], isClosed: false)
    }

    func pieces(_ subpath: FlatSubpath, _ lengths: [Double], phase: Double = 0) -> [StrokeRun] {
        Dasher.pieces(subpath, pattern: DashPattern(lengths: lengths, phase: phase)!)
    }

    /// Each piece of a straight line along +x as (start x, end x), rounded to 1e-9: dash ends
    /// are interpolated along the segment, so they are exact only to rounding.
    func spans(_ runs: [StrokeRun]) -> [[Double]] {
        runs.map { run in [run.points.first!.x, run.points.last!.x].map { ($0 * 1e9).rounded() / 1e9 } }
    }

    /// `count` dashes 10 long every 15, the first at `start`.
    func everyFifteen(from start: Double, count: Int) -> [[Double]] {
        (0..<count).map { k -> [Double] in
            let s = start + 15 * Double(k)
            return [s, s + 10]
        }
    }

    func testPatternOnALine() {
        // [10, 5] from 0: dashes at 0, 15, ..., 90, each 10 long.
        let runs = pieces(line(100), [10, 5])
        XCTAssertEqual(spans(runs), everyFifteen(from: 0, count: 7))
        XCTAssertEqual(runs.reduce(0) { $0 + $1.points.last!.x - $1.points.first!.x }, 70, accuracy: 1e-12)
        let outline = Stroker.outline([line(100)], style: StrokeStyle(width: 2, dashLengths: [10, 5]), tolerance: 0.01)
        XCTAssertEqual(outline.count, 7)
        XCTAssertEqual(S.nonzeroArea(outline), 140, accuracy: 1e-9)
    }

    func testPhase() {
        // Phase 3: the first dash has 7 left, then dashes at 12, 27, ..., 87.
        let shifted = spans(pieces(line(100), [10, 5], phase: 3))
        XCTAssertEqual(shifted, [[0, 7]] + everyFifteen(from: 12, count: 6))
        // Phase 12 starts in the gap, 3 before the next dash; the last dash is cut at 100.
        let inGap = spans(pieces(line(100), [10, 5], phase: 12))
        XCTAssertEqual(inGap, everyFifteen(from: 3, count: 6) + [[93, 100]])
        // A phase is taken modulo the period, a negative one backwards.
        XCTAssertEqual(spans(pieces(line(100), [10, 5], phase: -3)), inGap)
        XCTAssertEqual(spans(pieces(line(100), [10, 5], phase: 18)), shifted)
        // A phase that lands exactly at a dash's end starts with the gap.
        XCTAssertEqual(spans(pieces(line(30), [10, 5], phase: 10)).first, [5, 15])
    }

    func testOddPatternRepeats() {
        XCTAssertEqual(spans(pieces(line(100), [10])), [[0, 10], [20, 30], [40, 50], [60, 70], [80, 90]])
    }

    func testInvalidPatternsAreSolid() {
        XCTAssertNil(DashPattern(lengths: [], phase: 0))
        XCTAssertNil(DashPattern(lengths: [0, 0], phase: 0))
        XCTAssertNil(DashPattern(lengths: [4, -1], phase: 0))
        XCTAssertNil(DashPattern(lengths: [4, .infinity], phase: 0))
        XCTAssertEqual(DashPattern(lengths: [4, 2], phase: .nan)?.phase, 0)
        let solid = Stroker.outline([line(50)], style: StrokeStyle(width: 2, dashLengths: [0, 0]), tolerance: 0.01)
        XCTAssertEqual(S.nonzeroArea(solid), 100, accuracy: 1e-9)
    }

    func rectangle() -> FlatSubpath {
        var rect = Path(); rect.addRect(Rect(x: 0, y: 0, width: 100, height: 100))
        return rect.flattened()[0]
    }

    func testDashThroughTheStartOfAClosedSubpathIsTwoPieces() {
        // Perimeter 400, [30, 20] with phase 10: dashes [0,20], [40,70], ..., [340,370], [390,400].
        let runs = pieces(rectangle(), [30, 20], phase: 10)
        XCTAssertEqual(runs.count, 9)
        XCTAssertEqual(runs.first!.points, [Point(0, 0), Point(20, 0)])
        XCTAssertEqual(runs.last!.points, [Point(0, 10), Point(0, 0)])
        XCTAssertTrue(runs.allSatisfy { !$0.isClosed })
        // Drawn with butt caps, not joined: the corner outside (0, 0) stays empty.
        let style = StrokeStyle(width: 4, cap: .butt, join: .miter, dashPhase: 10, dashLengths: [30, 20])
        let outline = Stroker.outline([rectangle()], style: style, tolerance: 0.01)
        XCTAssertEqual(S.winding(at: Point(-1, -1), outline), 0)
        XCTAssertNotEqual(S.winding(at: Point(1, -1), outline), 0)
        XCTAssertNotEqual(S.winding(at: Point(-1, 1), outline), 0)
        // With square caps the two pieces' caps cover that corner.
        var squared = style; squared.cap = .square
        XCTAssertNotEqual(S.winding(at: Point(-1, -1), Stroker.outline([rectangle()], style: squared, tolerance: 0.01)), 0)
    }

    func testDashesKeepCornersJoined() {
        // The dash [0, 150] turns the corner at (100, 0): one piece, mitred there.
        let runs = pieces(rectangle(), [150, 10])
        XCTAssertEqual(runs.first!.points, [Point(0, 0), Point(100, 0), Point(100, 50)])
        XCTAssertEqual(runs.first!.smooth, [false, false, false])
        let outline = Stroker.outline([rectangle()], style: StrokeStyle(width: 4, dashLengths: [150, 10]), tolerance: 0.01)
        XCTAssertNotEqual(S.winding(at: Point(101.9, -1.9), outline), 0)
    }

    func testZeroLengthDashesAreDots() {
        // [0, 10] on a line of 100: dots at 0, 10, ..., 100 (the end included).
        let runs = pieces(line(100), [0, 10])
        XCTAssertEqual(runs.map { $0.points }, (0...10).map { [Point(Double($0) * 10, 0)] })
        XCTAssertTrue(runs.allSatisfy { $0.direction == Point(1, 0) })
        let round = Stroker.outline([line(100)], style: StrokeStyle(width: 2, cap: .round, dashLengths: [0, 10]),
                                    tolerance: 1e-3)
        XCTAssertEqual(round.count, 11)
        XCTAssertEqual(S.nonzeroArea(round), 11 * Double.pi, accuracy: 11 * 2 * .pi * 1e-3)
        XCTAssertTrue(Stroker.outline([line(100)], style: StrokeStyle(width: 2, cap: .butt, dashLengths: [0, 10]),
                                      tolerance: 1e-3).isEmpty)
    }

    func testZeroLengthSubpathIsADotWhereThePatternIsOn() {
        let point = FlatSubpath(points: [Point(3, 4), Point(3, 4)], smooth: [false, false], isClosed: false)
        XCTAssertEqual(pieces(point, [10, 5]).map(\.points), [[Point(3, 4)]])
        XCTAssertEqual(pieces(point, [10, 5], phase: 4).map(\.points), [[Point(3, 4)]])
        XCTAssertTrue(pieces(point, [10, 5], phase: 12).isEmpty)   // in the gap
        XCTAssertEqual(pieces(point, [0, 5]).count, 1)
        XCTAssertTrue(pieces(point, [0, 5], phase: 1).isEmpty)
        XCTAssertNil(pieces(point, [10, 5]).first?.direction)
    }

    func testSquareDotsFollowThePathDirection() {
        // On a diagonal line a square dot is turned 45 degrees: corners on the axes at h * sqrt(2).
        let diagonal = FlatSubpath(points: [Point(0, 0), Point(30, 30)], smooth: [false, false], isClosed: false)
        let style = StrokeStyle(width: 2, cap: .square, dashLengths: [0, 100])
        let outline = Stroker.outline([diagonal], style: style, tolerance: 0.01)
        XCTAssertEqual(outline.count, 1)
        XCTAssertEqual(S.nonzeroArea(outline), 4, accuracy: 1e-9)
        let box = S.bounds(outline)
        XCTAssertEqual(box.max.x, 2.0.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(box.min.y, -(2.0.squareRoot()), accuracy: 1e-12)
    }

    func testClosedSubpathDoesNotRepeatTheStartDot() {
        // Perimeter 400 with a dot every 20: 20 dots, the one at 400 is the one at 0.
        XCTAssertEqual(pieces(rectangle(), [0, 20]).count, 20)
        // Shifted so nothing is drawn at 0, the dot at the end is drawn.
        let shifted = pieces(rectangle(), [0, 400], phase: 100)
        XCTAssertEqual(shifted.map(\.points), [[Point(0, 100)]])
        let atEnd = pieces(rectangle(), [0, 450], phase: 50)
        XCTAssertEqual(atEnd.map(\.points), [[Point(0, 0)]])
        XCTAssertEqual(atEnd.first?.direction, Point(0, -1))   // arriving: the path's end
    }

    func testDashesAlongACurve() {
        let flat = S.circle(center: .zero, radius: 50).flattened(tolerance: 0.01)[0]
        let perimeter = MeasuredPolyline(flat).length
        let runs = pieces(flat, [perimeter / 40, perimeter / 40])
        XCTAssertEqual(runs.count, 20)
        let onLength = runs.reduce(0.0) { sum, run in
            sum + zip(run.points, run.points.dropFirst()).reduce(0) { $0 + ($1.1 - $1.0).length }
        }
        XCTAssertEqual(onLength, perimeter / 2, accuracy: 1e-9)
        XCTAssertTrue(runs.allSatisfy { $0.smooth.first == false && $0.smooth.last == false })
    }

    func testBudgetBoundsPathologicalPatterns() {
        let tiny = DashPattern(lengths: [1e-6, 1e-6], phase: 0)!
        XCTAssertEqual(Dasher.pieces(line(1e6), pattern: tiny, budget: 1000).count, 1000)
        // Dashes too short to survive rounding are dots (their caps), within the budget too.
        let vanishing = DashPattern(lengths: [1e-30, 1e-3], phase: 0)!
        let dots = Dasher.pieces(line(1e12), pattern: vanishing, budget: 1000)
        XCTAssertEqual(dots.count, 1000)
        XCTAssertEqual(dots[500].points.count, 1)
        XCTAssertEqual(dots[500].points[0].x, 0.5, accuracy: 1e-9)
        var budget = 10
        var seen = 0
        Dasher.split(line(100), pattern: DashPattern(lengths: [1, 1], phase: 0)!, budget: &budget) { _ in
            seen += 1; return true
        }
        XCTAssertEqual(seen, 10); XCTAssertEqual(budget, 0)
    }
}
