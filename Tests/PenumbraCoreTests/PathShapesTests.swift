// Shapes and arcs as the scene format describes them: "Shapes start and run as
// Quartz builds them, clockwise on screen: a rect at (x, y) towards +x; an
// ellipse at angle 0 (the point (x + w, y + h/2)) with increasing angle; a
// rounded rect at (x + r, y) towards +x", and arcs measured from +x towards +y
// that wrap and become full circles at a sweep of 2 pi. Geometry is checked on
// the flattened output against the analytic shapes.

import Foundation
import XCTest
@testable import PenumbraModel
@testable import PenumbraCore

final class PathShapesTests: XCTestCase {
    let w = 0.5.squareRoot()

    /// Twice the signed area of a closed polygon (positive: clockwise on screen, with y down).
    func signedArea(_ points: [Point]) -> Double {
        var sum = 0.0
        for i in points.indices { sum += points[i].cross(points[(i + 1) % points.count]) }
        return sum / 2
    }

    // MARK: Rectangles

    func testRectStartsAtOriginAndRunsTowardsPlusX() {
        let expected: [Path.Element] = [
            .move(to: Point(10, 20)), .line(to: Point(40, 20)), .line(to: Point(40, 60)),
            .line(to: Point(10, 60)), .close,
        ]
        XCTAssertEqual(Path(rect: Rect(x: 10, y: 20, width: 30, height: 40)).elements, expected)
        // Negative sizes are standardised first.
        XCTAssertEqual(Path(rect: Rect(x: 40, y: 60, width: -30, height: -40)).elements, expected)
        XCTAssertEqual(Path(rect: Rect(x: 40, y: 20, width: -30, height: 40)).elements, expected)
    }

    func testZeroSizeRectIsValidAndEnclosesNothing() throws {
        let path = Path(rect: Rect(x: 5, y: 5, width: 0, height: 0))
        XCTAssertEqual(path.elements.count, 5)
        let flat = try XCTUnwrap(path.flattened().first)
        XCTAssertEqual(signedArea(flat.points), 0)
    }

    // MARK: Ellipses

    func testEllipseStartsAtAngleZeroAndRunsTowardsPlusY() {
        let path = Path(ellipseIn: Rect(x: 10, y: 20, width: 60, height: 40))
        let expected: [Path.Element] = [
            .move(to: Point(70, 40)),
            .conic(control: Point(70, 60), to: Point(40, 60), weight: w),
            .conic(control: Point(10, 60), to: Point(10, 40), weight: w),
            .conic(control: Point(10, 20), to: Point(40, 20), weight: w),
            .conic(control: Point(70, 20), to: Point(70, 40), weight: w),
            .close,
        ]
        XCTAssertEqual(path.elements, expected)
        XCTAssertEqual(Path(ellipseIn: Rect(x: 70, y: 60, width: -60, height: -40)).elements, expected)
    }

    func testFlattenedEllipseLiesOnTheEllipseAndTurnsClockwiseOnScreen() throws {
        let rect = Rect(x: -30, y: 15, width: 250, height: 90)
        let flat = try XCTUnwrap(Path(ellipseIn: rect).flattened().first)
        let (cx, cy, rx, ry) = (rect.midX, rect.midY, rect.width / 2, rect.height / 2)
        for p in flat.points {
            let e = pow((p.x - cx) / rx, 2) + pow((p.y - cy) / ry, 2)
            XCTAssertEqual(e, 1, accuracy: 1e-9, "\(p)")
        }
        let area = signedArea(flat.points)
        XCTAssertGreaterThan(area, 0)
        XCTAssertEqual(area, .pi * rx * ry, accuracy: 1e-3 * .pi * rx * ry)
    }

    // MARK: Rounded rectangles

    func testRoundedRectStartsAfterTheTopLeftCornerAndRunsTowardsPlusX() {
        let path = Path(roundedRect: Rect(x: 10, y: 20, width: 100, height: 50), cornerRadius: 8)
        let expected: [Path.Element] = [
            .move(to: Point(18, 20)),
            .line(to: Point(102, 20)),
            .conic(control: Point(110, 20), to: Point(110, 28), weight: w),
            .line(to: Point(110, 62)),
            .conic(control: Point(110, 70), to: Point(102, 70), weight: w),
            .line(to: Point(18, 70)),
            .conic(control: Point(10, 70), to: Point(10, 62), weight: w),
            .line(to: Point(10, 28)),
            .conic(control: Point(10, 20), to: Point(18, 20), weight: w),
            .close,
        ]
        XCTAssertEqual(path.elements, expected)
    }

