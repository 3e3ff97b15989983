import Foundation
import XCTest
@testable import PenumbraText
import PenumbraModel
import PenumbraCore

/// Shaping is HarfBuzz's: glyphs, clusters, advances and offsets equal what `hb-shape`
/// (libharfbuzz-bin) prints for the same font and text, in font units.
final class ShapingTests: XCTestCase {
    /// `hb-shape --no-glyph-names` output parsed into (glyph, cluster, advance, x offset, y offset).
    static func hbShape(_ font: String, _ text: String, features: String? = nil) throws -> [ShapedGlyph] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/hb-shape")
        process.arguments = ["--no-glyph-names", font, text] + (features.map { ["--features=\($0)"] } ?? [])
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let line = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return try line.dropFirst().dropLast().split(separator: "|").map { item in
            // gid=cluster[@x,y]+advance
            let parts = item.split(separator: "=")
            let glyph = try XCTUnwrap(UInt32(parts[0]))
            let rest = parts[1].split(separator: "+")
            let advance = try XCTUnwrap(Double(rest[1]))
            var clusterText = rest[0], ox = 0.0, oy = 0.0
            if let at = clusterText.firstIndex(of: "@") {
                let offsets = clusterText[clusterText.index(after: at)...].split(separator: ",")
                ox = Double(offsets[0]) ?? 0; oy = Double(offsets[1]) ?? 0
                clusterText = clusterText[..<at]
            }
            return ShapedGlyph(glyph: glyph, cluster: try XCTUnwrap(Int(clusterText)), advance: advance, offsetX: ox, offsetY: oy)
        }
    }

    func testShapingMatchesHBShape() throws {
        let face = try FontCache.shared.face(FontLocation(file: TextTestSupport.dejaVu, index: 0))
        for (text, rtl) in [("Hello, AV Wa fi", false), ("office", false), ("שלום", true), ("e\u{0301}", false)] {
            let ours = FontCache.shared.shape(face, Array(text.unicodeScalars), rtl: rtl, features: [])
            XCTAssertEqual(ours, try Self.hbShape(TextTestSupport.dejaVu, text), text)
        }
        let noLiga = FontCache.shared.shape(face, Array("office".unicodeScalars), rtl: false, features: [FontFeature(tag: "liga", value: 0)])
        XCTAssertEqual(noLiga, try Self.hbShape(TextTestSupport.dejaVu, "office", features: "-liga"))
    }

    func testALigatureIsOneGlyphAndNeverSplit() throws {
        let serif = try XCTUnwrap(FontMatcher.shared.match(family: "Noto Serif", weight: 400, italic: false))
        let face = try FontCache.shared.face(serif)
        let liga = FontCache.shared.shape(face, Array("fi".unicodeScalars), rtl: false, features: [])
        XCTAssertEqual(liga.count, 1, "Noto Serif ligates fi")
        let off = FontCache.shared.shape(face, Array("fi".unicodeScalars), rtl: false, features: [FontFeature(tag: "liga", value: 0)])
        XCTAssertEqual(off.count, 2)
        // Char-wrapping "fi" in a width narrower than the ligature keeps it on one line.
        let layout = try TextLayout(AttributedText("fi", font: Font(family: "Noto Serif", size: 40)), placement: .at(Point(0, 0), maxWidth: 1),
                                    style: TextStyle(lineBreakMode: .charWrap))
        XCTAssertEqual(layout.lines.map(\.text), ["fi"])
    }

    func testAdvancesScaleToTheSize() throws {
        let face = try FontCache.shared.face(FontLocation(file: TextTestSupport.dejaVu, index: 0))
        let glyphs = try Self.hbShape(TextTestSupport.dejaVu, "Hello")
        let expected = glyphs.reduce(0) { $0 + $1.advance } * 20 / face.metrics.unitsPerEm
        let layout = try TextTestSupport.layout("Hello", size: 20)
        XCTAssertEqual(layout.size.width, expected, accuracy: 1e-9)
        // kerning: extra points after each grapheme cluster, the last one's included.
        var run = AttributedText.Run("Hello", font: TextTestSupport.font(20))
        run.kerning = 1.5
        let kerned = try TextLayout(AttributedText(runs: [run]), placement: .at(Point(0, 0), maxWidth: nil))
        XCTAssertEqual(kerned.size.width, expected + 5 * 1.5, accuracy: 1e-9)
    }
}

/// A paragraph mixing scripts in one direction is shaped script by script: Devanagari after Latin
/// gets Devanagari shaping (conjuncts, reordered vowel signs), exactly as hb-shape gives it alone.
final class ScriptItemizationTests: XCTestCase {
    func testMixedScriptsAreShapedSeparately() throws {
        let text = Array("Hi नमस्ते".unicodeScalars)
        let scripts = ParagraphAnalysis.scripts(text)
        XCTAssertEqual(Set(scripts[0..<3]).count, 1, "the space takes the script before it")
        XCTAssertNotEqual(scripts[0], scripts[3])
        let layout = try TextTestSupport.layout("Hi नमस्ते", size: 20)
        let families = layout.lines[0].fontFamilies
        XCTAssertEqual(families.count, 2, "\(families)")
        let devanagari = try XCTUnwrap(FontMatcher.shared.fallback(for: "न", family: "DejaVu Sans", weight: 400, italic: false))
        let face = try FontCache.shared.face(devanagari)
        let fonts = [RunFont(face: try FontCache.shared.face(FontLocation(file: TextTestSupport.dejaVu, index: 0)), size: 20,
                             family: "DejaVu Sans", weight: 400, italic: false)]
        let runs = [TextRun(text: "Hi नमस्ते", font: FontRequest(selector: .family("DejaVu Sans", weight: 400, italic: false), size: 20))]
        let p = Itemizer(runs: runs, fonts: fonts, emoji: nil).paragraph(text, runs: [Int](repeating: 0, count: text.count), firstRun: 0)
        let segment = try XCTUnwrap(p.segments.last)
        XCTAssertTrue(segment.face === face)
        let expected = try ShapingTests.hbShape(devanagari.file, "नमस्ते")
        XCTAssertEqual(segment.glyphs.map(\.glyph), expected.map(\.glyph))
        XCTAssertEqual(segment.glyphs.map(\.advance), expected.map(\.advance))
    }
}
