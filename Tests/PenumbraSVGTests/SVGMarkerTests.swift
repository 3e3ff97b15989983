// Markers, paint-order and context paint: where a marker stands and which way it turns (the
// vertices of a path and their bisectors), what it paints (the shape's fill through
// context-fill), the order of fill, stroke and markers, and a marker in its own content.
import Foundation
import XCTest
import Penumbra
@testable import PenumbraSVG

final class SVGMarkerTests: XCTestCase {
    typealias S = SVGTestSupport

    func testVerticesOfALineCornerTurnHalfway() {
        var path = Path()
        path.move(to: Point(0, 0))
        path.addLine(to: Point(10, 0))
        path.addLine(to: Point(10, 10))
        let v = SVGMarkerVertex.vertices(of: path)
        XCTAssertEqual(v.map(\.point), [Point(0, 0), Point(10, 0), Point(10, 10)])
        XCTAssertEqual(v[0].angle, 0, accuracy: 1e-9)                // along +x
        XCTAssertEqual(v[1].angle, Double.pi / 4, accuracy: 1e-9)     // between +x and +y
        XCTAssertEqual(v[2].angle, Double.pi / 2, accuracy: 1e-9)     // along +y
    }

    func testAClosedSubpathEndsAtItsStartAndTurnsIntoItsFirstSegment() {
        var path = Path()
        path.move(to: Point(0, 0))
        path.addLine(to: Point(10, 0))
        path.addLine(to: Point(10, 10))
        path.closeSubpath()
        let v = SVGMarkerVertex.vertices(of: path)
        XCTAssertEqual(v.count, 4)
        XCTAssertEqual(v[3].point, Point(0, 0))
        // In along the closing line (up-left, 225 degrees), out along the first (0 degrees).
        let expected = SVGMarkerVertex.bisector(Point(-10, -10), Point(10, 0))
        XCTAssertEqual(v[3].angle, expected, accuracy: 1e-9)
        XCTAssertNotEqual(v[3].angle, 0, accuracy: 1e-3)
    }

    func testCurveTangentsFallBackWhenAControlPointSitsOnTheEnd() {
        var path = Path()
        path.move(to: Point(0, 0))
        // The first control point on the start: the start tangent is towards control2.
        path.addCurve(to: Point(10, 10), control1: Point(0, 0), control2: Point(0, 10))
        let v = SVGMarkerVertex.vertices(of: path)
        XCTAssertEqual(v[0].angle, Double.pi / 2, accuracy: 1e-9)
        XCTAssertEqual(v[1].angle, 0, accuracy: 1e-9)
    }

    func testOrientAngles() {
        XCTAssertEqual(SVGRenderer.angleInDegrees("30"), 30)
        XCTAssertEqual(SVGRenderer.angleInDegrees("40grad")!, 36, accuracy: 1e-9)
        XCTAssertEqual(SVGRenderer.angleInDegrees("0.25turn"), 90)
        XCTAssertEqual(SVGRenderer.angleInDegrees("1.5rad")!, 1.5 * 180 / .pi, accuracy: 1e-9)
        XCTAssertNil(SVGRenderer.angleInDegrees("auto-ish"))
    }

    /// A 4x4 square marker at each vertex of a line, painted with the line's stroke through
    /// context-stroke: the vertices are covered, the middle of the line between them is not.
    func testMarkersStandAtTheVerticesInTheShapesPaint() throws {
        let body = """
        <marker id='m' markerUnits='userSpaceOnUse' markerWidth='4' markerHeight='4' refX='2' refY='2'>
          <rect width='4' height='4' fill='context-stroke'/>
        </marker>
        <path d='M 4 10 L 16 10' stroke='#0000ff' stroke-width='0.01' marker-start='url(#m)' marker-end='url(#m)'/>
        """
        let b = try S.render(S.svg(body))
        XCTAssertEqual(S.pixel(b, 4, 10), [0, 0, 255, 255])
        XCTAssertEqual(S.pixel(b, 15, 9), [0, 0, 255, 255])
        XCTAssertEqual(S.pixel(b, 10, 8), [0, 0, 0, 0])
        // Without a context element, context-fill paints nothing.
        let alone = try S.render(S.svg("<rect width='20' height='20' fill='context-fill'/>"))
        XCTAssertEqual(S.pixel(alone, 10, 10), [0, 0, 0, 0])
    }

    /// markerUnits="strokeWidth" (the default) scales the marker by the stroke's width.
    func testMarkerScalesWithTheStrokeWidth() throws {
        let body = """
        <marker id='m' markerWidth='2' markerHeight='2' refX='1' refY='1'><rect width='2' height='2' fill='red'/></marker>
        <path d='M 10 10 L 10.001 10' stroke='none' stroke-width='4' marker-start='url(#m)'/>
        """
        let b = try S.render(S.svg(body))
        // 2 x 2 units times a width of 4: an 8 x 8 square centred on (10, 10).
        XCTAssertEqual(S.pixel(b, 7, 7), [255, 0, 0, 255])
        XCTAssertEqual(S.pixel(b, 13, 13), [255, 0, 0, 255])
        XCTAssertEqual(S.pixel(b, 4, 4), [0, 0, 0, 0])
    }

    func testPaintOrderPutsTheStrokeUnderTheFill() throws {
        let shape = "<rect x='5' y='5' width='10' height='10' fill='#00ff00' stroke='#ff0000' stroke-width='4'"
        let normal = try S.render(S.svg(shape + "/>"))
        let strokeFirst = try S.render(S.svg(shape + " paint-order='stroke'/>"))
        // Just inside the edge the stroke covers the fill, unless it is painted first.
        XCTAssertEqual(S.pixel(normal, 6, 10), [255, 0, 0, 255])
        XCTAssertEqual(S.pixel(strokeFirst, 6, 10), [0, 255, 0, 255])
        XCTAssertEqual(SVGStyle.paintOrder("markers stroke"), [.markers, .stroke, .fill])
        XCTAssertNil(SVGStyle.paintOrder("fill fill"))
    }

    /// A marker whose content uses the marker again: the inner use of it is skipped, the outer
    /// drawn, and the document does not recurse.
    func testAMarkerInItsOwnContentIsSkipped() throws {
        let body = """
        <marker id='m' markerUnits='userSpaceOnUse' markerWidth='6' markerHeight='6' refX='3' refY='3'>
          <path d='M 0 3 L 6 3' stroke='red' stroke-width='6' marker-start='url(#m)'/>
        </marker>
        <path d='M 10 10 L 12 10' marker-start='url(#m)'/>
        """
        let b = try S.render(S.svg(body))
        XCTAssertEqual(S.pixel(b, 10, 10), [255, 0, 0, 255])
    }
}
