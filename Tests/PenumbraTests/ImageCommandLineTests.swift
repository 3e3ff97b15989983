import Foundation
import XCTest
import Penumbra

/// `render` with output formats and `--time`, `animate` with each output, and image rejections
/// (exit 1, the file and place named).
final class ImageCommandLineTests: XCTestCase {
    var temp: URL!
    override func setUpWithError() throws {
        temp = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-img-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        // Two frames: a red and a blue square, shown 0.5 s each.
        for (i, colour) in ["#FF0000", "#0000FF"].enumerated() {
            let frame = "{\"format\": \"penumbra-scene\", \"version\": 1, \"size\": [8, 8], \"background\": \"\(colour)\", \"ops\": []}"
            try frame.write(to: temp.appendingPathComponent("f\(i + 1).json"), atomically: true, encoding: .utf8)
            XCTAssertEqual(try run(["render", temp.appendingPathComponent("f\(i + 1).json").path, "-o",
                                    temp.appendingPathComponent("f\(i + 1).png").path, "--backend", "cpu"]).status, 0)
        }
        let scene = "{\"format\": \"penumbra-scene\", \"version\": 1, \"size\": [8, 8], \"images\": {\"a\": {\"pattern\": \"f%d.png\", "
            + "\"duration\": 1}}, \"ops\": [{\"op\": \"drawImage\", \"image\": \"a\", \"at\": [0, 0]}]}"
        try scene.write(to: temp.appendingPathComponent("anim.json"), atomically: true, encoding: .utf8)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: temp) }

    func run(_ arguments: [String]) throws -> TestSupport.ToolRun { try TestSupport.runTool(arguments) }

    func path(_ name: String) -> String { temp.appendingPathComponent(name).path }
    func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: temp.appendingPathComponent(name))) }

    func testRenderChoosesTheFormatByExtensionOrFlag() throws {
        for (out, extra, magic) in [("o.jpg", [], [0xFF, 0xD8, 0xFF]), ("o.webp", ["--quality", "50"], Array("RIFF".utf8)),
                                    ("o.png", ["--format", "jpeg"], [0xFF, 0xD8, 0xFF]), ("o.img", ["--format", "png"], [0x89, 0x50])]
                                    as [(String, [String], [UInt8])] {
            let r = try run(["render", path("anim.json"), "-o", path(out), "--backend", "cpu"] + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(try bytes(out).starts(with: magic), out)
        }
        XCTAssertEqual(try run(["render", path("anim.json"), "-o", path("q.jpg"), "--quality", "0"]).status, 2)
        // A name that says no format (and no --format) is a usage error listing the formats; nothing is written.
        for out in ["x.gif", "x.bmp", "x"] {
            let r = try run(["render", path("anim.json"), "-o", path(out), "--backend", "cpu"])
            XCTAssertEqual(r.status, 2, "\(out): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(".png, .jpg, .jpeg or .webp"), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path(out)), out)
        }
    }

    func testTimeChoosesTheFrame() throws {
        for (time, expected) in [("0", SIMD4<UInt8>(255, 0, 0, 255)), ("0.5", SIMD4(0, 0, 255, 255)), ("-0.25", SIMD4(0, 0, 255, 255))] {
            XCTAssertEqual(try run(["render", path("anim.json"), "-o", path("t.png"), "--backend", "cpu", "--time=\(time)"]).status, 0)
            XCTAssertEqual(try PNGCodec.decode(bytes("t.png"))[4, 4], expected, "t = \(time)")
        }
    }

    func testAnimateWritesAPNGWebPAndFolders() throws {
        XCTAssertEqual(try run(["animate", path("anim.json"), "-o", path("a.png"), "--fps", "4", "--backend", "cpu"]).status, 0)
        let apng = try bytes("a.png")
        // acTL: 4 frames (1 s at 4 fps), looping; the default image is frame 0 (red).
        let acTL = try XCTUnwrap((0..<(apng.count - 12)).first { Array(apng[$0..<($0 + 4)]) == Array("acTL".utf8) })
        XCTAssertEqual(Array(apng[(acTL + 4)..<(acTL + 12)]), [0, 0, 0, 4, 0, 0, 0, 0])
        XCTAssertEqual(try PNGCodec.decode(apng)[0, 0], SIMD4(255, 0, 0, 255))
        XCTAssertEqual(try run(["animate", path("anim.json"), "-o", path("a.webp"), "--fps", "2", "--duration", "2", "--backend", "cpu", "--lossless"]).status, 0)
        let webp = try AnimatedImage(data: bytes("a.webp"))
        XCTAssertEqual(webp.frames.count, 4)
        XCTAssertEqual(webp.frames.map { $0.bitmap[3, 3] }, [SIMD4(255, 0, 0, 255), SIMD4(0, 0, 255, 255), SIMD4(255, 0, 0, 255), SIMD4(0, 0, 255, 255)])
        XCTAssertEqual(webp.duration, 2, accuracy: 1e-9)
        XCTAssertEqual(try run(["animate", path("anim.json"), "-o", path("frames"), "--fps", "3", "--backend", "cpu"]).status, 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: path("frames")).sorted()
        XCTAssertEqual(files, ["frame0001.png", "frame0002.png", "frame0003.png"])
        XCTAssertEqual(try PNGCodec.decode(bytes("frames/frame0003.png"))[0, 0], SIMD4(0, 0, 255, 255), "t = 2/3 s")
    }

    func testImageRejectionsExitOneNamingThePlace() throws {
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16]).write(to: temp.appendingPathComponent("cut.jpg"))
        let bad = "{\"format\": \"penumbra-scene\", \"version\": 1, \"size\": [8, 8], \"images\": {\"cut\": \"cut.jpg\", "
            + "\"r\": {\"named\": \"nothing\"}}, \"ops\": []}"
        try bad.write(to: temp.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let r = try run(["render", path("bad.json"), "-o", path("bad.png"), "--backend", "cpu"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("bad.json: images.cut: JPEG: "), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("bad.png")))
        let budget = try run(["render", path("anim.json"), "-o", path("b.png"), "--backend", "cpu", "--max-image-pixels", "100"])
        XCTAssertEqual(budget.status, 1)
        XCTAssertTrue(budget.stderr.contains("images.a.frames") || budget.stderr.contains("images.a"), budget.stderr)
        XCTAssertTrue(budget.stderr.contains("--max-image-pixels"), budget.stderr)
    }
}
