// FixedTests: the integer primitives of docs/ARITHMETIC.md against their
// definitions, exhaustively where the domain is small.
import XCTest
import PenumbraTestSupport
import PenumbraModel
import PenumbraCore

final class FixedTests: XCTestCase {
    func testDiv255IsRoundedDivisionOnItsWholeDomain() {
        for x in Int32(0)...Int32(65_535 + 127) {
            let expected = (x + 127) / 255
            if Fixed.div255(x) != expected { XCTFail("div255(\(x)) = \(Fixed.div255(x)), expected \(expected)"); return }
        }
        XCTAssertEqual(Fixed.div255(SIMD4<Int32>(0, 127, 128, 65_025)), SIMD4(0, 0, 1, 255))
    }

    func testRoundQ12RoundsHalvesUpOnBothSigns() {
        XCTAssertEqual(Fixed.roundQ12(2048), 1)
        XCTAssertEqual(Fixed.roundQ12(2047), 0)
        XCTAssertEqual(Fixed.roundQ12(-2048), 0)
        XCTAssertEqual(Fixed.roundQ12(-2049), -1)
        var g = SplitMix64(state: 3)
        for _ in 0..<10_000 {
            let x = Int32(truncatingIfNeeded: g.next() % (1 << 28)) - (1 << 27)
            XCTAssertEqual(Double(Fixed.roundQ12(x)), (Double(x) / 4096 + 0.5).rounded(.down))
        }
    }

    func testDivideTruncatingRoundsTowardsZero() {
        XCTAssertEqual(Fixed.divideTruncating(7, 2), 3)
        XCTAssertEqual(Fixed.divideTruncating(-7, 2), -3)
        XCTAssertEqual(Fixed.divideTruncating(0, 5), 0)
    }

    func testSquareRootIsTheFloorOfTheRealRoot() {
        var values: [UInt32] = [0, 1, 2, 3, 4, 15, 16, 17, UInt32.max, UInt32.max - 1, 1 << 24, (1 << 24) - 1]
        var g = SplitMix64(state: 11)
        for _ in 0..<20_000 { values.append(UInt32(truncatingIfNeeded: g.next())) }
        for k: UInt32 in 1...65_535 { values += [k * k, k * k - 1] }
        for n in values {
            let r = UInt64(Fixed.squareRoot(n))
            if !(r * r <= UInt64(n) && (r + 1) * (r + 1) > UInt64(n)) { XCTFail("squareRoot(\(n)) = \(r)"); return }
        }
    }

    func testUnit8RoundsHalfUpAndClamps() {
        XCTAssertEqual(Fixed.unit8(0.0), 0)
        XCTAssertEqual(Fixed.unit8(1.0), 255)
        XCTAssertEqual(Fixed.unit8(-0.5), 0)
        XCTAssertEqual(Fixed.unit8(2.0), 255)
        XCTAssertEqual(Fixed.unit8(Double.nan), 0)
        XCTAssertEqual(Fixed.unit8(0.5), 128)
        for k in 0...255 {
            XCTAssertEqual(Fixed.unit8(Double(k) / 255), UInt8(k))
        }
    }

    func testUnpremultipliedQ12() {
        XCTAssertEqual(Fixed.unpremultipliedQ12(0, alpha: 0), 0)
        XCTAssertEqual(Fixed.unpremultipliedQ12(255, alpha: 255), 4096)
        XCTAssertEqual(Fixed.unpremultipliedQ12(64, alpha: 128), 2048)
        for a in Int32(1)...255 {
            for c in stride(from: Int32(0), through: a, by: 7) {
                let exact = Double(c) * 4096 / Double(a)
                XCTAssertEqual(Double(Fixed.unpremultipliedQ12(c, alpha: a)), exact, accuracy: 0.5)
            }
        }
    }
}
