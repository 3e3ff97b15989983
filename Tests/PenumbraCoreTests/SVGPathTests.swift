// SVG 1.1 path data: every command in absolute and relative form, checked
// element by element; implicit repeats, S/T reflection, Z, the compact number
// syntax and packed arc flags; elliptical arcs checked against an independent
// transcription of SVG 1.1 F.6.5 (every flattened point on the ellipse);
// malformed data rejected with the offset of the problem.

import Foundation
import XCTest
import PenumbraTestSupport
@testable import PenumbraModel
@testable import PenumbraCore

final class SVGPathTests: XCTestCase {
    func elements(_ data: String, file: StaticString = #filePath, line: UInt = #line) -> [Path.Element] {
        do { return try Path(svgPathData: data).elements } catch {
            XCTFail("\(data): \(error)", file: file, line: line)
            return []
        }
    }

    func assertError(_ data: String, offset: Int, containing text: String,
                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try Path(svgPathData: data), data, file: file, line: line) { error in
            guard let error = error as? PathDataError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(error.offset, offset, "\(data): \(error)", file: file, line: line)
            XCTAssertTrue(error.message.contains(text), "\(data): \(error)", file: file, line: line)
        }
    }

    // MARK: Lines and moves

    func testMoveAndLineAbsoluteAndRelative() {
        XCTAssertEqual(elements("M 10 20 L 30 40"), [.move(to: Point(10, 20)), .line(to: Point(30, 40))])
        XCTAssertEqual(elements("m 10 20 l 30 40"), [.move(to: Point(10, 20)), .line(to: Point(40, 60))])
        XCTAssertEqual(elements("M 1 1 m 10 20 l 5 5"), [.move(to: Point(1, 1)), .move(to: Point(11, 21)), .line(to: Point(16, 26))])
    }

    func testHorizontalAndVerticalLines() {
        XCTAssertEqual(elements("M10 20 H 50 h -5 V 70 v 5"), [
            .move(to: Point(10, 20)), .line(to: Point(50, 20)), .line(to: Point(45, 20)),
            .line(to: Point(45, 70)), .line(to: Point(45, 75)),
        ])
        XCTAssertEqual(elements("M0 0 H 10 20 v 1 2"), [
            .move(to: Point(0, 0)), .line(to: Point(10, 0)), .line(to: Point(20, 0)),
            .line(to: Point(20, 1)), .line(to: Point(20, 3)),
        ])
    }

    func testImplicitLinetoAfterMove() {
        XCTAssertEqual(elements("M 10 10 20 20 30 30"), [.move(to: Point(10, 10)), .line(to: Point(20, 20)), .line(to: Point(30, 30))])
        XCTAssertEqual(elements("m 10 10 20 20 30 30"), [.move(to: Point(10, 10)), .line(to: Point(30, 30)), .line(to: Point(60, 60))])
        XCTAssertEqual(elements("M0,0L1,2,3,4"), [.move(to: Point(0, 0)), .line(to: Point(1, 2)), .line(to: Point(3, 4))])
    }

    // MARK: Béziers

    func testCubicAbsoluteAndRelative() {
        XCTAssertEqual(elements("M 1 2 C 3 4 5 6 7 8 c 1 1 2 2 3 3"), [
            .move(to: Point(1, 2)),
            .cubic(control1: Point(3, 4), control2: Point(5, 6), to: Point(7, 8)),
            .cubic(control1: Point(8, 9), control2: Point(9, 10), to: Point(10, 11)),
        ])
    }

    func testSmoothCubicReflectsOnlyAfterACubic() {
        let cubic = Path.Element.cubic(control1: Point(10, 0), control2: Point(20, 10), to: Point(30, 10))
        let reflected = Path.Element.cubic(control1: Point(40, 10), control2: Point(50, 20), to: Point(60, 30))
        XCTAssertEqual(elements("M 0 0 C 10 0 20 10 30 10 S 50 20 60 30"), [.move(to: .zero), cubic, reflected])
        XCTAssertEqual(elements("M 0 0 C 10 0 20 10 30 10 s 20 10 30 20"), [.move(to: .zero), cubic, reflected])
        // S after S reflects the previous S's second control point.
        XCTAssertEqual(elements("M0 0 S 10 10 20 0 S 40 -10 40 0"), [
            .move(to: .zero),
            .cubic(control1: Point(0, 0), control2: Point(10, 10), to: Point(20, 0)),
            .cubic(control1: Point(30, -10), control2: Point(40, -10), to: Point(40, 0)),
        ])
        // After a line or a quad, the first control point is the current point.
        XCTAssertEqual(elements("M 5 5 L 10 10 S 20 20 30 30").last, .cubic(control1: Point(10, 10), control2: Point(20, 20), to: Point(30, 30)))
        XCTAssertEqual(elements("M 0 0 Q 5 9 10 0 S 20 20 30 30").last, .cubic(control1: Point(10, 0), control2: Point(20, 20), to: Point(30, 30)))
    }

    func testQuadAbsoluteAndRelative() {
        XCTAssertEqual(elements("M 1 2 Q 3 4 5 6 q 1 1 2 0"), [
            .move(to: Point(1, 2)),
            .quad(control: Point(3, 4), to: Point(5, 6)),
            .quad(control: Point(6, 7), to: Point(7, 6)),
        ])
    }

    func testSmoothQuadReflectsOnlyAfterAQuad() {
        let quad = Path.Element.quad(control: Point(10, 10), to: Point(20, 0))
        XCTAssertEqual(elements("M 0 0 Q 10 10 20 0 T 40 0"), [.move(to: .zero), quad, .quad(control: Point(30, -10), to: Point(40, 0))])
        XCTAssertEqual(elements("M 0 0 Q 10 10 20 0 t 20 0"), [.move(to: .zero), quad, .quad(control: Point(30, -10), to: Point(40, 0))])
        // A chain of T reflects the previous (reflected) control point.
        XCTAssertEqual(elements("M 0 0 Q 10 10 20 0 T 40 0 T 60 0").last, .quad(control: Point(50, 10), to: Point(60, 0)))
        // After a line or a cubic, the control point is the current point.
        XCTAssertEqual(elements("M 0 0 L 10 0 T 20 10").last, .quad(control: Point(10, 0), to: Point(20, 10)))
        XCTAssertEqual(elements("M 0 0 C 1 5 9 5 10 0 T 20 10").last, .quad(control: Point(10, 0), to: Point(20, 10)))
    }

    // MARK: Close

    func testCloseReturnsToTheSubpathStartAndTheNextCommandStartsThere() {
        XCTAssertEqual(elements("M 10 10 L 20 10 L 20 20 Z L 30 30"), [
            .move(to: Point(10, 10)), .line(to: Point(20, 10)), .line(to: Point(20, 20)), .close,
            .move(to: Point(10, 10)), .line(to: Point(30, 30)),
        ])
        XCTAssertEqual(elements("M 10 10 l 10 0 z l 5 5"), [
            .move(to: Point(10, 10)), .line(to: Point(20, 10)), .close, .move(to: Point(10, 10)), .line(to: Point(15, 15)),
        ])
        XCTAssertEqual(elements("M 10 10 L 20 10 z m 5 5 l 1 0"), [
            .move(to: Point(10, 10)), .line(to: Point(20, 10)), .close, .move(to: Point(15, 15)), .line(to: Point(16, 15)),
        ])
        // A second Z closes nothing more.
        XCTAssertEqual(elements("M 0 0 L 5 0 Z z"), [.move(to: .zero), .line(to: Point(5, 0)), .close])
        XCTAssertEqual(try Path(svgPathData: "M 3 4 L 5 0 Z").currentPoint, Point(3, 4))
    }

    // MARK: Number syntax

    func testCompactNumberSyntax() {
        XCTAssertEqual(elements("M.5.5L-1-2e1"), [.move(to: Point(0.5, 0.5)), .line(to: Point(-1, -20))])
        XCTAssertEqual(elements("M1e2,1E-1l.5-.5"), [.move(to: Point(100, 0.1)), .line(to: Point(100.5, 0.1 - 0.5))])
        XCTAssertEqual(elements("M 0,0L1.5.5.5 1"), [.move(to: .zero), .line(to: Point(1.5, 0.5)), .line(to: Point(0.5, 1))])
        XCTAssertEqual(elements("M+1+2l+1e+1 2."), [.move(to: Point(1, 2)), .line(to: Point(11, 4))])
        XCTAssertEqual(elements("\t\nM\r\n1 ,\t2\u{0C}L 3 , 4  "), [.move(to: Point(1, 2)), .line(to: Point(3, 4))])
    }

    func testEmptyDataIsAnEmptyPath() throws {
        XCTAssertTrue(try Path(svgPathData: "").isEmpty)
        XCTAssertTrue(try Path(svgPathData: " \n\t").isEmpty)
    }

    // MARK: Arcs

    func testArcFlagsNeedNoSeparators() {
        let packed = elements("M 0 0 a50 50 0 1050 50")
        XCTAssertEqual(packed, elements("M 0 0 a 50,50 0 1 0 50,50"))
        XCTAssertEqual(packed, elements("M0,0A50,50,0,1,0,50,50"))
        XCTAssertEqual(elements("M 0 0 a 50 50 0 0 0 50 50").count, 2, "the small arc is one quarter")
        guard case .conic(_, let end, _)? = packed.last else { return XCTFail("\(packed)") }
        XCTAssertEqual(end, Point(50, 50))
        XCTAssertEqual(packed.count, 4, "the large arc is three quarters")
    }

    func testHalfCircleArcSweepFlagPicksTheSide() throws {
        // From (0, 0) to (2, 0) on the circle of radius 1 round (1, 0).
        for (sweep, extremeY) in [(1, -1.0), (0, 1.0)] {
            let path = try Path(svgPathData: "M 0 0 A 1 1 0 0 \(sweep) 2 0")
            let points = try XCTUnwrap(path.flattened().first).points
            for p in points { XCTAssertEqual((p - Point(1, 0)).length, 1, accuracy: 1e-12) }
            let extreme = sweep == 1 ? points.map(\.y).min()! : points.map(\.y).max()!
            XCTAssertEqual(extreme, extremeY, accuracy: 1e-9)
            XCTAssertEqual(points.last, Point(2, 0))
        }
    }

    func testArcRadiiTooSmallAreScaledUp() throws {
        // Radius 1 cannot reach from (0, 0) to (10, 0): it becomes 5, centred at (5, 0).
        let path = try Path(svgPathData: "M 0 0 A 1 1 0 0 1 10 0")
        for p in try XCTUnwrap(path.flattened().first).points {
            XCTAssertEqual((p - Point(5, 0)).length, 5, accuracy: 5e-9)
        }
        // An ellipse 2:1 rotated by 90 degrees, too small: scaled to rx 20, ry 10 along y.
        let rotated = try Path(svgPathData: "M 0 0 A 4 2 90 0 1 0 40")
        let points = try XCTUnwrap(rotated.flattened().first).points
        for p in points {
            XCTAssertEqual(pow((p.y - 20) / 20, 2) + pow(p.x / 10, 2), 1, accuracy: 1e-9)
        }
        XCTAssertEqual(points.map(\.x).max()!, 10, accuracy: 1 / 64)
    }

    func testDegenerateArcs() {
        XCTAssertEqual(elements("M 0 0 A 0 5 0 0 1 10 10"), [.move(to: .zero), .line(to: Point(10, 10))])
        XCTAssertEqual(elements("M 0 0 a 5 0 0 0 1 10 10"), [.move(to: .zero), .line(to: Point(10, 10))])
        XCTAssertEqual(elements("M 5 5 A 10 10 0 0 1 5 5"), [.move(to: Point(5, 5))])
        XCTAssertEqual(elements("M 5 5 L 6 5 Z A 10 10 0 0 1 5 5"), [.move(to: Point(5, 5)), .line(to: Point(6, 5)), .close])
        // Negative radii count as their absolute values.
        XCTAssertEqual(elements("M 0 0 A -25 25 0 1 0 50 50"), elements("M 0 0 A 25 25 0 1 0 50 50"))
    }

    /// Random arcs, absolute and relative: every flattened vertex satisfies the equation of the
    /// ellipse that SVG 1.1 F.6.5 gives (transcribed here independently), and the arc turns the
    /// way the flags say by the angle they imply.
    func testRandomArcsLieOnTheirEllipse() throws {
        var rng = SplitMix64(seed: 0x5C6)
        for _ in 0..<300 {
            let start = rng.point(in: -100...100), randomEnd = rng.point(in: -100...100)
            var rx = rng.double(in: 1...150), ry = rng.double(in: 1...150)
            let rotation = rng.double(in: -360...360)
            let largeArc = rng.next() & 1 == 1, sweep = rng.next() & 1 == 1
            let relative = rng.next() & 1 == 1
            let target = relative ? randomEnd - start : randomEnd
            let end = relative ? start + target : randomEnd
            let data = "M \(start.x) \(start.y) \(relative ? "a" : "A") \(rx) \(ry) \(rotation) \(largeArc ? 1 : 0) \(sweep ? 1 : 0) \(target.x) \(target.y)"
            let path = try Path(svgPathData: data)

            // F.6.5 step 1, F.6.6 correction, step 2 and 3: the centre.
            let phi = rotation * .pi / 180
            let x1p = cos(phi) * (start.x - end.x) / 2 + sin(phi) * (start.y - end.y) / 2
            let y1p = -sin(phi) * (start.x - end.x) / 2 + cos(phi) * (start.y - end.y) / 2
            let lambda = x1p * x1p / (rx * rx) + y1p * y1p / (ry * ry)
            if lambda > 1 { rx *= lambda.squareRoot(); ry *= lambda.squareRoot() }
            let numerator = max(0, rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p)
            // After the correction the numerator is 0 in exact arithmetic (the centre is the midpoint).
            let coefficient = lambda > 1 ? 0 : (largeArc != sweep ? 1.0 : -1.0) * (numerator / (rx * rx * y1p * y1p + ry * ry * x1p * x1p)).squareRoot()
            let cxp = coefficient * rx * y1p / ry, cyp = -coefficient * ry * x1p / rx
            let cx = cos(phi) * cxp - sin(phi) * cyp + (start.x + end.x) / 2
            let cy = sin(phi) * cxp + cos(phi) * cyp + (start.y + end.y) / 2

            let flat = try XCTUnwrap(path.flattened().first, data)
            XCTAssertEqual(flat.points.first, start, data)
            XCTAssertEqual(flat.points.last, end, data)
            var previousAngle: Double?
            var turned = 0.0
            for p in flat.points {
                let dx = p.x - cx, dy = p.y - cy
                let u = (cos(phi) * dx + sin(phi) * dy) / rx, v = (-sin(phi) * dx + cos(phi) * dy) / ry
                XCTAssertEqual(u * u + v * v, 1, accuracy: 1e-9, data)
                let angle = atan2(v, u)
                if let a = previousAngle {
                    let step = remainder(angle - a, 2 * .pi)
                    XCTAssertEqual(step >= 0, sweep, data)
                    turned += step
                }
                previousAngle = angle
            }
            if lambda < 0.999 {
                XCTAssertEqual(abs(turned) > .pi, largeArc, data)
            } else {
                XCTAssertEqual(abs(turned), .pi, accuracy: 0.05, data)
            }
        }
    }

    // MARK: Errors

    func testMalformedDataReportsTheOffset() {
        assertError("L 10 10", offset: 0, containing: "path data must start with a move")
        assertError("  10 10", offset: 2, containing: "path data must start with a move")
        assertError("X 10 10", offset: 0, containing: "unknown command 'X'")
        assertError("M 10", offset: 4, containing: "expected a number")
        assertError("M 10 10 X 5", offset: 8, containing: "unknown command 'X'")
        assertError("M 10 10 L 5 ,", offset: 13, containing: "expected a number")
        assertError("M,1 2", offset: 1, containing: "expected a number")
        assertError("M 1 2,", offset: 6, containing: "expected a number")
        assertError("M 1 2 L 3 4 , L 5 6", offset: 14, containing: "expected a number")
        assertError("M 1 2 A 5 5 0 2 0 3 3", offset: 14, containing: "arc flag")
        assertError("M 1 2 A 5 5 0 1", offset: 15, containing: "arc flag")
        assertError("M1e 2", offset: 3, containing: "exponent")
        assertError("M 1 2 Z 3", offset: 8, containing: "expected a command")
        assertError("M 1e999 0", offset: 2, containing: "out of range")
        assertError("M 1 2 L 3 . 4", offset: 10, containing: "expected a number")
        assertError("M 1 2 # 3", offset: 6, containing: "unexpected character '#'")
        assertError("M 1 2 ü 3", offset: 6, containing: "unexpected character 'ü'")
        assertError("M 1 2 L 3 4 l ü", offset: 14, containing: "expected a number, found 'ü'")
    }

    func testErrorDescriptionNamesTheOffset() {
        XCTAssertEqual(PathDataError(offset: 4, message: "expected a number").description, "at character 4: expected a number")
    }
}
