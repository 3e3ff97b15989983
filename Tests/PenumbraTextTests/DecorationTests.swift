import Foundation
import XCTest
@testable import PenumbraText
import PenumbraModel
import PenumbraCore

/// Underline and strikethrough where SCENE_FORMAT.md puts them: the underline's top edge at
/// baseline - underlinePosition (the post table's value, not FreeType's, which is half a thickness
/// lower), the strikethrough's at baseline - yStrikeoutPosition (OS/2). The numbers are read from
/// the font files here, independently of FreeType, for a TrueType font and a CFF (OpenType
/// collection) font.
final class DecorationTests: XCTestCase {
    struct Decorations { var upem, underlinePosition, underlineThickness, strikeoutPosition, strikeoutSize: Double }

    /// head, post and OS/2 of face `index` of a font file, read directly.
    func decorations(_ path: String, index: Int = 0) throws -> Decorations {
        let d = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u16(_ o: Int) -> Int { Int(d[o]) << 8 | Int(d[o + 1]) }
        func s16(_ o: Int) -> Double { Double(Int16(bitPattern: UInt16(u16(o)))) }
        func u32(_ o: Int) -> Int { u16(o) << 16 | u16(o + 2) }
        let start = u32(0) == 0x7474_6366 ? u32(12 + 4 * index) : 0  // 'ttcf'
        var tables: [String: Int] = [:]
        for i in 0..<u16(start + 4) {
            let r = start + 12 + 16 * i
            tables[String(decoding: d[r..<(r + 4)], as: UTF8.self)] = u32(r + 8)
        }
        let head = try XCTUnwrap(tables["head"]), post = try XCTUnwrap(tables["post"]), os2 = try XCTUnwrap(tables["OS/2"])
        return Decorations(upem: Double(u16(head + 18)), underlinePosition: s16(post + 8), underlineThickness: s16(post + 10),
                           strikeoutPosition: s16(os2 + 28), strikeoutSize: s16(os2 + 26))
    }

    func testMetricsAreTheFontTablesOwn() throws {
        let cjk = try XCTUnwrap(FontMatcher.shared.match(family: "Noto Sans CJK JP", weight: 400, italic: false))
        XCTAssertTrue(cjk.file.hasSuffix(".ttc"), cjk.file)
        for (file, index) in [(TextTestSupport.dejaVu, 0), (cjk.file, cjk.index)] {
            let expected = try decorations(file, index: index)
            let face = try FontCache.shared.face(FontLocation(file: file, index: index))
            XCTAssertEqual(face.metrics.unitsPerEm, expected.upem, file)
            XCTAssertEqual(face.metrics.underlinePosition, expected.underlinePosition, file)
            XCTAssertEqual(face.metrics.underlineThickness, expected.underlineThickness, file)
            XCTAssertEqual(face.metrics.strikeoutPosition, expected.strikeoutPosition, file)
            XCTAssertEqual(face.metrics.strikeoutSize, expected.strikeoutSize, file)
        }
    }

    /// The rectangles the layout adds after a run's glyphs: y of each top edge and its height.
    func lastRects(_ layout: TextLayout, count: Int) throws -> [(top: Double, height: Double)] {
        guard case .fill(let path, _) = try XCTUnwrap(layout.drawing.pieces.first) else { throw RenderError("the layout's first piece is not a fill") }
        let tail = Array(path.elements.suffix(5 * count))
        var rects: [(Double, Double)] = []
        for i in 0..<count {
            let e = tail[(5 * i)..<(5 * i + 5)]
            guard case .move(let a) = e[e.startIndex], case .line(let c) = e[e.startIndex + 2], case .close = e[e.startIndex + 4] else {
                XCTFail("not a rectangle: \(e)"); return []
            }
            rects.append((a.y, c.y - a.y))
        }
        return rects
    }

    func testUnderlineAndStrikethroughSitAtTheContractsPositions() throws {
        let m = try decorations(TextTestSupport.dejaVu)
        let size = 40.0, k = size / m.upem
        let run = AttributedText.Run("Hamburg", font: TextTestSupport.font(size), underline: true, strikethrough: true)
        let layout = try TextLayout(AttributedText(runs: [run]), placement: .at(Point(5, 7), maxWidth: nil))
        let baseline = layout.lines[0].baseline
        let rects = try lastRects(layout, count: 2)
        XCTAssertEqual(rects[0].top, baseline - m.underlinePosition * k, accuracy: 1e-9, "underline's top edge")
        XCTAssertEqual(rects[0].height, m.underlineThickness * k, accuracy: 1e-9)
        XCTAssertEqual(rects[1].top, baseline - m.strikeoutPosition * k, accuracy: 1e-9, "strikethrough's top edge")
        XCTAssertEqual(rects[1].height, m.strikeoutSize * k, accuracy: 1e-9)
        // FreeType's underline_position would be half a thickness lower: not what is drawn.
        XCTAssertGreaterThan(abs(rects[0].top - (baseline - (m.underlinePosition - (m.underlineThickness / 2).rounded(.towardZero)) * k)), 0.1)
    }
}