    func testRoundedRectRadiusIsClampedToHalfTheShorterSide() {
        let rect = Rect(x: 0, y: 0, width: 100, height: 40)
        let clamped = Path(roundedRect: rect, cornerRadius: 1_000)
        XCTAssertEqual(clamped, Path(roundedRect: rect, cornerRadius: 20))
        XCTAssertEqual(clamped.elements.first, .move(to: Point(20, 0)))
        // The vertical edges have zero length and are left out: 4 conics, 2 lines.
        let conics = clamped.elements.filter { if case .conic = $0 { return true } else { return false } }
        let lines = clamped.elements.filter { if case .line = $0 { return true } else { return false } }
        XCTAssertEqual(conics.count, 4)
        XCTAssertEqual(lines, [.line(to: Point(80, 0)), .line(to: Point(20, 40))])
        // A square with radius >= half its side is a circle.
        let circle = Path(roundedRect: Rect(x: 0, y: 0, width: 30, height: 30), cornerRadius: 99)
        XCTAssertEqual(circle.elements.count, 6)
        for p in circle.flattened().first?.points ?? [] {
            XCTAssertEqual((p - Point(15, 15)).length, 15, accuracy: 1e-9)
        }
    }

    func testRoundedRectWithZeroOrNegativeRadiusIsAPlainRect() {
        let rect = Rect(x: 3, y: 4, width: 50, height: 60)
        XCTAssertEqual(Path(roundedRect: rect, cornerRadius: 0), Path(rect: rect))
        XCTAssertEqual(Path(roundedRect: rect, cornerRadius: -5), Path(rect: rect))
        XCTAssertEqual(Path(roundedRect: rect, cornerRadius: .nan), Path(rect: rect))
    }

    func testFlattenedRoundedRectLiesOnItsOutline() throws {
        let rect = Rect(x: 10, y: 20, width: 100, height: 50), r = 12.0
        let flat = try XCTUnwrap(Path(roundedRect: rect, cornerRadius: r).flattened().first)
        let centres = [Point(22, 32), Point(98, 32), Point(98, 58), Point(22, 58)]
        for p in flat.points {
            let onEdge = (p.y == 20 || p.y == 70) && p.x >= 22 && p.x <= 98
                || (p.x == 10 || p.x == 110) && p.y >= 32 && p.y <= 58
            let onCorner = centres.contains { abs(($0 - p).length - r) < 1e-9 }
            XCTAssertTrue(onEdge || onCorner, "\(p)")
        }
        let area = signedArea(flat.points)
        // Chords cut at most the tolerance off the corners' arcs (length 2 pi r in all).
        XCTAssertEqual(area, 100 * 50 - (4 - .pi) * r * r, accuracy: 2 * .pi * r * flatteningTolerance)
        XCTAssertLessThan(area, 100 * 50 - (4 - .pi) * r * r)
    }

    // MARK: Arcs

    struct ArcCase { var start: Double; var end: Double; var clockwise: Bool; var sweep: Double }

    let arcCases: [ArcCase] = [
        ArcCase(start: 0, end: .pi / 2, clockwise: true, sweep: .pi / 2),
        ArcCase(start: 0, end: .pi / 2, clockwise: false, sweep: 3 * .pi / 2),
        ArcCase(start: .pi / 2, end: 0, clockwise: true, sweep: 3 * .pi / 2),
        ArcCase(start: 0, end: -.pi / 2, clockwise: false, sweep: .pi / 2),
        ArcCase(start: 0.3, end: 0.3 + 1e-3, clockwise: true, sweep: 1e-3),
        ArcCase(start: 3 * .pi, end: .pi / 4, clockwise: true, sweep: 1.25 * .pi),
        ArcCase(start: -1, end: 2, clockwise: false, sweep: 2 * .pi - 3),
        ArcCase(start: 0, end: 2 * .pi, clockwise: true, sweep: 2 * .pi),
        ArcCase(start: 1, end: 1 + 7, clockwise: true, sweep: 2 * .pi),
        ArcCase(start: 0, end: -2 * .pi, clockwise: false, sweep: 2 * .pi),
        ArcCase(start: 2, end: -5, clockwise: false, sweep: 2 * .pi),
        ArcCase(start: 0, end: 2 * .pi, clockwise: false, sweep: 0),
        ArcCase(start: 0, end: -2 * .pi, clockwise: true, sweep: 0),
        ArcCase(start: 1.5, end: 1.5, clockwise: true, sweep: 0),
    ]

