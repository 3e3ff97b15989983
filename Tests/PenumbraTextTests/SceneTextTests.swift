import Foundation
import XCTest
@testable import PenumbraText
import Penumbra
import PenumbraCPU

/// drawText and fonts in scenes: bad input rejected with the place named, colour emoji, and the
/// measured box bounding the drawn pixels.
final class SceneTextTests: XCTestCase {
    func assertRejected(_ ops: String, fonts: String? = nil, folder: String = "/nonexistent", limits: ResourceLimits = .default,
                        at location: String, containing text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try TextTestSupport.decode(ops: ops, fonts: fonts, folder: folder, limits: limits), file: file, line: line) { error in
            guard let e = error as? SceneError else { return XCTFail("not a SceneError: \(error)", file: file, line: line) }
            XCTAssertEqual(e.location, location, "\(e)", file: file, line: line)
            XCTAssertTrue(e.message.contains(text), "\(e)", file: file, line: line)
        }
    }

    func testBadFontFilesAreRejectedWithTheirPlace() throws {
        let folder = try TextTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TextTestSupport.dejaVu)))
        try Data(good.prefix(good.count / 2)).write(to: folder.appendingPathComponent("truncated.ttf"))
        var corrupted = good
        for i in 12..<min(corrupted.count, 12 + 16 * 20) { corrupted[i] = 0xFF }  // the table directory
        try Data(corrupted).write(to: folder.appendingPathComponent("corrupted.ttf"))
        try Data().write(to: folder.appendingPathComponent("empty.ttf"))
        try Data("not a font at all, just some text".utf8).write(to: folder.appendingPathComponent("text.ttf"))
        try Data(good).write(to: folder.appendingPathComponent("good.ttf"))
        let ok = #"{"op": "drawText", "text": "x", "font": {"name": "f"}, "at": [0, 0]}"#
        for (file, message) in [("truncated.ttf", "truncated"), ("corrupted.ttf", "truncated"), ("empty.ttf", "empty"),
                                ("text.ttf", "not a font")] {
            assertRejected(ok, fonts: #"{"f": "\#(file)"}"#, folder: folder.path, at: "fonts.f", containing: message)
        }
        assertRejected(ok, fonts: #"{"f": {"path": "good.ttf", "index": 1}}"#, folder: folder.path, at: "fonts.f", containing: "out of range")
        assertRejected(ok, fonts: #"{"f": "../good.ttf"}"#, folder: folder.path, at: "fonts.f", containing: "outside")
        assertRejected(ok, fonts: #"{"f": "data:font/ttf;base64,AAEAAA=="}"#, at: "fonts.f", containing: "table directory")
        XCTAssertNoThrow(try TextTestSupport.decode(ops: ok, fonts: #"{"f": "good.ttf"}"#, folder: folder.path))
        let base64 = Data(good).base64EncodedString()
        XCTAssertNoThrow(try TextTestSupport.decode(ops: ok, fonts: #"{"f": "data:font/ttf;base64,\#(base64)"}"#))
    }

    func testBadTextOpsAreRejectedWithTheirPlace() {
        // An unknown family is drawn in a generic family with a warning (FontFallbackTests); an empty one is an error.
        assertRejected(#"{"op": "drawText", "text": "x", "font": {"family": " "}, "at": [0, 0]}"#,
                       at: "ops[0].font.family", containing: "cannot be empty")
        assertRejected(#"{"op": "drawText", "runs": [{"text": "x", "font": {"family": "A\nB"}}], "at": [0, 0]}"#,
                       at: "ops[0].runs[0].font.family", containing: "control characters")
        assertRejected(#"{"op": "drawText", "runs": [{"text": "a"}, {"text": "b", "features": {"lgia": true}}], "at": [0, 0]}"#,
                       at: "ops[0].runs[1].features.lgia", containing: "unknown OpenType feature tag")
        assertRejected(#"{"op": "drawText", "text": "x", "font": {"name": "nope"}, "at": [0, 0]}"#,
                       at: "ops[0].font.name", containing: "no font named")
        assertRejected(#"{"op": "drawText", "text": "x", "font": {"weight": 950}, "at": [0, 0]}"#,
                       at: "ops[0].font.weight", containing: "100...900")
        assertRejected(#"{"op": "drawText", "text": "x"}"#, at: "ops[0]", containing: "\"at\" or \"rect\"")
        assertRejected(#"{"op": "drawText", "text": "x", "at": [0, 0], "lineBreakMode": "wrap"}"#,
                       at: "ops[0].lineBreakMode", containing: "truncateTail")
        assertRejected(#"{"op": "drawText", "text": "x", "at": [0, 0], "colour": "red"}"#, at: "ops[0]", containing: "unknown key")
        assertRejected(#"{"op": "drawText", "text": "0123456789A", "at": [0, 0]}"#, limits: ResourceLimits(maxTextCharacters: 10),
                       at: "ops[0]", containing: "over the limit of 10")
        XCTAssertThrowsError(try Scene.decode(#"{"format": "penumbra-scene", "version": 1, "size": [10, 10], "ops": [{"op": "drawText", "text": "x", "at": [0, 0]}]}"#,
                                              baseDirectory: "/nonexistent")) { error in
            XCTAssertTrue("\(error)".contains("text engine"), "\(error)")
        }
    }

    func testAnEmojiIsDrawnInColour() throws {
        let scene = try TextTestSupport.decode(ops: #"{"op": "drawText", "text": "😀", "font": {"family": "DejaVu Sans", "size": 40}, "at": [10, 10]}"#)
        let bitmap = try CPURenderer().render(scene.displayList())
        var colourful = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap[x, y]
                if p[3] > 200, Int(p[0]) - Int(p[2]) > 100 { colourful += 1 }  // the yellow face
            }
        }
        XCTAssertGreaterThan(colourful, 200)
        guard case .drawText(let op) = scene.ops[0] else { return XCTFail() }
        XCTAssertTrue(op.drawing.pieces.contains { if case .image = $0 { true } else { false } })
    }

    func testTheMeasuredBoxBoundsTheDrawnPixels() throws {
        for (text, extra) in [("Hello, world! gjpqy ÉÀ", ""), ("Wrapped text that runs over several lines of a note", #", "maxWidth": 120"#),
                              ("שלום abc 😀", "")] {
            let scene = try TextTestSupport.decode(ops: #"{"op": "drawText", "text": "\#(text)", "font": {"family": "DejaVu Sans", "size": 18}, "at": [13.3, 17.6]\#(extra)}"#,
                                                   size: "[320, 200]")
            guard case .drawText(let op) = scene.ops[0] else { return XCTFail() }
            let box = op.drawing.box
            let bitmap = try CPURenderer().render(scene.displayList())
            var inked = 0
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width where bitmap[x, y][3] > 0 {
                    inked += 1
                    XCTAssertTrue(Double(x) + 1 > box.minX - 1 && Double(x) < box.maxX + 1 && Double(y) + 1 > box.minY && Double(y) < box.maxY,
                                  "\(text): pixel (\(x), \(y)) outside the box \(box)")
                }
            }
            XCTAssertGreaterThan(inked, 100)
        }
    }

    func testTheFrameGrowsAroundTheTextByThePadding() throws {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples")
        let scene = try Scene.decode([UInt8](try Data(contentsOf: examples.appendingPathComponent("note.json"))),
                                     baseDirectory: examples.path, environment: .standard)
        guard case .drawText(let op) = scene.ops[0], let frame = op.frame else { return XCTFail("the note has a frame") }
        XCTAssertEqual(frame.rect.minX, 10); XCTAssertEqual(frame.rect.minY, 10)
        XCTAssertEqual(frame.rect.width, op.drawing.box.width + 24, accuracy: 1e-9)
        XCTAssertEqual(frame.rect.height, op.drawing.box.height + 49, accuracy: 1e-9)
        XCTAssertEqual(op.drawing.box.minX, 22, accuracy: 1e-9)
        // The Swift API's TextNote measures the same.
        let note = try TextNote(AttributedText("Hi!", font: Font(family: "DejaVu Sans", size: 25)), chrome: frame.image,
                                padding: EdgeInsets(top: 37, left: 12, bottom: 12, right: 12), maxWidth: 300)
        XCTAssertEqual(note.size, frame.rect.size)
    }
}

/// A drawText with an empty list of runs killed the server (an index into no fonts): it is empty
/// text now, which draws nothing, on the CPU and through the Swift API's layout an error.
final class EmptyRunsTests: XCTestCase {
    func testEmptyRunsDrawNothing() throws {
        let scene = try TextTestSupport.decode(ops: #"{"op":"drawText","runs":[],"at":[0,0],"font":{"family":"DejaVu Sans","size":12}}"#)
        let bitmap = try CPURenderer().render(scene.displayList())
        XCTAssertTrue(bitmap.pixels.allSatisfy { $0 == 0 }, "empty runs drew something")
        let bare = try TextTestSupport.decode(ops: #"{"op":"drawText","runs":[],"at":[0,0]}"#)
        XCTAssertNoThrow(try bare.displayList())
    }
}
