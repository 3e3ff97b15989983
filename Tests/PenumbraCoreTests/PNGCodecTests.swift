// Decoding tests: every fixture written by Fixtures/png/make_fixtures.py
// must decode to exactly the straight RGBA8 pixels the script recorded in
// expected.json, and premultiplied as the scene format says. Targeted tests
// pin 16-bit scaling (against every 16-bit value), tRNS on palettes, grey
// and RGB, and Adam7. Encoding is in PNGCodecTests+Encode.swift, malformed
// input in PNGCodecTests+Errors.swift.
import Foundation
import XCTest
@testable import PenumbraModel
@testable import PenumbraCore

final class PNGCodecTests: XCTestCase {
    struct ExpectedImage: Decodable {
        var width: Int
        var height: Int
        var rgba: String?
        var sameAs: String?
    }

    func expectations() throws -> [String: ExpectedImage] {
        try JSONDecoder().decode([String: ExpectedImage].self, from: Data(pngFixture("expected.json")))
    }

    /// The straight RGBA8 pixels the generator intended for `name`.
    func expectedPixels(_ name: String, in all: [String: ExpectedImage]) throws -> [UInt8] {
        let entry = try XCTUnwrap(all[name], "no expectation for \(name)")
        if let twin = entry.sameAs { return try expectedPixels(twin, in: all) }
        let base64 = try XCTUnwrap(entry.rgba)
        return [UInt8](try XCTUnwrap(Data(base64Encoded: base64)))
    }

