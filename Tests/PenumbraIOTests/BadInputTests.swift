// Hostile files: truncated, corrupted, bomb headers, a JPEG with a lying
// size, an animation with thousands of frames. Each is rejected with a
// message (never a crash), and the size checks happen from the header,
// before pixels are allocated: the limits here are far below what the
// claimed sizes would need, so an allocation would show as a crash or OOM.
import XCTest
import Penumbra

final class BadInputTests: XCTestCase {
    let codecs = ImageCodecs.standard

    func assertRejected(_ data: [UInt8], maxPixels: Int = 1 << 20, _ needle: String,
                        file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try codecs.decode(data, maxPixels: maxPixels), file: file, line: line) { error in
            XCTAssertTrue("\(error)".contains(needle), "\(error) should mention \(needle)", file: file, line: line)
        }
    }

    static let stills = ["baseline.jpg", "progressive.jpg", "cmyk.jpg", "lossy.webp", "lossless.webp", "still.gif",
                         "orient1.png", "anim.gif", "anim.webp", "anim.apng"]

    func testTruncatedFilesOfEveryFormat() throws {
        for name in Self.stills {
            let data = try Fixtures.bytes(name)
            for keep in [data.count / 2, data.count - 3, 20] {
                XCTAssertThrowsError(try codecs.decode(Array(data.prefix(keep)), maxPixels: 1 << 20), "\(name) cut to \(keep)")
            }
        }
    }

    func testCorruptedFilesNeverCrash() throws {
        var generator = SplitMix(state: 12345)  // fixed seed: the same corruptions every run
        for name in Self.stills {
            let data = try Fixtures.bytes(name)
            for _ in 0..<40 {
                var bad = data
                for _ in 0..<4 { bad[Int.random(in: 12..<bad.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator) }
                if let decoded = try? codecs.decode(bad, maxPixels: 1 << 20) {
                    XCTAssertFalse(decoded.frames.isEmpty)
                    XCTAssertTrue(decoded.frames.allSatisfy { $0.pixels.count == $0.width * $0.height * 4 })
                }
            }
        }
        // PNG carries CRCs: a flipped byte in IDAT is an error.
        var png = try Fixtures.bytes("orient1.png")
        png[png.count - 20] ^= 0xFF
        XCTAssertThrowsError(try codecs.decode(png, maxPixels: 1 << 20))
    }

    /// The Swift-side parsers the libFuzzer target (C side) does not reach: EXIF and the GIF block
    /// walk, on seeded random and mutated input.
    func testSwiftParsersOnRandomInput() throws {
        var generator = SplitMix(state: 99)
        let exif = Array("Exif".utf8) + [0, 0] + Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0]
        XCTAssertEqual(EXIF.orientation(tiff: exif), .right)
        let gif = try Fixtures.bytes("anim.gif")
        for _ in 0..<3000 {
            var blob = exif
            for _ in 0..<3 { blob[Int.random(in: 6..<blob.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            _ = EXIF.orientation(tiff: Array(blob.prefix(Int.random(in: 0...blob.count, using: &generator))))
            var g = gif
            for _ in 0..<3 { g[Int.random(in: 6..<g.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            if let header = try? GIFDecoder().readHeader(g) { XCTAssertGreaterThanOrEqual(header.frameCount, 1) }
            _ = try? ImageCodecs.standard.decode(g, maxPixels: 1 << 16)
        }
    }

    func testBombHeadersAreRejectedBeforeDecoding() throws {
        // PNG: IHDR claims 100000 x 100000 (CRC fixed up).
        var png = try Fixtures.bytes("orient1.png")
        png.replaceSubrange(16..<24, with: Self.bigEndian(100_000) + Self.bigEndian(100_000))
        png.replaceSubrange(29..<33, with: Self.bigEndian(Self.crc32(Array(png[12..<29]))))
        assertRejected(png, "PNG: ")
        // JPEG: the SOF claims 60000 x 60000.
        assertRejected(try Self.jpegClaiming(60000, 60000), "JPEG: the image is 60000 x 60000 pixels")
        // WebP lossless: the VP8L header claims 16384 x 16384.
        var webp = try Fixtures.bytes("lossless.webp")
        let bits = UInt32(16383) | UInt32(16383) << 14 | (UInt32(webp[21 + 4]) >> 4 & 0xF) << 28
        webp.replaceSubrange(21..<25, with: [UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24)])
        assertRejected(webp, "WebP")
        // GIF: the screen claims 65535 x 65535.
        var gif = try Fixtures.bytes("still.gif")
        gif.replaceSubrange(6..<10, with: [0xFF, 0xFF, 0xFF, 0xFF])
        assertRejected(gif, "over the limit")
    }

    func testJPEGWithALyingSize() throws {
        // Within the limit, but the scans cover a tiny image: libjpeg runs out of data.
        assertRejected(try Self.jpegClaiming(2000, 1500), maxPixels: 4_000_000, "JPEG: ")
    }

    func testThousandsOfFramesCountTowardsTheLimit() {
        let gif = Self.gif(frames: 5000)
        assertRejected(gif, maxPixels: 1000, "in 5000 frames, over the limit of 1000 pixels")
        XCTAssertEqual(try codecs.decode(gif, maxPixels: 5000).frames.count, 5000)
        XCTAssertEqual(try codecs.decode(gif, maxPixels: 1000, firstFrameOnly: true).frames.count, 1)
    }

    func testGIFFrameOutsideTheScreen() {
        var gif = Self.gif(frames: 1)
        gif[13 + 6 + 8 + 5] = 9  // the frame's width byte: 9 pixels in a 1-pixel screen
        assertRejected(gif, "does not fit the 1 x 1 screen")
    }

    // MARK: Builders

    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func jpegClaiming(_ width: Int, _ height: Int) throws -> [UInt8] {
        var jpeg = try Fixtures.bytes("baseline.jpg")
        let sof = try XCTUnwrap((2..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg.replaceSubrange((sof + 5)..<(sof + 9), with: [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)])
        return jpeg
    }

    /// A 1 x 1 GIF with `frames` frames, each a graphic control extension and one LZW pixel.
    static func gif(frames: Int) -> [UInt8] {
        var g = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        for _ in 0..<frames {
            g += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]
            g += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0]
            g += [2, 2, 0x4C, 0x01, 0]
        }
        return g + [0x3B]
    }

    static func bigEndian(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func bigEndian(_ v: UInt32) -> [UInt8] { bigEndian(Int(v)) }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }
}
