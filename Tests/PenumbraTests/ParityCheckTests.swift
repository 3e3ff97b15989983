import XCTest
import Penumbra

/// The verdict `penumbra parity` prints, on made-up bitmaps whose differences are known:
/// the GPU cannot be made to differ on purpose, so the comparison path is tested here.
final class ParityCheckTests: XCTestCase {
    /// A 100x100 bitmap (10,000 pixels: one pixel may be off by more than 2; 40,000 channel
    /// values: 40 may be off by more than 1) with every value 100.
    func grey() -> Bitmap { Bitmap(width: 100, height: 100, pixels: [UInt8](repeating: 100, count: 100 * 100 * 4)) }

    func testEqualImagesPass() {
        let v = ParityCheck.check(reference: grey(), candidate: grey())
        XCTAssertTrue(v.passes)
        XCTAssertEqual(v.maxChannelDifference, 0)
        XCTAssertEqual(v.percentOffByMoreThanOne, 0)
        XCTAssertEqual(v.pixelsOffByMoreThanTwo, 0)
        XCTAssertEqual(v.problems, [])
        XCTAssertEqual(v.summary, "100x100  max 0  >1: 0.0000%  >2: 0 px  PASS")
    }

    func testOneFlippedPixelIsAllowedTwoAreNot() {
        var gpu = grey()
        gpu[7, 3] = SIMD4(100, 100, 140, 100) // one channel off by 40
        let one = ParityCheck.check(reference: grey(), candidate: gpu)
        XCTAssertTrue(one.passes, one.problems.joined())
        XCTAssertEqual(one.maxChannelDifference, 40)
        XCTAssertEqual(one.pixelsOffByMoreThanTwo, 1)

        gpu[50, 60] = SIMD4(97, 100, 100, 100) // a second pixel, off by 3 the other way
        let two = ParityCheck.check(reference: grey(), candidate: gpu)
        XCTAssertFalse(two.passes)
        XCTAssertEqual(two.maxChannelDifference, 40)
        XCTAssertEqual(two.pixelsOffByMoreThanTwo, 2)
        XCTAssertEqual(two.percentOffByMoreThanOne, 2.0 / 40_000 * 100, accuracy: 1e-12)
        XCTAssertEqual(two.problems, ["2 pixels off by more than 2 (at most 1 allowed)"])
        XCTAssertEqual(two.summary, "100x100  max 40  >1: 0.0050%  >2: 2 px  FAIL")
    }

    func testMoreThanAThousandthOfValuesOffByTwoFails() {
        var gpu = grey()
        for i in 0..<40 { gpu.pixels[i * 4 + i % 4] = 102 } // 40 values off by 2: exactly 0.1%
        let atLimit = ParityCheck.check(reference: grey(), candidate: gpu)
        XCTAssertTrue(atLimit.passes, atLimit.problems.joined())
        XCTAssertEqual(atLimit.pixelsOffByMoreThanTwo, 0)

        gpu.pixels[40 * 4] = 98 // the 41st
        let over = ParityCheck.check(reference: grey(), candidate: gpu)
        XCTAssertFalse(over.passes)
        XCTAssertEqual(over.maxChannelDifference, 2)
        XCTAssertEqual(over.pixelsOffByMoreThanTwo, 0)
        XCTAssertEqual(over.percentOffByMoreThanOne, 0.1025, accuracy: 1e-9)
        XCTAssertEqual(over.problems, ["0.1025% of channel values off by more than 1 (at most 0.1% allowed)"])
        XCTAssertEqual(over.summary, "100x100  max 2  >1: 0.1025%  >2: 0 px  FAIL")
    }

    func testDifferencesOfOneAlwaysPass() {
        var gpu = grey()
        for i in gpu.pixels.indices { gpu.pixels[i] = 101 }
        let v = ParityCheck.check(reference: grey(), candidate: gpu)
        XCTAssertTrue(v.passes)
        XCTAssertEqual(v.maxChannelDifference, 1)
        XCTAssertEqual(v.percentOffByMoreThanOne, 0)
    }

    func testDifferentSizesFail() {
        let v = ParityCheck.check(reference: grey(), candidate: Bitmap(width: 100, height: 99))
        XCTAssertFalse(v.passes)
        XCTAssertNil(v.difference)
        XCTAssertEqual(v.problems, ["sizes differ: reference 100x100, candidate 100x99"])
        XCTAssertTrue(v.summary.hasSuffix("FAIL  sizes differ: reference 100x100, candidate 100x99"), v.summary)
    }
}
