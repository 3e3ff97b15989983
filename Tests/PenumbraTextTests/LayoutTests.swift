import Foundation
import XCTest
@testable import PenumbraText
import PenumbraModel
import PenumbraCore

final class LayoutTests: XCTestCase {
    /// hhea (DejaVu Sans does not set USE_TYPO_METRICS) read from the file itself.
    func hhea(_ path: String) throws -> (upem: Double, ascender: Double, descender: Double, gap: Double, typo: Bool) {
        let d = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u16(_ o: Int) -> Int { Int(d[o]) << 8 | Int(d[o + 1]) }
        func s16(_ o: Int) -> Double { Double(Int16(bitPattern: UInt16(u16(o)))) }
        func u32(_ o: Int) -> Int { u16(o) << 16 | u16(o + 2) }
        var tables: [String: Int] = [:]
        for i in 0..<u16(4) {
            let r = 12 + 16 * i
            tables[String(decoding: d[r..<(r + 4)], as: UTF8.self)] = u32(r + 8)
        }
        let head = try XCTUnwrap(tables["head"]), hh = try XCTUnwrap(tables["hhea"]), os2 = try XCTUnwrap(tables["OS/2"])
        return (Double(u16(head + 18)), s16(hh + 4), s16(hh + 6), s16(hh + 8), u16(os2 + 62) & 0x80 != 0)
    }

    func testTheLineBoxRule() throws {
        let m = try hhea(TextTestSupport.dejaVu)
        XCTAssertFalse(m.typo)
        let k = 20 / m.upem
        let one = try TextTestSupport.layout("Hg", size: 20)
        XCTAssertEqual(one.size.height, (m.ascender - m.descender + m.gap) * k, accuracy: 1e-9)
        XCTAssertEqual(one.lines[0].baseline, m.ascender * k, accuracy: 1e-9)
        // Three paragraphs, lineSpacing 4, lineHeightMultiple 1.5: the extra height falls below the text.
        let three = try TextTestSupport.layout("a\nb\n", size: 20, style: TextStyle(lineSpacing: 4, lineHeightMultiple: 1.5))
        XCTAssertEqual(three.lines.count, 3, "a trailing newline makes an empty last line")
        let h = (m.ascender - m.descender + m.gap) * k * 1.5
        XCTAssertEqual(three.size.height, 3 * h + 2 * 4, accuracy: 1e-9)
        XCTAssertEqual(three.lines[1].baseline, h + 4 + m.ascender * k, accuracy: 1e-9)
    }

    func testWordWrapBreaksAtSpacesAndTrailingSpacesCountNoWidth() throws {
        let word = try TextTestSupport.layout("aaaa", size: 20).size.width
        let space = try TextTestSupport.layout("aaaa aaaa", size: 20).size.width - 2 * word
        let layout = try TextTestSupport.layout("aaaa aaaa aaaa", size: 20, placement: .at(Point(0, 0), maxWidth: 2 * word + space + 0.01))
        XCTAssertEqual(layout.lines.map(\.text), ["aaaa aaaa", "aaaa"])
        XCTAssertEqual(layout.lines[0].box.width, 2 * word + space, accuracy: 1e-9)
        // A line ending in spaces is as wide as its text.
        let trailing = try TextTestSupport.layout("aaaa     ", size: 20)
        XCTAssertEqual(trailing.size.width, word, accuracy: 1e-9)
    }

    func testALongWordBreaksBetweenClustersAndCharWrapBreaksAnywhere() throws {
        let layout = try TextTestSupport.layout("abcdefghijklmnop", size: 20, placement: .at(Point(0, 0), maxWidth: 50))
        XCTAssertGreaterThan(layout.lines.count, 2)
        XCTAssertEqual(layout.lines.map(\.text).joined(), "abcdefghijklmnop")
        for line in layout.lines { XCTAssertLessThanOrEqual(line.box.width, 50) }
        let chars = try TextTestSupport.layout("ab cdefgh", size: 20, placement: .at(Point(0, 0), maxWidth: 50),
                                               style: TextStyle(lineBreakMode: .charWrap))
        XCTAssertTrue(chars.lines[0].text.hasPrefix("ab c"), "charWrap fills the line past the space: \(chars.lines.map(\.text))")
        // Grapheme clusters stay whole: e + combining acute never splits.
        let accents = try TextTestSupport.layout(String(repeating: "e\u{0301}", count: 8), size: 20, placement: .at(Point(0, 0), maxWidth: 1),
                                                 style: TextStyle(lineBreakMode: .charWrap))
        XCTAssertEqual(accents.lines.count, 8)
        XCTAssertTrue(accents.lines.allSatisfy { $0.text == "e\u{0301}" })
    }

