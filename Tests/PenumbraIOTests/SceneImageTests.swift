// The scene's image forms: named images and their scale-variant order,
// offscreen images (equal to drawing the same ops directly), cycles and
// chains, animations at the scene's time, data URIs of every type, the
// orientation override, and the decoded-pixel budget. Each rejection names
// its place.
import Foundation
import XCTest
import Penumbra
import PenumbraCPU

final class SceneImageTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-io-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func put(_ fixture: String, as name: String) throws {
        try Data(try Fixtures.bytes(fixture)).write(to: folder.appendingPathComponent(name))
    }

    func scene(_ images: String, ops: String = "[]", extra: String = "", scale: Double = 1,
               limits: ResourceLimits = .default) throws -> Scene {
        let json = "{\"format\": \"penumbra-scene\", \"version\": 1, \"size\": [40, 30], \"scale\": \(scale)\(extra), "
            + "\"images\": \(images), \"ops\": \(ops)}"
        return try Scene.decode(json, baseDirectory: folder.path, limits: limits, environment: .standard)
    }

    func assertRejected(_ make: @autoclosure () throws -> Scene, at location: String, _ needle: String,
                        file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try make(), file: file, line: line) { error in
            guard let e = error as? SceneError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(e.location, location, "\(e)", file: file, line: line)
            XCTAssertTrue(e.message.contains(needle), "\(e) should mention \(needle)", file: file, line: line)
        }
    }

    // MARK: Named images

    func testNamedImagePreferenceOrder() throws {
        // Distinguishable files: a 24 x 16 JPEG, a 24 x 16 WebP and a 16 x 24 PNG.
        try put("baseline.jpg", as: "rocks@2x.jpg")
        try put("lossless.webp", as: "rocks@3x.webp")
        try put("orient6.png", as: "rocks.png")
        let named = "{\"r\": {\"named\": \"rocks\"}}"
        // Canvas @2x: the @2x variant; @3x canvas: @3x; @1x: the plain name.
        XCTAssertEqual(try scene(named, scale: 2).images["r"]?.scale, 2)
        XCTAssertEqual(try scene(named, scale: 2).images["r"]?.bitmap, try Fixtures.expected("baseline.jpg"))
        XCTAssertEqual(try scene(named, scale: 3).images["r"]?.scale, 3)
        XCTAssertEqual(try scene(named, scale: 1).images["r"]?.scale, 1)
        XCTAssertEqual(try scene(named, scale: 1.4).images["r"]?.scale, 1, "1.4 rounds to 1")
        // Without the exact scale: larger ones ascending, then smaller descending.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("rocks.png"))
        XCTAssertEqual(try scene(named, scale: 1).images["r"]?.scale, 2)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("rocks@3x.webp"))
        XCTAssertEqual(try scene(named, scale: 3).images["r"]?.scale, 2)
        // Extensions in order: .png before .jpg at one scale.
        try put("orient6.png", as: "rocks@2x.png")
        XCTAssertEqual(try scene(named, scale: 2).images["r"]?.bitmap.width, 16)
        XCTAssertEqual(try Image.named("rocks", in: folder, scale: 2)?.bitmap.width, 16)
        XCTAssertNil(try Image.named("pebbles", in: folder))
    }

    func testMissingNamedImageListsWhatWasTried() {
        assertRejected(try scene("{\"r\": {\"named\": \"stone\"}}", scale: 2), at: "images.r",
                       "tried stone@2x.png, stone@2x.jpg, stone@2x.jpeg, stone@2x.webp, stone@2x.gif, stone@3x.png")
    }

    // MARK: Offscreen images

    let drawing = "[{\"op\": \"setFillColor\", \"color\": \"#3366CC\"}, {\"op\": \"fill\", \"path\": {\"ellipse\": [2, 3, 30, 20]}},"
        + " {\"op\": \"setFillColor\", \"color\": \"#FF000080\"}, {\"op\": \"fill\", \"path\": {\"rect\": [10, 5, 25, 20]}}]"

    func testOffscreenImageEqualsDrawingDirectly() throws {
        let direct = try scene("{}", ops: drawing, extra: ", \"background\": \"#FFFFFF\"", scale: 2)
        // An opaque offscreen image (white, as the canvas) drawn 1:1 gives the direct pixels.
        let viaImage = try scene("{\"o\": {\"size\": [40, 30], \"background\": \"#FFFFFF\", \"ops\": \(drawing)}}",
                                 ops: "[{\"op\": \"drawImage\", \"image\": \"o\", \"at\": [0, 0]}]",
                                 extra: ", \"background\": \"#FFFFFF\"", scale: 2)
        XCTAssertEqual(viaImage.images["o"]?.scale, 2, "the scene's scale by default")
        let a = try CPURenderer().render(viaImage.displayList()), b = try CPURenderer().render(direct.displayList())
        XCTAssertTrue(a == b, "differs by up to \(Fixtures.maxDifference(a, b))")
        XCTAssertNotEqual(a[20, 20], SIMD4(255, 255, 255, 255), "something was drawn")
    }

    func testOffscreenOpaqueStartsBlackAndNests() throws {
        let s = try scene("{\"outer\": {\"size\": [4, 4], \"scale\": 1, \"ops\": [{\"op\": \"drawImage\", \"image\": \"inner\", \"at\": [0, 0]}]},"
                          + " \"inner\": {\"size\": [2, 2], \"opaque\": true, \"ops\": []}}")
        XCTAssertEqual(s.images["inner"]?.bitmap[0, 0], SIMD4(0, 0, 0, 255))
        XCTAssertEqual(s.images["outer"]?.bitmap[1, 1], SIMD4(0, 0, 0, 255))
        XCTAssertEqual(s.images["outer"]?.bitmap[3, 3], SIMD4(0, 0, 0, 0))
    }

    func testCyclesAndChainsAreRejected() {
        func offscreen(_ draws: String) -> String {
            "{\"size\": [2, 2], \"ops\": [{\"op\": \"drawImage\", \"image\": \"\(draws)\", \"at\": [0, 0]}]}"
        }
        assertRejected(try scene("{\"a\": \(offscreen("b")), \"b\": \(offscreen("c")), \"c\": \(offscreen("a"))}"),
                       at: "images.a", "cycle: \"a\" -> \"b\" -> \"c\" -> \"a\"")
        var chain = (0..<17).map { "\"i\($0)\": \(offscreen("i\($0 + 1)"))" }
        chain.append("\"i17\": {\"size\": [1, 1], \"ops\": []}")
        assertRejected(try scene("{" + chain.joined(separator: ", ") + "}"), at: "images.i16", "more than 16 offscreen images")
    }

    func testOffscreenOpsCountTowardsTheScenesLimit() {
        var limits = ResourceLimits.default
        limits.maxOps = 3
        assertRejected(try scene("{\"o\": {\"size\": [2, 2], \"ops\": [{\"op\": \"save\"}, {\"op\": \"restore\"}]}}",
                                 ops: "[{\"op\": \"save\"}, {\"op\": \"restore\"}]", limits: limits),
                       at: "images.o.ops", "over the limit of 3")
    }

    // MARK: Animations

    func testAnimationFrameAtTheScenesTime() throws {
        for (i, fixture) in ["baseline.jpg", "progressive.jpg", "grey.jpg", "q444.jpg"].enumerated() {
            try put(fixture, as: "boom\(i + 1).jpg")
        }
        let images = "{\"a\": {\"pattern\": \"boom%d.jpg\", \"duration\": 2}, \"f\": {\"frames\": [\"boom3.jpg\", \"boom1.jpg\"], \"duration\": 1}}"
        func frame(_ t: Double, _ name: String = "a") throws -> Bitmap? { try scene(images, extra: ", \"time\": \(t)").images[name]?.bitmap }
        let expected = try ["baseline.jpg", "progressive.jpg", "grey.jpg", "q444.jpg"].map(Fixtures.expected)
        // Four frames over 2 s: each shows for 0.5 s; edges belong to the later frame; time wraps.
        XCTAssertEqual(try frame(0), expected[0])
        XCTAssertEqual(try frame(0.4999), expected[0])
        XCTAssertEqual(try frame(0.5), expected[1])
        XCTAssertEqual(try frame(1.9999), expected[3])
        XCTAssertEqual(try frame(2), expected[0])
        XCTAssertEqual(try frame(-0.25), expected[3], "negative time wraps (floored modulo)")
        XCTAssertEqual(try frame(0.5, "f"), expected[0])
        let decoded = try scene(images)
        XCTAssertEqual(decoded.animations["a"]?.frames.count, 4)
        XCTAssertEqual(decoded.at(time: 1.0).images["a"]?.bitmap, expected[2])
        XCTAssertEqual(decoded.animationDuration, 2)
    }

    func testAnimatedFileAnimatesAndAsAFrameGivesItsFirst() throws {
        try put("anim.gif", as: "anim.gif")
        let s = try scene("{\"g\": \"anim.gif\", \"f\": {\"frames\": [\"anim.gif\"], \"duration\": 1}}", extra: ", \"time\": 0.12")
        XCTAssertEqual(s.images["g"]?.bitmap[0, 0], SIMD4(0, 255, 0, 255), "0.12 s falls in the second frame (0.1 ... 0.15)")
        XCTAssertEqual(s.images["f"]?.bitmap[0, 0], SIMD4(255, 0, 0, 255))
        XCTAssertEqual(s.animations["g"]?.frames.count, 3)
    }

    func testAnimationErrors() throws {
        try put("baseline.jpg", as: "x1.jpg")
        try put("orient6.png", as: "y.png")
        assertRejected(try scene("{\"a\": {\"pattern\": \"x%d%d.jpg\", \"duration\": 1}}"), at: "images.a.pattern", "exactly one %d")
        assertRejected(try scene("{\"a\": {\"pattern\": \"z%d.jpg\", \"duration\": 1}}"), at: "images.a.pattern", "no frame \"z1.jpg\"")
        assertRejected(try scene("{\"a\": {\"frames\": [\"x1.jpg\", \"y.png\"], \"duration\": 1}}"), at: "images.a.frames[1]", "all frames must match")
        assertRejected(try scene("{\"a\": {\"frames\": [\"x1.jpg\"], \"duration\": 0}}"), at: "images.a.duration", "greater than 0")
    }

    // MARK: Sources, orientation, budget

    func testDataURIsOfEveryType() throws {
        for (type, fixture) in [("jpeg", "baseline.jpg"), ("webp", "lossy.webp"), ("gif", "still.gif"), ("png", "orient1.png"), ("apng", "orient1.png")] {
            let uri = "data:image/\(type);base64," + Data(try Fixtures.bytes(fixture)).base64EncodedString()
            XCTAssertEqual(try scene("{\"d\": \"\(uri)\"}").images["d"]?.bitmap, try Fixtures.expected(fixture), type)
        }
    }

    func testOrientationOverride() throws {
        try put("orient6.png", as: "o.png")
        let up = try scene("{\"o\": {\"path\": \"o.png\", \"orientation\": \"up\"}}").images["o"]?.bitmap
        XCTAssertEqual(up, try Fixtures.expected("orient1.png"))
        let left = try scene("{\"o\": {\"path\": \"o.png\", \"orientation\": \"left\"}}").images["o"]?.bitmap
        XCTAssertEqual(left, try Fixtures.expected("orient8.png"))
        assertRejected(try scene("{\"o\": {\"path\": \"o.png\", \"orientation\": \"sideways\"}}"), at: "images.o.orientation", "sideways")
    }

    func testDecodedPixelBudget() throws {
        try put("baseline.jpg", as: "a.jpg")   // 384 pixels
        try put("orient1.png", as: "b.png")    // 384 pixels
        var limits = ResourceLimits.default
        limits.maxImagePixels = 700
        assertRejected(try scene("{\"a\": \"a.jpg\", \"b\": \"b.png\"}", limits: limits), at: "images.b", "budget of 700 pixels")
        XCTAssertNoThrow(try scene("{\"a\": \"a.jpg\", \"b\": \"a.jpg\"}", limits: limits), "one file under two names counts once")
        assertRejected(try scene("{\"o\": {\"size\": [30, 30], \"ops\": []}}", limits: limits), at: "images.o", "budget of 700")
        try Data(BadInputTests.gif(frames: 800)).write(to: folder.appendingPathComponent("many.gif"))
        assertRejected(try scene("{\"m\": \"many.gif\"}", limits: limits), at: "images.m", "its 800 frames of 1 x 1")
    }
}