    func straight(_ name: String, maxPixels: Int = 100_000_000) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        try PNGCodec.decodeStraight(pngFixture(name), maxPixels: maxPixels)
    }

    func testEveryFixtureDecodesToTheIntendedPixels() throws {
        let all = try expectations()
        XCTAssertGreaterThanOrEqual(all.count, 34, "expected.json lists every well-formed fixture")
        for (name, entry) in all.sorted(by: { $0.key < $1.key }) {
            let expected = try expectedPixels(name, in: all)
            XCTAssertEqual(expected.count, entry.width * entry.height * 4, name)
            let decoded = try straight(name)
            XCTAssertEqual(decoded.width, entry.width, name)
            XCTAssertEqual(decoded.height, entry.height, name)
            XCTAssertEqual(decoded.pixels, expected, "\(name): straight pixels")

            let bitmap = try PNGCodec.decode(pngFixture(name))
            var premultiplied = expected
            for i in stride(from: 0, to: expected.count, by: 4) {
                for c in 0..<3 { premultiplied[i + c] = premultiply(expected[i + c], alpha: expected[i + 3]) }
            }
            XCTAssertEqual(bitmap, Bitmap(width: entry.width, height: entry.height, pixels: premultiplied),
                           "\(name): premultiplied bitmap")
        }
    }

    func testEveryColourTypeAndBitDepthIsCovered() throws {
        // colour type -> bit depths PNG allows; each must appear among the fixtures' headers.
        let allowed: [UInt8: Set<UInt8>] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        var seen: [UInt8: Set<UInt8>] = [:]
        for name in try expectations().keys {
            let header = try XCTUnwrap(pngHeaderFields(pngFixture(name)), name)
            seen[header.colourType, default: []].insert(header.bitDepth)
        }
        XCTAssertEqual(seen, allowed)
    }

    func testSixteenBitChannelsAreScaledNotTruncated() throws {
        // grey16_ramp.png: pixel (x, y) holds v = y * 256 + x, every 16-bit value once.
        let ramp = try straight("grey16_ramp.png")
        XCTAssertEqual(ramp.width, 256)
        XCTAssertEqual(ramp.height, 256)
        var mismatches = 0
        for v in 0..<65536 {
            let scaled = UInt8((v * 255 * 2 + 65535) / (2 * 65535)) // round(v * 255 / 65535)
            let i = v * 4
            if ramp.pixels[i] != scaled || ramp.pixels[i + 1] != scaled || ramp.pixels[i + 2] != scaled
                || ramp.pixels[i + 3] != 255 { mismatches += 1 }
        }
        XCTAssertEqual(mismatches, 0, "16-bit values scaled differently from round(v * 255 / 65535)")
        func grey(_ v: Int) -> UInt8 { ramp.pixels[v * 4] }
        XCTAssertEqual(grey(0x8080), 128)
        XCTAssertEqual(grey(0x00FF), 1) // 0.99 rounds to 1; truncation (v >> 8) would give 0
        XCTAssertEqual(grey(0xFF00), 254) // 254.004; v >> 8 would give 255
        XCTAssertEqual(grey(0xFF7F), 255) // 254.502, rounds up
        XCTAssertEqual(grey(0x7FFF), 127)
        XCTAssertEqual(grey(0x8000), 128)
        XCTAssertEqual(grey(0xFFFF), 255)
    }

    func testPaletteTransparencyAppliesToListedEntriesOnly() throws {
        // The generator uses palette index i for pixel i first, with tRNS alphas 0, 255, 128, ...
        // and a tRNS shorter than the palette: later entries are opaque.
        let two = try straight("palette2_trns.png") // 4 entries, tRNS lists 3
        XCTAssertEqual((0..<4).map { two.pixels[$0 * 4 + 3] }, [0, 255, 128, 255])
        let one = try straight("palette1_trns.png") // 2 entries, tRNS lists 1
        XCTAssertEqual((0..<2).map { one.pixels[$0 * 4 + 3] }, [0, 255])
        let plain = try straight("palette2.png")
        XCTAssertTrue(stride(from: 3, to: plain.pixels.count, by: 4).allSatisfy { plain.pixels[$0] == 255 })
        // Premultiplied, the fully transparent entry is all zero.
        let bitmap = try PNGCodec.decode(pngFixture("palette2_trns.png"))
        XCTAssertEqual(bitmap[0, 0], SIMD4(0, 0, 0, 0))
    }

    func testGreyAndRGBColourKeysMatchAllBits() throws {
        // The generator makes pixels (1, 1) and (3, 2) the key and pixel (2, 0) the key with its
        // last sample's lowest bit flipped: that one must stay opaque, even at 16 bits where both
        // scale to (nearly) the same 8-bit value.
        for name in ["grey2_trns.png", "grey8_trns.png", "grey16_trns.png", "rgb8_trns.png", "rgb16_trns.png"] {
            let image = try straight(name)
            func alpha(_ x: Int, _ y: Int) -> UInt8 { image.pixels[(y * image.width + x) * 4 + 3] }
            XCTAssertEqual(alpha(1, 1), 0, name)
            XCTAssertEqual(alpha(3, 2), 0, name)
            XCTAssertEqual(alpha(2, 0), 255, name)
            let transparent = stride(from: 3, to: image.pixels.count, by: 4).filter { image.pixels[$0] == 0 }.count
            XCTAssertGreaterThanOrEqual(transparent, 2, name)
            XCTAssertLessThan(transparent, image.width * image.height, name)
        }
    }

    func testInterlacedDecodesLikeNonInterlaced() throws {
        for base in ["grey1_9x9", "palette2_trns_9x9", "rgb16_9x9", "rgba8_9x9"] {
            let interlacedFile = try pngFixture(base + "_adam7.png")
            XCTAssertEqual(pngHeaderFields(interlacedFile)?.interlace, 1, "\(base)_adam7.png is Adam7")
            XCTAssertEqual(pngHeaderFields(try pngFixture(base + ".png"))?.interlace, 0)
            let interlaced = try PNGCodec.decode(interlacedFile)
            let progressive = try PNGCodec.decode(pngFixture(base + ".png"))
            XCTAssertEqual(interlaced, progressive, base)
            XCTAssertFalse(interlaced.pixels.allSatisfy { $0 == 0 }, base)
        }
    }

    func testGammaProfilesAndTextAreIgnored() throws {
        // gAMA 1.0, odd cHRM, a broken iCCP, sRGB absolute, tEXt, tIME, pHYs: pixels as stored.
        let file = try pngFixture("ancillary_ignored.png")
        let types = Set(pngChunks(file).map(\.type))
        XCTAssertTrue(types.isSuperset(of: ["gAMA", "cHRM", "iCCP", "sRGB", "tEXt", "tIME"]))
        let all = try expectations()
        XCTAssertEqual(try straight("ancillary_ignored.png").pixels, try expectedPixels("ancillary_ignored.png", in: all))
        // A damaged ancillary chunk is skipped with a warning (libpng's default), not an error.
        XCTAssertEqual(try straight("ancillary_bad_crc.png").pixels, try expectedPixels("ancillary_bad_crc.png", in: all))
    }

    func testReadHeaderGivesTheSizeWithoutDecoding() throws {
        let size = try PNGCodec.readHeader(pngFixture("rgb16_9x9.png"))
        XCTAssertEqual(size.width, 9)
        XCTAssertEqual(size.height, 9)
        let bomb = try PNGCodec.readHeader(pngFixture("bomb.png"))
        XCTAssertEqual(bomb.width, 100_000)
        XCTAssertEqual(bomb.height, 100_000)
    }

    func testImageFromPNGKeepsScale() throws {
        let image = try Image(pngData: pngFixture("rgba8_9x9.png"), scale: 3)
        XCTAssertEqual(image.scale, 3)
        XCTAssertEqual(image.size, Size(width: 3, height: 3))
        XCTAssertEqual(image.bitmap, try PNGCodec.decode(pngFixture("rgba8_9x9.png")))
        XCTAssertEqual(try Image(pngData: image.pngData()).bitmap, image.bitmap)
    }
}