    func testTruncationModes() throws {
        let text = "The quick brown fox jumps over the lazy dog"
        let rect = Rect(x: 0, y: 0, width: 150, height: 100)
        func line(_ mode: LineBreakMode) throws -> TextLayout.Line {
            let l = try TextTestSupport.layout(text, size: 16, placement: .rect(rect), style: TextStyle(lineBreakMode: mode, numberOfLines: 1))
            XCTAssertEqual(l.lines.count, 1)
            XCTAssertLessThanOrEqual(l.lines[0].box.width, 150 + 1e-9, "\(mode)")
            return l.lines[0]
        }
        let tail = try line(.truncateTail)
        XCTAssertTrue(tail.text.hasSuffix("\u{2026}") && text.hasPrefix(String(tail.text.dropLast())), tail.text)
        XCTAssertFalse(tail.text.dropLast().hasSuffix(" "), "spaces beside the ellipsis are dropped")
        let head = try line(.truncateHead)
        XCTAssertTrue(head.text.hasPrefix("\u{2026}") && text.hasSuffix(String(head.text.dropFirst())), head.text)
        let middle = try line(.truncateMiddle)
        let parts = middle.text.split(separator: "\u{2026}", omittingEmptySubsequences: false)
        XCTAssertEqual(parts.count, 2, middle.text)
        XCTAssertTrue(text.hasPrefix(parts[0]) && text.hasSuffix(parts[1]), middle.text)
        let clip = try line(.clip)
        XCTAssertFalse(clip.text.contains("\u{2026}"))
        XCTAssertTrue(text.hasPrefix(clip.text))
        XCTAssertGreaterThan(clip.text.count, tail.text.count - 1)
        // A later paragraph left out still gets the ellipsis, though the first line fits.
        let later = try TextTestSupport.layout("Short\nsecond", size: 16, placement: .rect(rect),
                                               style: TextStyle(lineBreakMode: .truncateTail, numberOfLines: 1))
        XCTAssertEqual(later.lines.map(\.text), ["Short\u{2026}"])
        // The rect's height limits the lines too; wordWrap just drops the rest.
        let short = try TextTestSupport.layout(text, size: 16, placement: .rect(Rect(x: 0, y: 0, width: 150, height: 40)))
        XCTAssertEqual(short.lines.count, 2)
        XCTAssertFalse(short.lines[1].text.contains("\u{2026}"))
    }

    func testBidiOrderOfAMixedParagraph() throws {
        let ltr = try TextTestSupport.layout("abc אבג def", size: 16)
        XCTAssertEqual(ltr.lines[0].visualText, "abc גבא def")
        // First strong character right-to-left: the paragraph is RTL, right-aligned (natural) in a rect.
        let rtl = try TextTestSupport.layout("אבג abc דה", size: 16, placement: .rect(Rect(x: 0, y: 0, width: 300, height: 50)))
        XCTAssertEqual(rtl.lines[0].visualText, "הד abc גבא")
        XCTAssertEqual(rtl.lines[0].box.maxX, 300, accuracy: 1e-9)
    }

    func testFallbackToASecondFont() throws {
        // A character whose default presentation is emoji (U+231A WATCH) is drawn from the colour font.
        XCTAssertEqual(try TextTestSupport.layout("\u{231A}", size: 16).lines[0].fontFamilies, ["Noto Color Emoji"])
        // Noto Sans has no Hebrew; fontconfig's fallback order finds a font that does.
        let layout = try TextLayout(AttributedText("Hi שלום", font: Font(family: "Noto Sans", size: 16)), placement: .at(Point(0, 0), maxWidth: nil))
        let families = layout.lines[0].fontFamilies
        XCTAssertEqual(families.first, "Noto Sans")
        XCTAssertGreaterThanOrEqual(families.count, 2, "\(families)")
        XCTAssertTrue(layout.drawing.pieces.contains { if case .fill = $0 { true } else { false } })
        // Emoji go to the colour font.
        let emoji = try TextTestSupport.layout("a😀", size: 16)
        XCTAssertEqual(emoji.lines[0].fontFamilies, ["DejaVu Sans", "Noto Color Emoji"])
    }

    func testAlignmentAndVerticalAlignmentInARect() throws {
        let rect = Rect(x: 10, y: 20, width: 300, height: 100)
        let left = try TextTestSupport.layout("Hello", placement: .rect(rect))
        let center = try TextTestSupport.layout("Hello", placement: .rect(rect), style: TextStyle(alignment: .center, verticalAlignment: .center))
        let right = try TextTestSupport.layout("Hello", placement: .rect(rect), style: TextStyle(alignment: .right, verticalAlignment: .bottom))
        let w = left.lines[0].box.width, h = left.size.height
        XCTAssertEqual(left.lines[0].box.minX, 10, accuracy: 1e-9)
        XCTAssertEqual(center.lines[0].box.minX, 10 + (300 - w) / 2, accuracy: 1e-9)
        XCTAssertEqual(center.lines[0].box.minY, 20 + (100 - h) / 2, accuracy: 1e-9)
        XCTAssertEqual(right.lines[0].box.maxX, 310, accuracy: 1e-9)
        XCTAssertEqual(right.lines[0].box.maxY, 120, accuracy: 1e-9)
        let justified = try TextTestSupport.layout("aa bb cc dd ee ff gg hh ii jj kk ll mm nn", placement: .rect(rect),
                                                   style: TextStyle(alignment: .justified))
        XCTAssertGreaterThan(justified.lines.count, 1)
        XCTAssertEqual(justified.lines[0].box.width, 300, accuracy: 1e-9, "all but the last line fill the width")
        XCTAssertLessThan(justified.lines.last!.box.width, 300)
    }

    func testSizeWithFontConstrainedToSize() throws {
        let unbounded = try TextLayout.size(of: "Je me taille en fonction de mon contenu!", font: TextTestSupport.font(30),
                                            constrainedTo: Size(width: 300, height: .infinity))
        let lines = try TextTestSupport.layout("Je me taille en fonction de mon contenu!", size: 30, placement: .at(Point(0, 0), maxWidth: 300))
        XCTAssertEqual(unbounded, lines.size)
        XCTAssertLessThanOrEqual(unbounded.width, 300)
        XCTAssertEqual(lines.lines.count, 3)
    }
}
