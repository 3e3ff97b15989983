import Foundation
import XCTest
import Penumbra

/// Text through the `penumbra` tool: a bad font or too much text is exit 1 naming the place, a
/// scene with text renders, what no installed font has is a warning on stderr with exit 0, and
/// CJK text draws the same glyphs whatever the locale.
final class TextCommandLineTests: XCTestCase {
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let err = Pipe()
        process.standardError = err; process.standardOutput = Pipe()
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func testBadFontsAndLongTextExitOneAndHelloRenders() throws {
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-text-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temp) }
        try Data("garbage".utf8).write(to: temp.appendingPathComponent("bad.ttf"))
        let scene = temp.appendingPathComponent("s.json")
        try #"{"format": "penumbra-scene", "version": 1, "size": [50, 20], "fonts": {"f": "bad.ttf"}, "ops": [{"op": "drawText", "text": "x", "font": {"name": "f"}, "at": [0, 0]}]}"#
            .write(to: scene, atomically: true, encoding: .utf8)
        let out = temp.appendingPathComponent("o.png").path
        let bad = try run(["render", scene.path, "-o", out, "--backend", "cpu"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("fonts.f:"), bad.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))

        let hello = TestSupport.examples.appendingPathComponent("hello.json").path
        let long = try run(["render", hello, "-o", out, "--backend", "cpu", "--max-text", "5"])
        XCTAssertEqual(long.status, 1)
        XCTAssertTrue(long.stderr.contains("ops[0]: 13 characters of text, over the limit of 5"), long.stderr)
        let ok = try run(["render", hello, "-o", out, "--backend", "cpu"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        let bitmap = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
        XCTAssertEqual(bitmap.width, 400)
        XCTAssertTrue(bitmap.pixels.contains(0), "the text is drawn in black on white")
    }

    func temporaryFolder() throws -> URL {
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-text-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        return temp
    }

    func testWhatNoFontHasIsAWarningOnStderrAndTheRenderSucceeds() throws {
        let temp = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: temp) }
        let scene = temp.appendingPathComponent("s.json")
        try ##"{"format": "penumbra-scene", "version": 1, "size": [80, 30], "background": "#FFFFFF", "ops": [{"op": "drawText", "text": "x\uE000", "at": [0, 0]}, {"op": "drawText", "text": "y", "font": {"family": "No Such Mono"}, "at": [40, 0]}]}"##
            .write(to: scene, atomically: true, encoding: .utf8)
        let out = temp.appendingPathComponent("o.png").path
        let result = try run(["render", scene.path, "-o", out, "--backend", "cpu"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("penumbra: warning: \(scene.path): ops[0]: no installed font has U+E000 (drawn as missing-glyph boxes)\n"),
                      result.stderr)
        XCTAssertTrue(result.stderr.contains("penumbra: warning: \(scene.path): ops[1]: no installed font family \"No Such Mono\"; drawn in monospace instead\n"),
                      result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
        // A scene without such text says nothing.
        let hello = try run(["render", TestSupport.examples.appendingPathComponent("hello.json").path, "-o", out, "--backend", "cpu"])
        XCTAssertFalse(hello.stderr.contains("warning"), hello.stderr)
    }

    func testCJKTextDrawsTheSameGlyphsUnderAChineseLocale() throws {
        // 直 and 骨 have different forms in Japanese and Simplified Chinese; fontconfig would take the
        // locale's face unless the matcher names a language.
        let temp = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: temp) }
        let scene = temp.appendingPathComponent("s.json")
        try ##"{"format": "penumbra-scene", "version": 1, "size": [120, 40], "background": "#FFFFFF", "ops": [{"op": "drawText", "text": "直骨 한국", "font": {"size": 24}, "at": [2, 2]}]}"##
            .write(to: scene, atomically: true, encoding: .utf8)
        let plain = temp.appendingPathComponent("plain.png").path, chinese = temp.appendingPathComponent("zh.png").path
        let a = try run(["render", scene.path, "-o", plain, "--backend", "cpu"])
        let b = try run(["render", scene.path, "-o", chinese, "--backend", "cpu"], environment: ["LANG": "zh_CN.UTF-8", "FC_LANG": "zh-cn"])
        XCTAssertEqual(a.status, 0, a.stderr); XCTAssertEqual(b.status, 0, b.stderr)
        XCTAssertFalse(a.stderr.contains("warning"), a.stderr)
        let first = try Data(contentsOf: URL(fileURLWithPath: plain)), second = try Data(contentsOf: URL(fileURLWithPath: chinese))
        XCTAssertTrue(first == second, "the render changed with the locale")
    }
}
