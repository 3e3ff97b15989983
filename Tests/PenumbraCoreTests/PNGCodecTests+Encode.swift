// Encoding tests: round trips (opaque as RGB, otherwise RGBA), the exact
// un-premultiply/premultiply roundings, determinism and the chunks written,
// compression levels and filters (read back from level-0 files, whose zlib
// stream is plain stored blocks), and the sizes a PNG cannot have.
import Foundation
import XCTest
import PenumbraTestSupport
@testable import PenumbraModel
@testable import PenumbraCore

/// Counts outcomes from concurrent work under a lock.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var failures = 0
    private(set) var total = 0
    func record(ok: Bool) {
        lock.lock(); defer { lock.unlock() }
        total += 1
        if !ok { failures += 1 }
    }
}

extension PNGCodecTests {
    /// Random valid premultiplied pixels (every channel <= alpha); alpha 255 everywhere when `opaque`.
    func randomBitmap(width: Int, height: Int, opaque: Bool, seed: UInt64) -> Bitmap {
        var rng = SplitMix64(seed: seed)
        var bitmap = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let a: UInt8 = opaque ? 255 : [0, 1, 2, 127, 128, 254, 255, UInt8.random(in: 0...255, using: &rng)][Int.random(in: 0..<8, using: &rng)]
                bitmap[x, y] = SIMD4(UInt8.random(in: 0...a, using: &rng), UInt8.random(in: 0...a, using: &rng),
                                     UInt8.random(in: 0...a, using: &rng), a)
            }
        }
        return bitmap
    }

    func testOpaqueBitmapsRoundTripAsRGB() throws {
        let bitmap = randomBitmap(width: 37, height: 23, opaque: true, seed: 1)
        let png = try PNGCodec.encode(bitmap)
        let header = try XCTUnwrap(pngHeaderFields(png))
        XCTAssertEqual(header.colourType, 2, "opaque pixels are written as RGB")
        XCTAssertEqual(header.bitDepth, 8)
        XCTAssertEqual(header.interlace, 0)
        XCTAssertEqual(try PNGCodec.decode(png), bitmap)
    }

    func testTranslucentBitmapsRoundTripExactlyAsRGBA() throws {
        // For valid premultiplied values (c <= a), round(round(c * 255 / a) * a / 255) == c.
        let bitmap = randomBitmap(width: 41, height: 29, opaque: false, seed: 2)
        XCTAssertFalse(bitmap.isOpaque)
        let png = try PNGCodec.encode(bitmap)
        XCTAssertEqual(pngHeaderFields(png)?.colourType, 6, "translucent pixels are written as RGBA")
        XCTAssertEqual(pngHeaderFields(png)?.bitDepth, 8)
        XCTAssertEqual(try PNGCodec.decode(png), bitmap)
    }

    func testUnpremultiplyAndPremultiplyRoundings() throws {
        // (premultiplied in, straight in the file, premultiplied after reading back)
        let cases: [(SIMD4<UInt8>, SIMD4<UInt8>, SIMD4<UInt8>)] = [
            (SIMD4(10, 20, 30, 40), SIMD4(64, 128, 191, 40), SIMD4(10, 20, 30, 40)), // 63.75, 127.5 (half up), 191.25
            (SIMD4(127, 0, 1, 254), SIMD4(128, 0, 1, 254), SIMD4(127, 0, 1, 254)), // 127.5 -> 128 -> 127.498 -> 127
            (SIMD4(1, 0, 0, 3), SIMD4(85, 0, 0, 3), SIMD4(1, 0, 0, 3)),
            (SIMD4(1, 1, 0, 2), SIMD4(128, 128, 0, 2), SIMD4(1, 1, 0, 2)), // 127.5 -> 128
            (SIMD4(0, 0, 0, 0), SIMD4(0, 0, 0, 0), SIMD4(0, 0, 0, 0)),
            (SIMD4(255, 0, 9, 255), SIMD4(255, 0, 9, 255), SIMD4(255, 0, 9, 255)),
            (SIMD4(200, 50, 0, 100), SIMD4(255, 128, 0, 100), SIMD4(100, 50, 0, 100)), // invalid c > a: clamped
        ]
        var bitmap = Bitmap(width: cases.count, height: 1)
        for (x, c) in cases.enumerated() { bitmap[x, 0] = c.0 }
        let png = try PNGCodec.encode(bitmap)
        let file = try PNGCodec.decodeStraight(png, maxPixels: 100)
        let back = try PNGCodec.decode(png)
        for (x, c) in cases.enumerated() {
            let i = x * 4
            XCTAssertEqual(SIMD4(file.pixels[i], file.pixels[i + 1], file.pixels[i + 2], file.pixels[i + 3]), c.1,
                           "straight value in the file for \(c.0)")
            XCTAssertEqual(back[x, 0], c.2, "read back for \(c.0)")
        }
    }

    /// The encoder makes rows straight as it filters them: the file holds `unpremultiply` of every
    /// colour byte at every alpha (c above a included), the alpha as it was, on one thread and
    /// several, for every filter (the rows above are made straight too).
    func testEveryPremultipliedByteIsStoredAsUnpremultiplyGivesIt() throws {
        var bitmap = Bitmap(width: 256, height: 256)
        for a in 0..<256 { for c in 0..<256 {
            bitmap[c, a] = SIMD4(UInt8(c), UInt8(255 - c), UInt8((c * 7) & 255), UInt8(a))
        } }
        var expected = [UInt8](repeating: 0, count: 256 * 256 * 4)
        for a in 0..<256 { for c in 0..<256 {
            let p = bitmap[c, a], i = (a * 256 + c) * 4
            for k in 0..<3 { expected[i + k] = unpremultiply(p[k], alpha: p.w) }
            expected[i + 3] = p.w
        } }
        for filter in [PNGFilter.none, .paeth, .adaptive] {
            for threads in [1, 3] {
                let png = try PNGCodec.encode(bitmap, compressionLevel: 1, filter: filter, threads: threads)
                let file = try PNGCodec.decodeStraight(png, maxPixels: 1 << 16)
                XCTAssert(file.pixels == expected, "\(filter), \(threads) threads: a straight byte differs from unpremultiply's")
            }
        }
    }

    func testEncodingIsDeterministicWithOnlySRGB() throws {
        for opaque in [true, false] {
            let bitmap = randomBitmap(width: 19, height: 7, opaque: opaque, seed: 3)
            let first = try PNGCodec.encode(bitmap)
            let second = try PNGCodec.encode(Bitmap(width: 19, height: 7, pixels: bitmap.pixels))
            XCTAssertEqual(first, second, "same pixels, same bytes")
            XCTAssertEqual(Array(first.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let chunks = pngChunks(first)
            let types = chunks.map(\.type)
            XCTAssertEqual(types.first, "IHDR")
            XCTAssertEqual(types.last, "IEND")
            XCTAssertEqual(Set(types), ["IHDR", "sRGB", "IDAT", "IEND"], "no tIME, text, gAMA or cHRM")
            XCTAssertEqual(chunks.first { $0.type == "sRGB" }?.data, [0], "sRGB, perceptual intent")
            XCTAssertLessThan(try XCTUnwrap(types.firstIndex(of: "sRGB")), try XCTUnwrap(types.firstIndex(of: "IDAT")))
        }
    }

    func testEveryFilterAndLevelRoundTrips() throws {
        let bitmap = randomBitmap(width: 16, height: 9, opaque: false, seed: 4)
        for filter in PNGFilter.allCases {
            for level in [0, 1, 6, 9] {
                let png = try PNGCodec.encode(bitmap, compressionLevel: level, filter: filter)
                XCTAssertEqual(try PNGCodec.decode(png), bitmap, "\(filter) level \(level)")
            }
        }
    }

    func testTheChosenFilterIsUsedOnEveryRow() throws {
        let bitmap = randomBitmap(width: 12, height: 6, opaque: false, seed: 5)
        let filterBytes: [PNGFilter: UInt8] = [.none: 0, .sub: 1, .up: 2, .average: 3, .paeth: 4]
        for (filter, byte) in filterBytes {
            let png = try PNGCodec.encode(bitmap, compressionLevel: 0, filter: filter)
            let raw = try XCTUnwrap(inflateStoredIDAT(png), "level 0 writes stored blocks")
            let stride = 1 + 12 * 4
            XCTAssertEqual(raw.count, stride * 6)
            let rowFilters = (0..<6).map { raw[$0 * stride] }
            // The first row keeps the chosen type too (the row above counts as zeros).
            XCTAssertEqual(rowFilters, [UInt8](repeating: byte, count: 6), "\(filter)")
        }
    }

    func testCompressionLevelsAreHonouredAndChecked() throws {
        var bitmap = Bitmap(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 { bitmap[x, y] = SIMD4(UInt8(x * 4), UInt8(y * 4), 0, 255) } }
        let stored = try PNGCodec.encode(bitmap, compressionLevel: 0)
        let best = try PNGCodec.encode(bitmap, compressionLevel: 9)
        XCTAssertGreaterThan(stored.count, 64 * 64 * 3, "level 0 stores the rows")
        XCTAssertLessThan(best.count, stored.count / 4, "level 9 compresses a gradient")
        for level in [-1, 10, 100] {
            XCTAssertThrowsError(try PNGCodec.encode(bitmap, compressionLevel: level)) { error in
                XCTAssertEqual((error as? PNGError)?.message, "PNG: compression level \(level) is outside 0...9")
            }
        }
    }

    func testZeroSizeBitmapsCannotBeEncoded() {
        for (w, h) in [(0, 0), (0, 5), (5, 0)] {
            XCTAssertThrowsError(try PNGCodec.encode(Bitmap(width: w, height: h))) { error in
                let message = (error as? PNGError)?.message ?? ""
                XCTAssertTrue(message.hasPrefix("PNG: cannot encode a \(w) x \(h) bitmap"), message)
                XCTAssertTrue(message.contains("at least 1 pixel"), message)
            }
        }
    }

    func testBitmapsWithTheWrongPixelCountAreRefused() {
        var bitmap = Bitmap(width: 2, height: 2)
        bitmap.pixels = [1, 2, 3]
        XCTAssertThrowsError(try PNGCodec.encode(bitmap)) { error in
            XCTAssertEqual((error as? PNGError)?.message, "PNG: the 2 x 2 bitmap holds 3 bytes, not 16")
        }
    }

    func testConcurrentEncodingAndDecodingAgree() throws {
        // Each call owns its libpng state; results must not depend on what runs beside them.
        let bitmaps = (0..<8).map { randomBitmap(width: 33, height: 17, opaque: $0 % 2 == 0, seed: 100 + UInt64($0)) }
        let expected = try bitmaps.map { try PNGCodec.encode($0) }
        let results = ResultBox()
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            let k = i % bitmaps.count
            let png = try? PNGCodec.encode(bitmaps[k])
            let back = png.flatMap { try? PNGCodec.decode($0) }
            results.record(ok: png == expected[k] && back == bitmaps[k])
        }
        XCTAssertEqual(results.failures, 0)
        XCTAssertEqual(results.total, 64)
    }

    func testOnePixelBitmapsRoundTrip() throws {
        for pixel in [SIMD4<UInt8>(0, 0, 0, 0), SIMD4(255, 255, 255, 255), SIMD4(3, 2, 1, 4)] {
            var bitmap = Bitmap(width: 1, height: 1)
            bitmap[0, 0] = pixel
            XCTAssertEqual(try PNGCodec.decode(PNGCodec.encode(bitmap)), bitmap)
        }
    }
}