    func testArcEndPointsSweepAndRadius() throws {
        let centre = Point(50, 60), radius = 30.0
        for arc in arcCases {
            let label = "start \(arc.start) end \(arc.end) clockwise \(arc.clockwise)"
            let path = Path(arcCenter: centre, radius: radius, startAngle: arc.start, endAngle: arc.end, clockwise: arc.clockwise)
            let start = Point(centre.x + radius * cos(arc.start), centre.y + radius * sin(arc.start))
            XCTAssertEqual(path.elements.first, .move(to: start), label)
            let isFull = arc.sweep >= 2 * .pi
            let endAngle = isFull ? arc.start : arc.end
            let end = Point(centre.x + radius * cos(endAngle), centre.y + radius * sin(endAngle))
            let current = try XCTUnwrap(path.currentPoint)
            XCTAssertEqual(current.x, end.x, accuracy: 1e-12, label)
            XCTAssertEqual(current.y, end.y, accuracy: 1e-12, label)

            // Pieces: conics of at most 90 degrees.
            let weights = path.elements.compactMap { e -> Double? in if case .conic(_, _, let w) = e { return w } else { return nil } }
            XCTAssertEqual(weights.count, arc.sweep == 0 ? 0 : Int((arc.sweep / (.pi / 2) - 1e-9).rounded(.up)), label)
            for w in weights { XCTAssertGreaterThanOrEqual(w, cos(Double.pi / 4) - 1e-12, label) }
            guard arc.sweep > 0 else {
                XCTAssertEqual(path.elements.count, 1, label)
                continue
            }

            let flat = try XCTUnwrap(path.flattened().first, label)
            // Every vertex on the circle.
            for p in flat.points { XCTAssertEqual((p - centre).length, radius, accuracy: 1e-9, label) }
            // Angular coverage: unwrap the steps between vertices; each turns the arc's way.
            var covered = 0.0
            for i in 1..<flat.points.count {
                let u = flat.points[i - 1] - centre, v = flat.points[i] - centre
                let step = atan2(u.cross(v), u.dot(v))
                if arc.clockwise { XCTAssertGreaterThanOrEqual(step, 0, label) } else { XCTAssertLessThanOrEqual(step, 0, label) }
                covered += step
            }
            XCTAssertEqual(abs(covered), arc.sweep, accuracy: 1e-9, label)
        }
    }

    func testQuarterArcControlPointAndWeight() {
        let path = Path(arcCenter: Point(0, 0), radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        guard path.elements.count == 2, case .conic(let control, let to, let weight) = path.elements[1] else {
            return XCTFail("expected a move and one conic, got \(path.elements)")
        }
        XCTAssertEqual(control.x, 10, accuracy: 1e-12); XCTAssertEqual(control.y, 10, accuracy: 1e-12)
        XCTAssertEqual(to.x, 0, accuracy: 1e-12); XCTAssertEqual(to.y, 10, accuracy: 1e-12)
        XCTAssertEqual(weight, w, accuracy: 1e-15)
    }

    func testArcAfterACurrentPointAddsALineToItsStart() {
        var path = Path()
        path.move(to: Point(0, 0))
        path.addArc(center: Point(100, 0), radius: 10, startAngle: .pi, endAngle: 0, clockwise: true)
        XCTAssertEqual(path.elements.count, 4)
        XCTAssertEqual(path.elements[0], .move(to: Point(0, 0)))
        XCTAssertEqual(path.elements[1], .line(to: Point(100 + 10 * cos(Double.pi), 10 * sin(Double.pi))))
        // Clockwise from pi to 0 (2 pi) passes through angle 3 pi / 2: the top of the circle (y down).
        let top = path.flattened().first?.points.min { $0.y < $1.y }
        XCTAssertEqual(top?.y ?? 0, -10, accuracy: 1e-9)
        // An arc starting exactly at the current point adds no line.
        var joined = Path()
        joined.move(to: Point(110, 0))
        joined.addArc(center: Point(100, 0), radius: 10, startAngle: 0, endAngle: 1, clockwise: true)
        XCTAssertEqual(joined.elements.count, 2)
    }

    func testDegenerateArcs() {
        let zero = Path(arcCenter: Point(7, 8), radius: 0, startAngle: 0, endAngle: 3, clockwise: true)
        XCTAssertEqual(zero.elements, [.move(to: Point(7, 8))])
        XCTAssertTrue(Path(arcCenter: Point(7, 8), radius: -5, startAngle: 0, endAngle: 3, clockwise: true).isEmpty)
        XCTAssertTrue(Path(arcCenter: Point(7, 8), radius: 5, startAngle: .nan, endAngle: 3, clockwise: true).isEmpty)
        var path = Path()
        path.move(to: Point(1, 1))
        path.addArc(center: Point(7, 8), radius: -5, startAngle: 0, endAngle: 3, clockwise: true)
        XCTAssertEqual(path.elements, [.move(to: Point(1, 1))])
    }
}
