// Encoders round-trip: PNG and lossless WebP exactly, JPEG and lossy WebP
// within their loss; the JPEG options land in the file (SOF2 for
// progressive, the luma sampling factors for 4:2:0 / 4:4:4); transparency
// is flattened on white for JPEG.
import XCTest
import Penumbra

final class EncoderTests: XCTestCase {
    func sample() throws -> Bitmap { try Fixtures.expected("lossless.webp") }  // has alpha

    func decode(_ data: [UInt8]) throws -> Bitmap { try ImageCodecs.standard.decode(data, maxPixels: 1 << 20).frames[0] }

    func testLosslessRoundTrips() throws {
        let bitmap = try sample()
        XCTAssertEqual(try decode(PNGEncoder().encode(bitmap)), bitmap)
        // Lossless WebP keeps straight RGBA; premultiplied pixels survive when un-premultiplying round-trips.
        let opaque = try Fixtures.expected("baseline.jpg")
        XCTAssertEqual(try decode(WebPEncoder(lossless: true).encode(opaque)), opaque)
        let translucent = try decode(WebPEncoder(lossless: true).encode(bitmap))
        XCTAssertLessThanOrEqual(Fixtures.maxDifference(translucent, bitmap), 1)
    }

    func testLossyRoundTrips() throws {
        let opaque = try Fixtures.expected("baseline.jpg")
        for encoder in [JPEGEncoder(quality: 95, fullChroma: true), JPEGEncoder(quality: 90), JPEGEncoder(progressive: true)] as [any ImageEncoder] {
            let back = try decode(encoder.encode(opaque))
            XCTAssertEqual(back.width, opaque.width)
            XCTAssertLessThan(Fixtures.maxDifference(back, opaque), 60, "\(encoder)")
        }
        let webp = try decode(WebPEncoder(quality: 90).encode(opaque))
        XCTAssertLessThan(Fixtures.maxDifference(webp, opaque), 60)
        // Lower quality gives fewer bytes.
        XCTAssertLessThan(try JPEGEncoder(quality: 20).encode(opaque).count, try JPEGEncoder(quality: 95).encode(opaque).count)
        XCTAssertLessThan(try WebPEncoder(quality: 10).encode(opaque).count, try WebPEncoder(quality: 95).encode(opaque).count)
    }

    func testJPEGOptionsLandInTheFile() throws {
        let opaque = try Fixtures.expected("baseline.jpg")
        func sof(_ d: [UInt8]) -> (marker: UInt8, lumaSampling: UInt8)? {
            for i in 0..<(d.count - 12) where d[i] == 0xFF && (d[i + 1] == 0xC0 || d[i + 1] == 0xC2) {
                return (d[i + 1], d[i + 11])
            }
            return nil
        }
        XCTAssertEqual(sof(try JPEGEncoder().encode(opaque))?.marker, 0xC0)
        XCTAssertEqual(sof(try JPEGEncoder().encode(opaque))?.lumaSampling, 0x22, "4:2:0 by default")
        XCTAssertEqual(sof(try JPEGEncoder(fullChroma: true).encode(opaque))?.lumaSampling, 0x11)
        XCTAssertEqual(sof(try JPEGEncoder(progressive: true).encode(opaque))?.marker, 0xC2)
        XCTAssertThrowsError(try JPEGEncoder(quality: 0).encode(opaque))
        XCTAssertThrowsError(try WebPEncoder(quality: 101).encode(opaque))
    }

    func testJPEGFlattensOnWhite() throws {
        var clear = Bitmap(width: 16, height: 16)
        clear[3, 3] = SIMD4(0, 0, 128, 128)  // half-transparent blue, premultiplied
        let back = try decode(JPEGEncoder(quality: 100, fullChroma: true).encode(clear))
        XCTAssertTrue(back.isOpaque)
        XCTAssertGreaterThanOrEqual(back[12, 12][0], 250, "transparent becomes white")
        XCTAssertLessThan(Fixtures.maxDifference(Bitmap(width: 1, height: 1, pixels: [back[3, 3][0], back[3, 3][1], back[3, 3][2], 255]),
                                                 Bitmap(width: 1, height: 1, pixels: [127, 127, 255, 255])), 24)
    }
}
