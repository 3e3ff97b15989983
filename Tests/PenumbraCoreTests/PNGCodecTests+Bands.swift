// Tests of the banded, parallel encoder: large images (many deflate bands)
// round-trip for every filter and level, the bytes do not depend on the
// thread count or the run, the concatenated zlib stream is well formed
// (header, stored blocks of every band, Adler-32 of the whole stream), and
// adaptive filtering picks libpng's minimum-sum filter on every row.
import XCTest
import PenumbraTestSupport
@testable import PenumbraModel
@testable import PenumbraCore

extension PNGCodecTests {
    /// A 1500 x 1100 image: hashed noise on the left, a smooth gradient on the right, and a
    /// translucent band when `opaque` is false. Rows are 4500+ bytes, so a file has dozens of bands.
    func bandTestBitmap(opaque: Bool) -> Bitmap {
        let (width, height) = (1500, 1100)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { p in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    var h = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
                    h = (h ^ (h >> 13)) &* 0x5bd1_e995
                    let a: UInt8 = !opaque && y % 300 < 40 ? UInt8(truncatingIfNeeded: x) : 255
                    let rgb: (Int, Int, Int) = x < 600
                        ? (Int(h & 0xFF), Int((h >> 8) & 0xFF), Int((h >> 16) & 0xFF))
                        : (x * 255 / width, y * 255 / height, (x + y) % 256)
                    p[i] = premultiply(UInt8(rgb.0), alpha: a)
                    p[i + 1] = premultiply(UInt8(rgb.1), alpha: a)
                    p[i + 2] = premultiply(UInt8(rgb.2), alpha: a)
                    p[i + 3] = a
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    func testLargeImagesRoundTripForEveryFilterAndLevel() throws {
        for opaque in [true, false] {
            let bitmap = bandTestBitmap(opaque: opaque)
            for filter in PNGFilter.allCases {
                for level in [0, 1, 6, 9] {
                    let png = try PNGCodec.encode(bitmap, compressionLevel: level, filter: filter)
                    XCTAssertEqual(pngHeaderFields(png)?.colourType, opaque ? 2 : 6)
                    if level == 0 { XCTAssertGreaterThan(pngChunks(png).filter { $0.type == "IDAT" }.count, 1, "IDATs are split") }
                    XCTAssertTrue(try PNGCodec.decode(png) == bitmap, "opaque \(opaque) \(filter) level \(level)")
                }
            }
        }
    }

    func testBytesDoNotDependOnThreadCountOrRun() throws {
        for opaque in [true, false] {
            let bitmap = bandTestBitmap(opaque: opaque)
            for (filter, level) in [(PNGFilter.adaptive, 6), (.paeth, 1), (.none, 9)] {
                let reference = try PNGCodec.encode(bitmap, compressionLevel: level, filter: filter, threads: 1)
                for threads in [2, 3, 7, 16, 0] {
                    let other = try PNGCodec.encode(bitmap, compressionLevel: level, filter: filter, threads: threads)
                    XCTAssertTrue(other == reference, "opaque \(opaque) \(filter) level \(level) on \(threads) threads")
                }
                XCTAssertTrue(try PNGCodec.encode(bitmap, compressionLevel: level, filter: filter) == reference, "second run")
            }
        }
    }

    /// Level 0: every band's stored blocks, read in order, give back the filtered rows (filter
    /// none: type byte 0 then the RGB bytes), and the trailer is the Adler-32 of all of them.
    func testTheBandedZlibStreamIsWellFormed() throws {
        let bitmap = bandTestBitmap(opaque: true)
        for level in [0, 1, 6, 9] {
            let png = try PNGCodec.encode(bitmap, compressionLevel: level, filter: .none)
            let stream = pngChunks(png).filter { $0.type == "IDAT" }.flatMap(\.data)
            let header = UInt16(stream[0]) << 8 | UInt16(stream[1])
            XCTAssertEqual(stream[0], 0x78, "deflate, 32 KiB window")
            XCTAssertEqual(header % 31, 0, "zlib header check bits")
            XCTAssertEqual(stream[1] >> 6, level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3, "FLEVEL of level \(level)")
            XCTAssertEqual(stream[1] & 0x20, 0, "no preset dictionary")
            guard level == 0 else { continue }
            let raw = try XCTUnwrap(inflateStoredIDAT(png))
            var expected: [UInt8] = []
            expected.reserveCapacity(bitmap.height * (1 + bitmap.width * 3))
            for y in 0..<bitmap.height {
                expected.append(0)
                for x in 0..<bitmap.width {
                    let i = (y * bitmap.width + x) * 4
                    expected += bitmap.pixels[i..<i + 3]
                }
            }
            XCTAssertTrue(raw == expected, "the stored blocks hold the rows in order")
            var (a, b): (UInt32, UInt32) = (1, 0)
            for byte in expected { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
            let trailer = stream.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            XCTAssertEqual(trailer, b << 16 | a, "Adler-32 of the whole stream")
        }
    }

    /// Adaptive: each row's filter type is the first with the smallest sum of the filtered
    /// bytes as signed magnitudes, and the row holds that filter's bytes.
    func testAdaptivePicksTheMinimumSumFilterOnEveryRow() throws {
        var bitmap = randomBitmap(width: 37, height: 24, opaque: true, seed: 11)
        for y in 0..<24 where y % 3 == 0 { for x in 0..<37 { bitmap[x, y] = SIMD4(UInt8(x * 6), UInt8(y * 9), 7, 255) } }
        for y in 0..<24 where y % 5 == 1 { for x in 0..<37 { bitmap[x, y] = SIMD4(200, 200, 200, 255) } }
        let png = try PNGCodec.encode(bitmap, compressionLevel: 0, filter: .adaptive)
        let raw = try XCTUnwrap(inflateStoredIDAT(png))
        let n = 37 * 3
        XCTAssertEqual(raw.count, 24 * (n + 1))
        var previous = [UInt8](repeating: 0, count: n)
        var typesSeen = Set<UInt8>()
        for y in 0..<24 {
            let row = (0..<37).flatMap { x in [bitmap[x, y].x, bitmap[x, y].y, bitmap[x, y].z] }
            let candidates = (0..<5).map { referenceFilter($0, row: row, previous: previous, bpp: 3) }
            let sums = candidates.map { $0.reduce(0) { $0 + min(Int($1), 256 - Int($1)) } }
            let best = sums.firstIndex(of: sums.min()!)!
            XCTAssertEqual(Int(raw[y * (n + 1)]), best, "row \(y), sums \(sums)")
            XCTAssertEqual(Array(raw[y * (n + 1) + 1..<(y + 1) * (n + 1)]), candidates[best], "row \(y)")
            typesSeen.insert(raw[y * (n + 1)])
            previous = row
        }
        XCTAssertGreaterThan(typesSeen.count, 1, "the test image makes different rows pick different filters")
    }

    /// PNG filter `type` (0...4) of `row`, written from the specification.
    private func referenceFilter(_ type: Int, row: [UInt8], previous: [UInt8], bpp: Int) -> [UInt8] {
        (0..<row.count).map { i in
            let a = i >= bpp ? Int(row[i - bpp]) : 0, b = Int(previous[i]), c = i >= bpp ? Int(previous[i - bpp]) : 0
            let predictor: Int
            switch type {
            case 0: predictor = 0
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            default:
                let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            }
            return UInt8(truncatingIfNeeded: Int(row[i]) - predictor)
        }
    }
}
