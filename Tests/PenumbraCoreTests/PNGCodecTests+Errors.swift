// Malformed input: every libpng error must come back as a PNGError with a
// clear message (never a crash, never a longjmp through Swift), and the
// pixel limit must stop a huge header before any pixel buffer exists.
import XCTest
import PenumbraTestSupport
@testable import PenumbraModel
@testable import PenumbraCore

extension PNGCodecTests {
    /// Asserts that decoding throws a PNGError whose message starts with "PNG: " and contains
    /// every one of `phrases`; returns the message.
    @discardableResult
    func assertDecodeFails(_ data: [UInt8], maxPixels: Int = 100_000_000, _ phrases: [String],
                           file: StaticString = #filePath, line: UInt = #line) -> String {
        var message = ""
        XCTAssertThrowsError(try PNGCodec.decode(data, maxPixels: maxPixels), file: file, line: line) { error in
            guard let png = error as? PNGError else { return XCTFail("not a PNGError: \(error)", file: file, line: line) }
            message = png.message
        }
        XCTAssertTrue(message.hasPrefix("PNG: "), message, file: file, line: line)
        for phrase in phrases {
            XCTAssertTrue(message.contains(phrase), "\"\(message)\" lacks \"\(phrase)\"", file: file, line: line)
        }
        return message
    }

    func testEmptyDataAndWrongSignature() throws {
        assertDecodeFails([], ["empty"])
        assertDecodeFails(Array("GIF89a, not a PNG at all".utf8), ["not a PNG file", "signature"])
        var png = try pngFixture("rgba8.png")
        png[1] = UInt8(ascii: "Q")
        assertDecodeFails(png, ["signature"])
        XCTAssertThrowsError(try PNGCodec.readHeader([]))
        XCTAssertThrowsError(try Image(pngData: [0x89, 0x50]))
    }

    func testEveryTruncationFailsCleanly() throws {
        for name in ["rgba8.png", "palette2_trns_9x9_adam7.png"] {
            let png = try pngFixture(name)
            XCTAssertNoThrow(try PNGCodec.decode(png))
            for length in 1..<png.count {
                assertDecodeFails(Array(png.prefix(length)), ["truncated data"])
            }
        }
    }

    func testCorruptedCRCs() throws {
        let png = try pngFixture("rgba8.png")
        let chunks = pngChunks(png)
        let ihdr = try XCTUnwrap(chunks.first { $0.type == "IHDR" })
        var badHeader = png
        badHeader[ihdr.offset + 8 + 13] ^= 0x01 // first CRC byte
        assertDecodeFails(badHeader, ["IHDR", "CRC error"])

        let idat = try XCTUnwrap(chunks.first { $0.type == "IDAT" })
        var badCRC = png
        badCRC[idat.offset + 8 + idat.data.count + 3] ^= 0x80 // last CRC byte
        assertDecodeFails(badCRC, ["IDAT", "CRC error"])
        // A damaged payload byte: zlib's checksum fails before libpng reaches the chunk's CRC.
        var badData = png
        badData[idat.offset + 8 + idat.data.count / 2] ^= 0x40
        assertDecodeFails(badData, ["IDAT"])
    }

    func testCorruptedImageData() throws {
        assertDecodeFails(try pngFixture("bad_zlib.png"), ["IDAT"])
        assertDecodeFails(try pngFixture("bad_filter.png"), ["filter"])
        assertDecodeFails(try pngFixture("short_idat.png"), ["image data"])
        assertDecodeFails(try pngFixture("no_idat.png"), [])
        assertDecodeFails(try pngFixture("missing_plte.png"), [])
        assertDecodeFails(try pngFixture("unknown_critical.png"), ["CrIT"])
    }

    func testBadHeaderSizes() throws {
        assertDecodeFails(try pngFixture("zero_width.png"), ["IHDR", "width is zero"])
        // 2^25 x 1 passes a 100-megapixel limit but not the 2^24 per-side limit.
        assertDecodeFails(try pngFixture("too_wide.png"), ["IHDR", "width exceeds user limit"])
        XCTAssertThrowsError(try PNGCodec.readHeader(pngFixture("too_wide.png")))
    }

    func testBombHeaderIsRejectedByThePixelLimit() throws {
        // IHDR says 100000 x 100000 RGBA (40 GB decoded); the whole file is 65 bytes. The check
        // happens after the header, before the pixel buffer: a 40 GB allocation would not
        // return an error but crash or exhaust the machine.
        let bomb = try pngFixture("bomb.png")
        XCTAssertLessThan(bomb.count, 100)
        assertDecodeFails(bomb, ["100000 x 100000", "over the limit of 100000000 pixels"])
        XCTAssertThrowsError(try Image(pngData: bomb)) { error in
            XCTAssertTrue((error as? PNGError)?.message.contains("over the limit") == true, "\(error)")
        }
    }

    func testMaxPixelsIsHonoured() throws {
        let png = try pngFixture("rgba8_9x9.png") // 81 pixels
        XCTAssertEqual(try PNGCodec.decode(png, maxPixels: 81).width, 9)
        assertDecodeFails(png, maxPixels: 80, ["9 x 9", "over the limit of 80 pixels"])
        assertDecodeFails(png, maxPixels: 0, ["over the limit of 0 pixels"])
        XCTAssertThrowsError(try Image(pngData: png, maxPixels: 80))
        XCTAssertEqual(try Image(pngData: png, maxPixels: 81).bitmap.height, 9)
    }

    func testRandomCorruptionNeverCrashes() throws {
        // Seeded mutations of valid files: each must decode to a well-formed bitmap or throw a
        // PNGError. A crash or a longjmp through Swift would end the test run.
        var rng = SplitMix64(seed: 0x9E3779B9)
        var outcomes = (decoded: 0, failed: 0)
        for name in ["rgba8.png", "palette4_trns.png", "grey1_9x9_adam7.png", "rgb16_trns.png", "ancillary_ignored.png"] {
            let original = try pngFixture(name)
            for _ in 0..<300 {
                var png = original
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let i = Int.random(in: 8..<png.count, using: &rng)
                    png[i] = Bool.random(using: &rng) ? UInt8.random(in: 0...255, using: &rng) : png[i] ^ (1 << UInt8.random(in: 0..<8, using: &rng))
                }
                do {
                    let bitmap = try PNGCodec.decode(png, maxPixels: 1 << 20)
                    XCTAssertEqual(bitmap.pixels.count, bitmap.width * bitmap.height * 4)
                    outcomes.decoded += 1
                } catch let error as PNGError {
                    XCTAssertTrue(error.message.hasPrefix("PNG: "), error.message)
                    XCTAssertGreaterThan(error.message.count, 5)
                    outcomes.failed += 1
                }
            }
        }
        XCTAssertGreaterThan(outcomes.failed, 0)
        XCTAssertEqual(outcomes.decoded + outcomes.failed, 1500)
    }
}
