import Foundation
import XCTest
import Penumbra

/// Text through the `penumbra` tool: a bad font or too much text is exit 1 naming the place, and
/// a scene with text renders.
final class TextCommandLineTests: XCTestCase {
    func run(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = arguments
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
}
