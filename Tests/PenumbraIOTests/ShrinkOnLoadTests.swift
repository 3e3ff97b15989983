// Shrink-on-load (docs/images.md): a JPEG that every draw samples from mip
// level k >= 1 is decoded by libjpeg's DCT scaling at 1/2^min(k, 3). The
// scaled pixels are libjpeg-turbo's own (djpeg -scale 1/N, made by
// make_shrink_fixtures.py); the level is the one each draw would pick; any
// use the scene cannot bound decodes the whole image; the budget counts the
// scaled pixels; bad files fail as they did.
import Foundation
import XCTest
import Penumbra
import PenumbraModel
import PenumbraCore

final class ShrinkOnLoadTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-shrink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["shrink.jpg", "shrink-progressive.jpg", "orient6.jpg", "baseline.jpg"] {
            try Data(try Fixtures.bytes(name)).write(to: folder.appendingPathComponent(name))
        }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// A 40 x 30 scene (at `scale`) declaring `images` and running `ops`.
    func scene(_ images: String, _ ops: String, scale: Double = 1, limits: ResourceLimits = .default) throws -> Scene {
        let json = "{\"format\": \"penumbra-scene\", \"version\": 1, \"size\": [40, 30], \"scale\": \(scale), "
            + "\"images\": \(images), \"ops\": \(ops)}"
        return try Scene.decode(json, baseDirectory: folder.path, limits: limits, environment: .standard)
    }

    /// The 64 x 48 `shrink.jpg` as image "p", drawn by `ops`: the width of the bitmap it was loaded as.
    func loadedWidth(_ ops: String, images: String = "{\"p\": \"shrink.jpg\"}", scale: Double = 1) throws -> Int {
        try XCTUnwrap(try scene(images, ops, scale: scale).images["p"]).bitmap.width
    }

    func draw(_ w: Double, _ h: Double, extra: String = "") -> String {
        "{\"op\": \"drawImage\", \"image\": \"p\", \"rect\": [0, 0, \(w), \(h)]\(extra)}"
    }

    func assertSame(_ a: Bitmap, _ b: Bitmap, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.width, b.width, message, file: file, line: line)
        XCTAssertEqual(a.height, b.height, message, file: file, line: line)
        XCTAssertEqual(Fixtures.maxDifference(a, b), 0, message, file: file, line: line)
    }

    // MARK: The scaled pixels are libjpeg's

    func testScaledDecodeEqualsDjpegScale() throws {
        for name in ["shrink.jpg", "shrink-progressive.jpg"] {
            for (n, fraction) in [(2, 0.5), (4, 0.25), (8, 0.125)] {
                let s = try scene("{\"p\": \"\(name)\"}", "[\(draw(64 * fraction, 48 * fraction))]")
                let image = try XCTUnwrap(s.images["p"])
                assertSame(image.bitmap, try Fixtures.expected("\(name).\(n)"), "\(name) at 1/\(n)")
                XCTAssertEqual(image.scale, 1 / Double(n), "\(name): the scale keeps its size in points")
                XCTAssertEqual(image.size, Size(width: 64, height: 48))
                XCTAssertEqual(s.decodedImagePixels, 64 * 48 / (n * n), "the budget counts the scaled pixels")
            }
            // Drawn at more than half its size: the full decode, djpeg's default output.
            let full = try scene("{\"p\": \"\(name)\"}", "[\(draw(40, 30))]")
            assertSame(try XCTUnwrap(full.images["p"]).bitmap, try Fixtures.expected("\(name).1"), "\(name) whole")
        }
    }

    func testShrinkingCodecDirectly() throws {
        let data = try Fixtures.bytes("shrink.jpg")
        for n in [2, 4, 8] {
            let decoded = try XCTUnwrap(try ImageCodecs.standard.decodeShrunk(data, denominator: n, maxPixels: 1 << 20, orientation: nil))
            assertSame(decoded.frames[0], try Fixtures.expected("shrink.jpg.\(n)"), "1/\(n)")
        }
        // The budget is the scaled size's: 16 x 12 fits 192 pixels.
        XCTAssertNoThrow(try ImageCodecs.standard.decodeShrunk(data, denominator: 4, maxPixels: 192, orientation: nil))
        XCTAssertThrowsError(try ImageCodecs.standard.decodeShrunk(data, denominator: 4, maxPixels: 191, orientation: nil))
        // PNG cannot shrink: nil, the caller decodes it whole.
        let png = try Fixtures.bytes("orient1.png")
        XCTAssertNil(try ImageCodecs.standard.decodeShrunk(png, denominator: 2, maxPixels: 1 << 20, orientation: nil))
    }

    // MARK: The level

    func testLevelFollowsTheDrawnScale() throws {
        XCTAssertEqual(try loadedWidth("[\(draw(64 * 0.6, 48 * 0.6))]"), 64, "0.6x: level 0, the whole image")
        XCTAssertEqual(try loadedWidth("[\(draw(64 * 0.5, 48 * 0.5))]"), 32, "exactly half: level 1")
        XCTAssertEqual(try loadedWidth("[\(draw(64 * 0.3, 48 * 0.3))]"), 32, "0.3x: level 1, 1/2")
        XCTAssertEqual(try loadedWidth("[\(draw(64 * 0.2, 48 * 0.2))]"), 16, "0.2x: level 2, 1/4")
        XCTAssertEqual(try loadedWidth("[\(draw(64 * 0.1, 48 * 0.1))]"), 8, "0.1x: level 3, 1/8")
        XCTAssertEqual(try loadedWidth("[\(draw(64 * 0.01, 48 * 0.01))]"), 8, "0.01x: level 6, still 1/8")
        // Only the area counts (the determinant): 0.6 x 0.2 is level 1 (D = 8.3), 0.6 x 0.1 level 2 (D = 16.7).
        XCTAssertEqual(try loadedWidth("[\(draw(64 * 0.6, 48 * 0.2))]"), 32)
        XCTAssertEqual(try loadedWidth("[\(draw(64 * 0.6, 48 * 0.1))]"), 16)
    }

    func testLevelFollowsTheCTMAndTheCanvasScale() throws {
        let rotated = "[{\"op\": \"rotate\", \"angle\": 0.7}, {\"op\": \"scale\", \"x\": 0.2, \"y\": 0.2}, \(draw(64, 48))]"
        XCTAssertEqual(try loadedWidth(rotated), 16, "rotated and drawn at 0.2x: 1/4")
        let saved = "[{\"op\": \"save\"}, {\"op\": \"scale\", \"x\": 0.1, \"y\": 0.1}, {\"op\": \"restore\"}, \(draw(64 * 0.3, 48 * 0.3))]"
        XCTAssertEqual(try loadedWidth(saved), 32, "the scale was restored before the draw")
        let layered = "[{\"op\": \"beginLayer\"}, {\"op\": \"save\"}, {\"op\": \"scale\", \"x\": 2, \"y\": 2}, {\"op\": \"endLayer\"}, "
            + "\(draw(64 * 0.3, 48 * 0.3))]"
        XCTAssertEqual(try loadedWidth(layered), 32, "endLayer restores the state of beginLayer")
        XCTAssertEqual(try loadedWidth("[\(draw(64 * 0.1, 48 * 0.1))]", scale: 2), 16, "0.1x on a scale-2 canvas is 0.2x")
        let concat = "[{\"op\": \"concat\", \"matrix\": [0, 0.25, -0.25, 0, 30, 0]}, {\"op\": \"drawImage\", \"image\": \"p\", \"at\": [0, 0]}]"
        XCTAssertEqual(try loadedWidth(concat), 16, "turned a quarter and at 0.25x with `at`: 1/4")
        let fit = "[{\"op\": \"drawImage\", \"image\": \"p\", \"rect\": [0, 0, 100, 6], \"contentMode\": \"scaleAspectFit\"}]"
        XCTAssertEqual(try loadedWidth(fit), 8, "aspect fit into 6 points of height: 0.125x, 1/8")
    }

    func testTheSmallestLevelOfAllDrawsWins() throws {
        XCTAssertEqual(try loadedWidth("[\(draw(64 * 0.1, 48 * 0.1)), \(draw(64 * 0.3, 48 * 0.3))]"), 32)
        XCTAssertEqual(try loadedWidth("[\(draw(64 * 0.1, 48 * 0.1)), \(draw(64 * 0.2, 48 * 0.2)), \(draw(64 * 0.1, 48 * 0.1))]"), 16)
        XCTAssertEqual(try loadedWidth("[\(draw(64 * 0.1, 48 * 0.1)), \(draw(64, 48))]"), 64)
    }

    func testUsesThatCannotBeBoundedDecodeTheWholeImage() throws {
        let small = draw(6.4, 4.8)
        XCTAssertEqual(try loadedWidth("[\(draw(6.4, 4.8, extra: ", \"interpolation\": \"low\""))]"), 64, "bilinear has no levels")
        XCTAssertEqual(try loadedWidth("[\(draw(6.4, 4.8, extra: ", \"interpolation\": \"high\""))]"), 8, "high is mipmapped")
        XCTAssertEqual(try loadedWidth("[\(draw(6.4, 4.8, extra: ", \"crop\": [0, 0, 32, 32]"))]"), 64, "a crop")
        XCTAssertEqual(try loadedWidth("[\(draw(6.4, 4.8, extra: ", \"capInsets\": [4, 4, 4, 4]"))]"), 64, "nine slices")
        let filtered = "{\"p\": \"shrink.jpg\", \"f\": {\"input\": \"p\", \"filters\": [{\"filter\": \"colorInvert\"}]}}"
        XCTAssertEqual(try loadedWidth("[\(small)]", images: filtered), 64, "a filter's input")
        let offscreen = "{\"p\": \"shrink.jpg\", \"o\": {\"size\": [8, 8], \"ops\": [\(small)]}}"
        XCTAssertEqual(try loadedWidth("[\(small)]", images: offscreen), 64, "drawn inside an offscreen image")
        XCTAssertEqual(try loadedWidth("[]"), 64, "not drawn at all")
        XCTAssertEqual(try loadedWidth("[\(small)]", images: "{\"p\": {\"named\": \"shrink\"}}"), 64, "named images are not shrunk")
    }

    func testSmallFilesShrinkToo() throws {
        // baseline.jpg is 24 x 16: 8 divides both sides, so 3 x 2 at 0.1x.
        let scene24 = try scene("{\"p\": \"baseline.jpg\"}", "[\(draw(2.4, 1.6))]")
        XCTAssertEqual(try XCTUnwrap(scene24.images["p"]).bitmap.width, 3)
        // Drawn 6 x 4 (level 2): 1/4, 6 x 4 pixels.
        let quarter = try scene("{\"p\": \"baseline.jpg\"}", "[\(draw(6, 4))]")
        XCTAssertEqual(try XCTUnwrap(quarter.images["p"]).bitmap.width, 6)
    }

    func testSidesNotDivisibleLowerTheDenominator() throws {
        // 60 x 44: 4 divides both sides, 8 does not, so a draw at level 3 gets 1/4 (15 x 11).
        var pixels = [UInt8](repeating: 255, count: 60 * 44 * 4)
        for y in 0..<44 {
            for x in 0..<60 {
                let i = (y * 60 + x) * 4
                pixels[i] = UInt8(x * 4); pixels[i + 1] = UInt8(y * 5); pixels[i + 2] = 90
            }
        }
        let jpeg = try JPEGEncoder(quality: 90).encode(Bitmap(width: 60, height: 44, pixels: pixels))
        try Data(jpeg).write(to: folder.appendingPathComponent("odd.jpg"))
        let s = try scene("{\"p\": \"odd.jpg\"}", "[\(draw(6, 4.4))]")
        let image = try XCTUnwrap(s.images["p"])
        XCTAssertEqual(image.bitmap.width, 15)
        XCTAssertEqual(image.bitmap.height, 11)
        XCTAssertEqual(image.scale, 0.25)
    }

    func testOrientedFilesShrinkUpright() throws {
        // orient6.jpg is stored 24 x 16 with orientation 6 (turned right): 16 x 24 upright.
        let s = try scene("{\"p\": \"orient6.jpg\"}", "[{\"op\": \"drawImage\", \"image\": \"p\", \"rect\": [0, 0, 4, 6]}]")
        let image = try XCTUnwrap(s.images["p"])
        XCTAssertEqual(image.bitmap.width, 4)
        XCTAssertEqual(image.bitmap.height, 6)
        XCTAssertEqual(image.size, Size(width: 16, height: 24))
    }

    // MARK: Budget and bad input

    func testTheBudgetCountsTheScaledSize() throws {
        var limits = ResourceLimits.default
        limits.maxImagePixels = 64 * 48 / 4
        XCTAssertThrowsError(try scene("{\"p\": \"shrink.jpg\"}", "[\(draw(40, 30))]", limits: limits)) { error in
            XCTAssertTrue("\(error)".contains("budget"), "\(error)")
        }
        let s = try scene("{\"p\": \"shrink.jpg\"}", "[\(draw(32, 24))]", limits: limits)
        XCTAssertEqual(s.decodedImagePixels, 32 * 24)
    }

    func testTruncatedJPEGIsRejectedWithItsMessage() throws {
        let data = try Fixtures.bytes("shrink.jpg")
        try Data(data.prefix(data.count / 2)).write(to: folder.appendingPathComponent("cut.jpg"))
        func message(_ ops: String) -> String {
            do {
                _ = try scene("{\"p\": \"cut.jpg\"}", ops)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        let whole = message("[\(draw(40, 30))]"), shrunk = message("[\(draw(6.4, 4.8))]")
        XCTAssertTrue(whole.contains("images.p") && whole.contains("JPEG: "), whole)
        XCTAssertEqual(shrunk, whole, "the same error, shrunk or not")
    }

    // MARK: Filters at the drawn resolution

    func testABlurChainRunsAtTheShrunkSizeWithItsRadiusScaled() throws {
        let chain = "\"f\": {\"input\": \"p\", \"filters\": [{\"filter\": \"colorControls\", \"saturation\": 1.5}, "
            + "{\"filter\": \"gaussianBlur\", \"radius\": 8}]}"
        let ops = "[{\"op\": \"drawImage\", \"image\": \"f\", \"rect\": [0, 0, 6.4, 4.8]}]"
        let shrunk = try scene("{\"p\": \"shrink.jpg\", \(chain)}", ops)
        let f = try XCTUnwrap(shrunk.images["f"])
        XCTAssertEqual(f.bitmap.width, 8, "evaluated at 1/8")
        XCTAssertEqual(f.scale, 0.125)
        XCTAssertEqual(shrunk.decodedImagePixels, 2 * 8 * 6, "the input and the result, both at 1/8")
        // The same chain, blur radius 8 / 8, over libjpeg's 1/8 output given as a file of scale 1/8.
        try Data(try PNGEncoder().encode(try Fixtures.expected("shrink.jpg.8"))).write(to: folder.appendingPathComponent("eighth.png"))
        let reference = try scene("{\"p\": {\"path\": \"eighth.png\", \"scale\": 0.125}, \"f\": {\"input\": \"p\", \"filters\": "
            + "[{\"filter\": \"colorControls\", \"saturation\": 1.5}, {\"filter\": \"gaussianBlur\", \"radius\": 1}]}}", ops)
        assertSame(f.bitmap, try XCTUnwrap(reference.images["f"]).bitmap, "the chain at 1/8")
    }

    func testChainsThatDoNotScaleRunAtFullSize() throws {
        let small = "[{\"op\": \"drawImage\", \"image\": \"f\", \"rect\": [0, 0, 6.4, 4.8]}]"
        func chainWidth(_ filters: String, extra: String = "", images: String = "") throws -> Int {
            let s = try scene("{\"p\": \"shrink.jpg\", \"f\": {\"input\": \"p\", \"filters\": \(filters)\(extra)}\(images)}", small)
            return try XCTUnwrap(s.images["f"]).bitmap.width
        }
        XCTAssertEqual(try chainWidth("[{\"filter\": \"clampToExtent\"}, {\"filter\": \"gaussianBlur\"}, {\"filter\": \"sepiaTone\"}]"), 8)
        XCTAssertEqual(try chainWidth("[{\"filter\": \"vignette\"}]"), 64, "vignette works in input pixels")
        XCTAssertEqual(try chainWidth("[{\"filter\": \"unsharpMask\"}]"), 64)
        XCTAssertEqual(try chainWidth("[{\"filter\": \"crop\", \"rect\": [0, 0, 32, 32]}]"), 64)
        XCTAssertEqual(try chainWidth("[{\"filter\": \"gaussianBlur\"}]", extra: ", \"extent\": [0, 0, 64, 48]"), 64, "an extent")
        XCTAssertEqual(try chainWidth("[]", images: ", \"g\": {\"input\": \"p\", \"filters\": []}"), 64, "a second use of the input")
        let both = try scene("{\"p\": \"shrink.jpg\", \"f\": {\"input\": \"p\", \"filters\": []}}",
                             "[{\"op\": \"drawImage\", \"image\": \"f\", \"rect\": [0, 0, 6.4, 4.8]}, \(draw(6.4, 4.8))]")
        XCTAssertEqual(try XCTUnwrap(both.images["f"]).bitmap.width, 64, "the input drawn too")
        let large = try scene("{\"p\": \"shrink.jpg\", \"f\": {\"input\": \"p\", \"filters\": []}}",
                              "[{\"op\": \"drawImage\", \"image\": \"f\", \"rect\": [0, 0, 40, 30]}]")
        XCTAssertEqual(try XCTUnwrap(large.images["f"]).bitmap.width, 64, "drawn at more than half size")
    }
}
