import XCTest
@testable import PenumbraText
import PenumbraModel
import PenumbraCore

/// CFF outlines (Noto Sans CJK) come out whole and wound as TrueType ones: FT_Outline_Reverse made
/// every contour that ends in a cubic invalid for FT_Outline_Decompose, and curved CFF glyphs
/// (こ, 안) were drawn as nothing.
final class CFFOutlineTests: XCTestCase {
    /// Twice the signed area of the polygon through each segment's end points, all contours summed.
    func signedArea(_ path: Path) -> Double {
        var area = 0.0, start = Point(0, 0), last = Point(0, 0)
        for element in path.elements {
            switch element {
            case .move(let p): start = p; last = p
            case .line(let p), .quad(_, let p), .cubic(_, _, let p), .conic(_, let p, _):
                area += last.x * p.y - p.x * last.y; last = p
            case .close: area += last.x * start.y - start.x * last.y; last = start
            }
        }
        return area
    }

    func outline(_ scalar: Unicode.Scalar, family: String) throws -> Path {
        let face = try FontCache.shared.face(try XCTUnwrap(FontMatcher.shared.match(family: family, weight: 400, italic: false)))
        return face.loadOutline(try XCTUnwrap(face.glyph(for: scalar), "\(family) has \(scalar)"))
    }

    func testCurvedCFFGlyphsHaveTheirOutlinesWoundAsTrueTypeOnes() throws {
        let trueType = signedArea(try outline("c", family: "DejaVu Sans"))
        for scalar: Unicode.Scalar in ["こ", "안", "の"] {
            let path = try outline(scalar, family: "Noto Sans CJK JP")
            XCTAssertTrue(path.elements.contains { if case .cubic = $0 { true } else { false } }, "\(scalar) has cubics")
            XCTAssertEqual(signedArea(path).sign, trueType.sign, "\(scalar) winds as TrueType glyphs do")
            XCTAssertGreaterThan(abs(signedArea(path)), 1000, "\(scalar) has an area")
        }
    }
}
