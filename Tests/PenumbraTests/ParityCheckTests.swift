import XCTest
import Penumbra

/// The verdict `penumbra parity` prints, on made-up bitmaps whose differences are known:
/// the GPU cannot be made to differ on purpose, so the comparison path is tested here.
final class ParityCheckTests: XCTestCase {
    /// A 100x100 bitmap (40,000 channel values) with every value 100.
    func grey() -> Bitmap { Bitmap(width: 100, height: 100, pixels: [UInt8](repeating: 100, count: 100 * 100 * 4)) }

    func testEqualImagesPass() {
        let v = ParityCheck.check(reference: grey(), candidate: grey())
        XCTAssertTrue(v.passes)
        XCTAssertEqual(v.maxChannelDifference, 0)
        XCTAssertEqual(v.percentDiffering, 0)
        XCTAssertEqual(v.pixelsDiffering, 0)
        XCTAssertEqual(v.problems, [])
        XCTAssertEqual(v.summary, "100x100  identical  PASS")
    }

    /// The contract is byte identity: a single channel value off by one fails.
    func testOneValueOffByOneFails() {
        var gpu = grey()
        gpu[7, 3] = SIMD4(100, 100, 101, 100)
        let v = ParityCheck.check(reference: grey(), candidate: gpu)
        XCTAssertFalse(v.passes)
        XCTAssertEqual(v.maxChannelDifference, 1)
        XCTAssertEqual(v.pixelsDiffering, 1)
        XCTAssertEqual(v.problems, ["1 channel values (0.0025%) in 1 pixels differ, by at most 1"])
        XCTAssertEqual(v.summary, "100x100  max 1  0.0025% of values  1 px  FAIL")
    }

    func testFiguresCountValuesAndPixels() {
        var gpu = grey()
        gpu[7, 3] = SIMD4(100, 100, 140, 60)   // two values of one pixel, off by 40
        gpu[50, 60] = SIMD4(97, 100, 100, 100) // a second pixel, off by 3 the other way
        let v = ParityCheck.check(reference: grey(), candidate: gpu)
        XCTAssertFalse(v.passes)
        XCTAssertEqual(v.maxChannelDifference, 40)
        XCTAssertEqual(v.pixelsDiffering, 2)
        XCTAssertEqual(v.percentDiffering, 3.0 / 40_000 * 100, accuracy: 1e-12)
        XCTAssertEqual(v.summary, "100x100  max 40  0.0075% of values  2 px  FAIL")
    }

    func testDifferentSizesFail() {
        let v = ParityCheck.check(reference: grey(), candidate: Bitmap(width: 100, height: 99))
        XCTAssertFalse(v.passes)
        XCTAssertNil(v.difference)
        XCTAssertEqual(v.problems, ["sizes differ: reference 100x100, candidate 100x99"])
        XCTAssertTrue(v.summary.hasSuffix("FAIL  sizes differ: reference 100x100, candidate 100x99"), v.summary)
    }
}
