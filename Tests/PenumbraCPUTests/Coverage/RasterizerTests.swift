import XCTest
@testable import PenumbraModel
@testable import PenumbraCore
@testable import PenumbraCPU
@_spi(Stages) import PenumbraCore


/// Coverage against exact geometry: the rasterizer computes each pixel's covered area.
final class RasterizerTests: XCTestCase {
    private func shape(_ path: Path, _ t: PenumbraModel.AffineTransform = .identity, rule: FillRule = .nonzero) -> DeviceShape {
        DeviceShape(contours: path.flattened(transform: t).map(\.points), rule: rule)
    }

    /// The exact area of the intersection of pixel (i, j) with an axis-aligned rectangle.
    private func overlap(_ i: Int, _ j: Int, _ r: Rect) -> Double {
        let w = max(0, min(Double(i + 1), r.maxX) - max(Double(i), r.minX))
        let h = max(0, min(Double(j + 1), r.maxY) - max(Double(j), r.minY))
        return w * h
    }

    func testFractionalRectangleCoverageIsExactPerPixel() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let r = Rect(x: Double.random(in: 0...20, using: &generator), y: Double.random(in: 0...20, using: &generator),
                         width: Double.random(in: 0.1...30, using: &generator), height: Double.random(in: 0.1...30, using: &generator))
            var p = Path(); p.addRect(r)
            let region = PixelRect(x: 0, y: 0, width: 64, height: 64)
            let mask = Rasterizer.coverage(of: shape(p), in: region)
            for j in 0..<64 { for i in 0..<64 {
                // U8 coverage: the exact area within 1/255, plus half a level of quantisation.
                XCTAssertEqual(mask.unit(i, j), overlap(i, j, r), accuracy: 1.5 / 255, "pixel (\(i), \(j)) of \(r)")
            } }
        }
    }

    func testCircleTotalCoverageMatchesArea() {
        var p = Path(); p.addEllipse(in: Rect(x: 28.3, y: 31.7, width: 200, height: 200))
        let mask = Rasterizer.coverage(of: shape(p), in: PixelRect(x: 0, y: 0, width: 260, height: 260))
        let exact = Double.pi * 100 * 100
        XCTAssertEqual(mask.totalCoverage, exact, accuracy: exact * 0.001)
    }

    func testEvenOddFoldsOverlapsAndNonzeroFillsThem() {
        // Two nested squares drawn in the same direction: winding 2 in the inner one.
        var p = Path(); p.addRect(Rect(x: 0, y: 0, width: 10, height: 10)); p.addRect(Rect(x: 2, y: 2, width: 4, height: 4))
        let region = PixelRect(x: 0, y: 0, width: 12, height: 12)
        let nonzero = Rasterizer.coverage(of: shape(p), in: region)
        let evenOdd = Rasterizer.coverage(of: shape(p, rule: .evenOdd), in: region)
        XCTAssertEqual(nonzero[3, 3], 255)
        XCTAssertEqual(evenOdd[3, 3], 0)
        XCTAssertEqual(evenOdd[8, 8], 255)
        XCTAssertEqual(nonzero.totalCoverage, 100, accuracy: 1e-3)
        XCTAssertEqual(evenOdd.totalCoverage, 84, accuracy: 1e-3)
    }

    func testEdgesOutsideTheRegionKeepTheWindingOfTheRow() {
        // A rectangle that starts far left of the region and ends inside it.
        var p = Path(); p.addRect(Rect(x: -1000.25, y: 2.5, width: 1005, height: 3))
        let mask = Rasterizer.coverage(of: shape(p), in: PixelRect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(mask[0, 3], 255)
        XCTAssertEqual(mask[4, 3], 191)  // 0.75 x 255 = 191.25
        XCTAssertEqual(mask[5, 3], 0)
        XCTAssertEqual(mask[0, 2], 128)  // 127.5, halves up
        XCTAssertEqual(mask.totalCoverage, 4.75 * 3, accuracy: 0.05)  // each pixel within half a level
    }

    func testRegionOffsetMatchesTheSameShapeRasterizedAtTheOrigin() {
        var p = Path(); p.addEllipse(in: Rect(x: 10.3, y: 12.9, width: 31, height: 17))
        let full = Rasterizer.coverage(of: shape(p), in: PixelRect(x: 0, y: 0, width: 60, height: 60))
        let part = Rasterizer.coverage(of: shape(p), in: PixelRect(x: 20, y: 15, width: 13, height: 9))
        for y in 15..<24 { for x in 20..<33 { XCTAssertLessThanOrEqual(abs(Int(part[x, y]) - Int(full[x, y])), 1) } }
    }

    func testCoverageIsInvariantUnderWholePixelTranslation() {
        var p = Path(); p.addEllipse(in: Rect(x: 3.37, y: 4.11, width: 20.5, height: 11.25))
        let a = Rasterizer.coverage(of: shape(p), in: PixelRect(x: 0, y: 0, width: 40, height: 40))
        let b = Rasterizer.coverage(of: shape(p, AffineTransform(translationX: 7, y: 5)), in: PixelRect(x: 0, y: 0, width: 40, height: 40))
        for y in 0..<30 { for x in 0..<30 { XCTAssertEqual(a[x, y], b[x + 7, y + 5], "whole-pixel moves change no fixed-point fraction") } }
    }

    func testShapeTouchingTheRegionEdgesIsMirrorSymmetric() {
        // Edges that start exactly on the region's sides must not drift outside it from row to
        // row (a cell index of -1 once overwrote the previous row's last pixel).
        var p = Path(); p.addEllipse(in: Rect(x: 0, y: 0, width: 200, height: 200))
        let mask = Rasterizer.coverage(of: shape(p), in: PixelRect(x: 0, y: 0, width: 200, height: 200))
        for y in 0..<200 { for x in 0..<100 {
            // Within one level: the exact floor divisions of the fixed-point walk round every
            // crossing towards the edge's start, so a mirrored edge can land a level apart.
            XCTAssertLessThanOrEqual(abs(Int(mask[x, y]) - Int(mask[199 - x, y])), 1, "(\(x), \(y))")
            XCTAssertLessThanOrEqual(abs(Int(mask[x, y]) - Int(mask[x, 199 - y])), 1, "(\(x), \(y))")
        } }
    }
}

extension CoverageMask {
    /// The coverage at a pixel as a fraction (the U8 value / 255).
    func unit(_ x: Int, _ y: Int) -> Double { Double(self[x, y]) / 255 }
}
