import XCTest
import PenumbraTestSupport
@testable import PenumbraModel
@testable import PenumbraCore
@testable import PenumbraCPU
@_spi(Stages) import PenumbraCore

/// The sparse coverage mask: spans against its dense values, and the rasterizer's use of it.
final class CoverageMaskTests: XCTestCase {
    /// A random dense mask with zero runs, constant-looking runs and ragged edges.
    private func randomDense(_ rng: inout SplitMix64, _ region: PixelRect) -> [UInt8] {
        (0..<region.area).map { _ in
            switch rng.next() % 4 {
            case 0: return 0
            case 1: return 255
            default: return UInt8(truncatingIfNeeded: rng.next())
            }
        }
    }

    func testDenseRoundTripAndAccessorsAgree() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<50 {
            let region = PixelRect(x: Int(rng.next() % 21) - 10, y: Int(rng.next() % 21) - 10,
                                   width: Int(rng.next() % 40) + 1, height: Int(rng.next() % 20) + 1)
            let dense = randomDense(&rng, region)
            let mask = CoverageMask(region: region, values: dense)
            XCTAssertEqual(mask.denseValues(), dense)
            var total = 0
            for y in region.y..<region.maxY {
                for x in region.x..<region.maxX {
                    let v = dense[(y - region.y) * region.width + x - region.x]
                    XCTAssertEqual(mask[x, y], v)
                    total += Int(v)
                }
            }
            XCTAssertEqual(mask.totalCoverage, Double(total) / 255, accuracy: 1e-9)
            XCTAssertEqual(mask[region.x - 1, region.y], 0)
            XCTAssertEqual(mask[region.x, region.maxY], 0)
        }
    }

    /// `multiplyRow` and `forEachSpan` over windows that start and end outside the region and
    /// inside spans.
    func testRowWindowsMatchTheDenseValues() {
        var rng = SplitMix64(seed: 12)
        let region = PixelRect(x: 5, y: -3, width: 30, height: 6)
        let dense = randomDense(&rng, region)
        let mask = CoverageMask(region: region, values: dense)
        func expected(_ x: Int, _ y: Int) -> UInt8 {
            guard x >= region.x, x < region.maxX, y >= region.y, y < region.maxY else { return 0 }
            return dense[(y - region.y) * region.width + x - region.x]
        }
        for _ in 0..<200 {
            let y = Int(rng.next() % 10) - 5, x0 = Int(rng.next() % 50) - 5, width = Int(rng.next() % 40) + 1
            var row = (0..<width).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let factors = row
            row.withUnsafeMutableBufferPointer { mask.multiplyRow(y: y, x0: x0, into: $0) }
            for i in 0..<width {
                // div255 of the product: the rounded quotient.
                let exact = (Int(factors[i]) * Int(expected(x0 + i, y)) + 127) / 255
                XCTAssertEqual(Int(row[i]), exact, "x \(x0 + i) y \(y)")
            }
            var seen = [UInt8](repeating: 0, count: width)
            var lastEnd = Int.min
            mask.forEachSpan(inRow: y, from: x0, to: x0 + width) { x, count, values, constant in
                XCTAssertGreaterThanOrEqual(x, max(lastEnd, x0)); XCTAssertLessThanOrEqual(x + count, x0 + width)
                lastEnd = x + count
                for i in 0..<count { seen[x - x0 + i] = values?[i] ?? constant }
            }
            for i in 0..<width { XCTAssertEqual(seen[i], expected(x0 + i, y)) }
        }
    }

    func testConstantMaskAndProduct() {
        let region = PixelRect(x: 0, y: 0, width: 8, height: 4)
        let half = CoverageMask(region: region, constant: 128)
        XCTAssertEqual(half.totalCoverage, 32 * 128 / 255)
        XCTAssertEqual(CoverageMask(region: region, constant: 0).spanBounds.isEmpty, true)
        let other = CoverageMask(region: PixelRect(x: 4, y: 2, width: 10, height: 10), constant: 128)
        let product = half.multiplied(by: other)
        XCTAssertEqual(product.region, region)
        XCTAssertEqual(product[5, 3], 64)  // 128 x 128 / 255 = 64.25
        XCTAssertEqual(product[3, 3], 0)
        XCTAssertEqual(product[5, 1], 0)
        XCTAssertEqual(product.spanBounds, PixelRect(x: 4, y: 2, width: 4, height: 2))
    }

    /// The point of sparse coverage: a ring 10 px wide of radius 500 stores values only near
    /// its edges and holds the solid band and the hole as runs, not a million values.
    func testStrokedRingIsStoredAsSpans() {
        var path = Path()
        path.addEllipse(in: Rect(x: 12, y: 12, width: 1000, height: 1000))
        path.addEllipse(in: Rect(x: 22, y: 22, width: 980, height: 980))
        let shape = DeviceShape(contours: path.flattened(transform: .identity).map(\.points), rule: .evenOdd)
        let region = PixelRect(x: 0, y: 0, width: 1024, height: 1024)
        let mask = Rasterizer.coverage(of: shape, in: region)
        XCTAssertLessThan(mask.storage.count, region.area / 8, "explicit values should be few")
        XCTAssertTrue(mask.spans.contains { $0.isConstant && $0.constant == 255 })
        XCTAssertEqual(mask[512, 512], 0)
        XCTAssertEqual(mask[512, 17], 255)
        let ringArea = Double.pi * (500 * 500 - 490 * 490)
        XCTAssertEqual(mask.totalCoverage, ringArea, accuracy: ringArea * 0.001)
        // Spans start and end on the rasterizer's blocks of 16 cells, so they may hold a few zeros.
        let bounds = mask.spanBounds
        XCTAssertEqual(bounds.y, 12); XCTAssertEqual(bounds.height, 1000)
        XCTAssertTrue((0...12).contains(bounds.x) && (1012...1024).contains(bounds.maxX), "\(bounds)")
    }
}
