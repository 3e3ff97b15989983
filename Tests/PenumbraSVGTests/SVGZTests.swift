// `.svgz`: gzip-compressed documents (a suite file compressed here with libdeflate) draw what
// the plain document draws, and a zip bomb stops at the inflated-size limit with an error
// naming `<svg>`.
import XCTest
import CLibDeflate
import Penumbra
import PenumbraCPU
@testable import PenumbraSVG

final class SVGZTests: XCTestCase {
    typealias S = SVGTestSupport

    /// resvg's structure/symbol/simple-case.svg (MIT, /work/shared/tools/svg-suite).
    static let suiteFile = """
        <svg id="svg1" viewBox="0 0 200 200" xmlns="http://www.w3.org/2000/svg"
             xmlns:xlink="http://www.w3.org/1999/xlink">
            <title>Simple case</title>

            <symbol id="symbol1">
                <rect id="rect1" x="20" y="20" width="160" height="160" fill="green"/>
            </symbol>
            <use id="use1" xlink:href="#symbol1"/>

            <!-- image frame -->
            <rect id="frame" x="1" y="1" width="198" height="198" fill="none" stroke="black"/>
        </svg>
        """

    static func gzip(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        let compressor = libdeflate_alloc_compressor(level)!
        defer { libdeflate_free_compressor(compressor) }
        var out = [UInt8](repeating: 0, count: libdeflate_gzip_compress_bound(compressor, bytes.count))
        let n = bytes.withUnsafeBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in libdeflate_gzip_compress(compressor, i.baseAddress, i.count, o.baseAddress, o.count) }
        }
        return Array(out[..<n])
    }

    func render(_ document: SVGDocument) throws -> Bitmap {
        let ctx = GraphicsContext(pixelWidth: 50, pixelHeight: 50)
        try document.draw(in: ctx, width: 50, height: 50)
        return try CPURenderer().render(ctx.displayList)
    }

    func testCompressedSuiteFileDrawsAsThePlainOne() throws {
        let plain = Array(Self.suiteFile.utf8)
        let packed = Self.gzip(plain)
        XCTAssertEqual(Array(packed.prefix(2)), [0x1f, 0x8b])
        let a = try render(SVGDocument(bytes: plain)), b = try render(SVGDocument(bytes: packed))
        XCTAssertTrue(a.pixels == b.pixels, "the .svgz draws differently from the .svg")
        XCTAssertEqual(S.pixel(b, 25, 25), [0, 128, 0, 255])
    }

    func testConcatenatedMembersAreOneDocument() throws {
        let plain = Array(Self.suiteFile.utf8)
        let packed = Self.gzip(Array(plain[..<100])) + Self.gzip(Array(plain[100...]))
        XCTAssertEqual(S.pixel(try render(SVGDocument(bytes: packed)), 25, 25), [0, 128, 0, 255])
    }

    func testZipBombStopsAtTheLimit() {
        // 80 MiB of spaces after the root element's start: about 80 KB compressed.
        let bomb = Self.gzip(Array("<svg xmlns='http://www.w3.org/2000/svg'>".utf8) + [UInt8](repeating: 0x20, count: 80 << 20), level: 1)
        XCTAssertLessThan(bomb.count, 1 << 20)
        XCTAssertThrowsError(try SVGDocument(bytes: bomb)) { error in
            let e = error as? SVGError
            XCTAssertEqual(e?.element, "<svg>")
            XCTAssertTrue(e?.message.contains("inflates to more than") ?? false, "\(error)")
        }
    }

    func testSmallerLimitAndCorruptStream() {
        var limits = SVGLimits()
        limits.maxDocumentBytes = 1000
        let packed = Self.gzip(Array(Self.suiteFile.utf8) + [UInt8](repeating: 0x20, count: 2000))
        XCTAssertThrowsError(try SVGDocument(bytes: packed, baseDirectory: nil, assetsDirectory: nil, codecs: .png, limits: limits))
        var corrupt = Self.gzip(Array(Self.suiteFile.utf8))
        corrupt[corrupt.count / 2] ^= 0xff
        XCTAssertThrowsError(try SVGDocument(bytes: corrupt)) { error in
            XCTAssertEqual((error as? SVGError)?.element, "<svg>")
        }
    }
}
