// Each format and colour type decodes to the pixels the libraries' own tools
// give (djpeg, dwebp; a GIF's palette; Pillow's exif_transpose and ImageCms
// for orientation and ICC), byte for byte.
import XCTest
import Penumbra

final class DecoderTests: XCTestCase {
    func decode(_ name: String, firstFrameOnly: Bool = false) throws -> DecodedImage {
        try ImageCodecs.standard.decode(try Fixtures.bytes(name), maxPixels: 1 << 24, firstFrameOnly: firstFrameOnly)
    }

    func assertDecodesAsTool(_ name: String, format: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let decoded = try decode(name)
        XCTAssertEqual(decoded.formatName, format, file: file, line: line)
        XCTAssertEqual(decoded.frames.count, 1, file: file, line: line)
        let expected = try Fixtures.expected(name)
        XCTAssertEqual(decoded.frames[0].width, expected.width, file: file, line: line)
        XCTAssertEqual(decoded.frames[0].height, expected.height, file: file, line: line)
        XCTAssertEqual(Fixtures.maxDifference(decoded.frames[0], expected), 0, "\(name) differs from its tool's pixels",
                       file: file, line: line)
    }

    func testJPEGMatchesDjpeg() throws {
        for name in ["baseline.jpg", "progressive.jpg", "grey.jpg", "q444.jpg"] { try assertDecodesAsTool(name, format: "JPEG") }
    }

    func testCMYKJPEGWithoutProfile() throws { try assertDecodesAsTool("cmyk.jpg", format: "JPEG") }

    func testWebPMatchesDwebp() throws {
        for name in ["lossy.webp", "lossless.webp", "lossy_alpha.webp"] { try assertDecodesAsTool(name, format: "WebP") }
    }

    func testStillGIF() throws { try assertDecodesAsTool("still.gif", format: "GIF") }

    func testEveryEXIFOrientationInPNG() throws {
        for o in 1...8 { try assertDecodesAsTool("orient\(o).png", format: "PNG") }
        // Orientations 5...8 swap the axes: the 24 x 16 source is 16 x 24 upright.
        XCTAssertEqual(try decode("orient6.png").frames[0].width, 16)
        XCTAssertEqual(try decode("orient2.png").frames[0].width, 24)
    }

    func testJPEGOrientation() throws { try assertDecodesAsTool("orient6.jpg", format: "JPEG") }

    func testOrientationOverrideReplacesTheFiles() throws {
        let data = try Fixtures.bytes("orient6.png")
        let up = try ImageCodecs.standard.decode(data, maxPixels: 1 << 20, orientation: .up).frames[0]
        XCTAssertEqual(up, try decode("orient1.png").frames[0])
        for o in ImageOrientation.allCases {
            let turned = try ImageCodecs.standard.decode(data, maxPixels: 1 << 20, orientation: o).frames[0]
            XCTAssertEqual(turned, up.oriented(o), "\(o)")
        }
    }

    func testICCProfileConvertedToSRGB() throws {
        try assertDecodesAsTool("p3.png", format: "PNG")
        try assertDecodesAsTool("p3.jpg", format: "JPEG")
        // Without a colour manager the profile is not applied, and the pixels differ.
        let plain = try ImageCodecs(decoders: [PNGImageDecoder()]).decode(try Fixtures.bytes("p3.png"), maxPixels: 1 << 20)
        XCTAssertGreaterThan(Fixtures.maxDifference(plain.frames[0], try Fixtures.expected("p3.png")), 3)
    }

    func testBadProfileIsIgnored() throws {
        let data = try Fixtures.bytes("badicc.jpg")
        let managed = try ImageCodecs.standard.decode(data, maxPixels: 1 << 20)
        var unmanaged = ImageCodecs.standard
        unmanaged.colorManager = nil
        XCTAssertEqual(managed.frames, try unmanaged.decode(data, maxPixels: 1 << 20).frames)
    }

    func testAnimatedGIFFramesAndDelays() throws {
        let decoded = try decode("anim.gif")
        XCTAssertEqual(decoded.frames.count, 3)
        XCTAssertEqual(decoded.durations, [0.1, 0.05, 0.12], "a 0 ms delay counts as 100 ms")
        XCTAssertEqual(decoded.frames.map { $0[0, 0] }, [SIMD4(255, 0, 0, 255), SIMD4(0, 255, 0, 255), SIMD4(0, 0, 255, 255)])
        XCTAssertEqual(try decode("anim.gif", firstFrameOnly: true).frames.count, 1)
    }

