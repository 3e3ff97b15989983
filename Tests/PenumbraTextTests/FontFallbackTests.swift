import Dispatch
import Foundation
import XCTest
@testable import PenumbraText
import PenumbraModel
import PenumbraCore
import PenumbraCPU
import Synchronization

/// Fallback as SCENE_FORMAT.md says (CJK through fontconfig, deterministically), and the warnings
/// of what no installed font has: characters, and families (drawn in a generic family).
final class FontFallbackTests: XCTestCase {
    /// Pixels with any coverage in a render of `scene`.
    func inked(_ scene: Scene) throws -> Int {
        let bitmap = try CPURenderer().render(scene.displayList())
        var count = 0
        for y in 0..<bitmap.height { for x in 0..<bitmap.width where bitmap[x, y][3] > 0 { count += 1 } }
        return count
    }

    func testJapaneseKoreanAndChineseDrawRealGlyphsWithoutWarnings() throws {
        for text in ["こんにちは世界", "안녕하세요", "你好，世界"] {
            let scene = try TextTestSupport.decode(ops: #"{"op": "drawText", "text": "\#(text)", "font": {"family": "DejaVu Sans", "size": 24}, "at": [4, 4]}"#,
                                                   size: "[260, 40]")
            XCTAssertEqual(scene.warnings, [], text)
            XCTAssertGreaterThan(try inked(scene), 300, text)
            let layout = try TextLayout(AttributedText(text, font: TextTestSupport.font(24)), placement: .at(Point(0, 0), maxWidth: nil))
            XCTAssertEqual(layout.warnings, [], text)
            XCTAssertTrue(layout.lines[0].fontFamilies.contains("Noto Sans CJK JP"), "\(text): \(layout.lines[0].fontFamilies)")
        }
    }

    func testHanFallsBackToNotoSansCJKJP() throws {
        // Named explicitly: fontconfig's locale would otherwise pick the face (TextCommandLineTests
        // renders under a Chinese locale and compares).
        let location = try XCTUnwrap(FontMatcher.shared.fallback(for: "世", family: "DejaVu Sans", weight: 400, italic: false))
        XCTAssertEqual(location.file, "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
        XCTAssertEqual(try FontCache.shared.face(location).familyName, "Noto Sans CJK JP")
    }

    func testCharactersNoFontHasAreDrawnAndWarnedAbout() throws {
        let scene = try TextTestSupport.decode(ops: ##"{"op": "setFillColor", "color": "#000000"}, {"op": "drawText", "text": "A\uE000B\uDBFF\uDFFD", "font": {"family": "DejaVu Sans", "size": 24}, "at": [4, 4]}"##,
                                               size: "[200, 40]")
        let expected = [RenderWarning(location: "ops[1]", message: "no installed font has U+E000, U+10FFFD (drawn as missing-glyph boxes)")]
        XCTAssertEqual(scene.warnings, expected)
        let list = try scene.displayList()
        XCTAssertEqual(list.warnings, expected)
        XCTAssertGreaterThan(try inked(scene), 100, "the text is still drawn")
        XCTAssertEqual("\(expected[0])", "ops[1]: no installed font has U+E000, U+10FFFD (drawn as missing-glyph boxes)")
    }

    func testAPrintableMissingCharacterIsQuotedAndLongListsAreBounded() throws {
        let layout = try TextLayout(AttributedText("\u{0870}", font: TextTestSupport.font()), placement: .at(Point(0, 0), maxWidth: nil))
        // U+0870 (Arabic letter alef with attached fatha, Unicode 14) is a letter; no installed font has it.
        XCTAssertEqual(layout.warnings, ["no installed font has U+0870 '\u{0870}' (drawn as missing-glyph boxes)"])
        let many = String(String.UnicodeScalarView((0xE000..<0xE000 + 20).map { Unicode.Scalar($0)! }))
        let long = try TextLayout(AttributedText(many, font: TextTestSupport.font()), placement: .at(Point(0, 0), maxWidth: nil))
        XCTAssertEqual(long.warnings, ["no installed font has U+E000, U+E001, U+E002, U+E003, U+E004, U+E005, U+E006, U+E007"
                                       + " and 12 more characters (drawn as missing-glyph boxes)"])
    }

    func testACachedShapingStillWarns() throws {
        let text = AttributedText("cache \u{E123}", font: TextTestSupport.font())
        let first = try TextLayout(text, placement: .at(Point(0, 0), maxWidth: nil))
        let second = try TextLayout(text, placement: .at(Point(0, 0), maxWidth: nil))  // the shaping comes from the cache
        XCTAssertEqual(first.warnings, ["no installed font has U+E123 (drawn as missing-glyph boxes)"])
        XCTAssertEqual(second.warnings, first.warnings)
        XCTAssertEqual(second.drawing, first.drawing)
    }

    func testWarningsBelongToTheirOwnRenderAcrossThreads() throws {
        let bad = #"{"op": "drawText", "text": "x\uE000", "at": [0, 0]}"#, good = #"{"op": "drawText", "text": "x", "at": [0, 0]}"#
        let results = Mutex<[Int: [RenderWarning]]>([:])
        DispatchQueue.concurrentPerform(iterations: 32) { i in
            let scene = try? TextTestSupport.decode(ops: i % 2 == 0 ? bad : good)
            results.withLock { $0[i] = scene?.warnings ?? [RenderWarning(location: "", message: "failed")] }
        }
        let all = results.withLock { $0 }
        for i in 0..<32 {
            XCTAssertEqual(all[i]?.count, i % 2 == 0 ? 1 : 0, "render \(i): \(all[i] ?? [])")
        }
    }

    func testAnUnknownFamilyIsDrawnInTheGenericFamilyItsNameSuggests() throws {
        for (name, generic) in [("Fira Code", "monospace"), ("Courier New", "monospace"), ("No Such Mono", "monospace"),
                                ("Times New Roman", "serif"), ("Georgia", "serif"), ("No Such Serif", "serif"),
                                ("No Such Sans Serif", "sans-serif"), ("Helvetica Neue", "sans-serif"), ("Zapfino", "sans-serif")] {
            XCTAssertEqual(FontMatcher.genericFamily(suggestedBy: name), generic, name)
        }
        for (name, generic) in [("No Such Mono", "monospace"), ("No Such Serif", "serif"), ("No Such Family", "sans-serif")] {
            XCTAssertFalse(FontMatcher.shared.familyExists(name))
            let asked = try TextLayout(AttributedText("Quartz", font: Font(family: name, size: 20)), placement: .at(Point(0, 0), maxWidth: nil))
            let plain = try TextLayout(AttributedText("Quartz", font: Font(family: generic, size: 20)), placement: .at(Point(0, 0), maxWidth: nil))
            XCTAssertEqual(asked.lines[0].fontFamilies, plain.lines[0].fontFamilies, name)
            XCTAssertEqual(asked.drawing.pieces, plain.drawing.pieces, name)
            XCTAssertEqual(asked.warnings, ["no installed font family \"\(name)\"; drawn in \(generic) instead"])
        }
        let scene = try TextTestSupport.decode(ops: #"{"op": "drawText", "runs": [{"text": "a", "font": {"family": "No Such Mono"}}, {"text": "b", "font": {"family": "No Such Mono"}}], "at": [0, 0]}"#)
        XCTAssertEqual(scene.warnings, [RenderWarning(location: "ops[0]", message: "no installed font family \"No Such Mono\"; drawn in monospace instead")],
                       "one warning per family and op")
    }
}