    func testAnimatedWebPFramesAndDelays() throws {
        let decoded = try decode("anim.webp")
        XCTAssertEqual(decoded.frames.count, 3)
        XCTAssertEqual(decoded.durations, [0.1, 0.2, 0.3])
        XCTAssertEqual(decoded.frames.map { $0[5, 5] }, [SIMD4(255, 0, 0, 255), SIMD4(0, 255, 0, 255), SIMD4(0, 0, 255, 255)])
        let animation = try AnimatedImage(data: try Fixtures.bytes("anim.webp"))
        XCTAssertEqual(animation.duration, 0.6, accuracy: 1e-9)
        XCTAssertEqual([0, 0.0999, 0.1, 0.2999, 0.3, 0.5999, 0.6, -0.01].map(animation.frameIndex(at:)), [0, 0, 1, 1, 2, 2, 0, 2])
    }

    func testSniffingIgnoresTheName() throws {
        // A JPEG given as a PNG data URI is still a JPEG.
        let jpeg = try Fixtures.bytes("baseline.jpg")
        XCTAssertEqual(try ImageCodecs.standard.decode(jpeg, maxPixels: 1 << 20).formatName, "JPEG")
        XCTAssertThrowsError(try ImageCodecs.standard.decode(Array("hello".utf8), maxPixels: 1 << 20)) { error in
            XCTAssertTrue("\(error)".contains("not a PNG, JPEG, WebP or GIF image"), "\(error)")
        }
    }

    func testImageAPI() throws {
        let image = try Image(data: try Fixtures.bytes("orient6.jpg"), scale: 2)
        XCTAssertEqual(image.scale, 2)
        XCTAssertEqual(image.bitmap.width, 16)
        XCTAssertEqual(image.size.width, 8)
        XCTAssertEqual(image.withOrientation(.left).bitmap, image.bitmap.oriented(.left))
        XCTAssertEqual(image.withOrientation(.left).withOrientation(.right).bitmap, image.bitmap)
    }
}

final class APNGDecoderTests: XCTestCase {
    func testAPNGFramesDisposalBlendAndDelays() throws {
        // anim.apng (Pillow): red; then green at alpha 128 blended over, with a transparent
        // top-left quarter, disposed to background; then opaque blue.
        let decoded = try ImageCodecs.standard.decode(try Fixtures.bytes("anim.apng"), maxPixels: 1 << 20)
        XCTAssertEqual(decoded.formatName, "PNG")
        XCTAssertEqual(decoded.frames.count, 3)
        XCTAssertEqual(decoded.durations, [0.1, 0.2, 0.3])
        XCTAssertEqual(decoded.frames[0][20, 12], SIMD4(255, 0, 0, 255))
        // Straight (0, 255, 0, 128) over opaque red: (127, 128, 0, 255).
        XCTAssertEqual(decoded.frames[1][20, 12], SIMD4(127, 128, 0, 255))
        XCTAssertEqual(decoded.frames[1][2, 2], SIMD4(255, 0, 0, 255), "a transparent source pixel leaves red")
        XCTAssertEqual(decoded.frames[2][2, 2], SIMD4(0, 0, 255, 255))
        XCTAssertEqual(try ImageCodecs.standard.decode(try Fixtures.bytes("anim.apng"), maxPixels: 1 << 20, firstFrameOnly: true).frames.count, 1)
        // The header counts every frame against the limit.
        XCTAssertThrowsError(try ImageCodecs.standard.decode(try Fixtures.bytes("anim.apng"), maxPixels: 24 * 16 * 2))
    }

    func testOurOwnAPNGEncoderRoundTrips() throws {
        let frames = [SIMD4<UInt8>(255, 0, 0, 255), SIMD4(0, 0, 128, 128), SIMD4(0, 255, 0, 255)].map { colour -> Bitmap in
            var b = Bitmap(width: 5, height: 4)
            for y in 0..<4 { for x in 0..<5 { b[x, y] = colour } }
            return b
        }
        let decoded = try ImageCodecs.standard.decode(APNGEncoder().encode(frames, fps: 4), maxPixels: 1000)
        XCTAssertEqual(decoded.frames, frames, "blend source: each frame replaces the canvas")
        XCTAssertEqual(decoded.durations, [0.25, 0.25, 0.25])
    }
}
