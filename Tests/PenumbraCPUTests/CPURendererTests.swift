import XCTest
@testable import PenumbraCPU
import PenumbraModel
import PenumbraCore

/// The CPU renderer's handling of the graphics state: paint, alpha, clip, save/restore, scale.
final class CPURendererTests: XCTestCase {
    func render(_ w: Int, _ h: Int, scale: Double = 1, background: Color? = nil, _ draw: (GraphicsContext) -> Void) -> Bitmap {
        let context = GraphicsContext(pixelWidth: w, pixelHeight: h, scale: scale, background: background)
        draw(context)
        return try! CPURenderer().render(context.displayList)
    }
    func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Path { var p = Path(); p.addRect(Rect(x: x, y: y, width: w, height: h)); return p }

    func testBackgroundAndSolidFillAreRoundedPremultiplied() {
        let b = render(4, 4, background: Color(red: 1, green: 0, blue: 0, alpha: 0.5)) { ctx in
            ctx.setFillColor(Color(red: 0, green: 0, blue: 1, alpha: 0.5))
            ctx.fill(rect(0, 0, 2, 4))
        }
        XCTAssertEqual(b[3, 0], SIMD4(128, 0, 0, 128)) // 0.5 * 255 = 127.5 rounds up
        // The background is stored first (128/255); then source-over:
        // src (0, 0, .5, .5) + dst (128, 0, 0, 128)/255 * .5 = (64.0, 0, 127.5, 191.5)/255
        XCTAssertEqual(b[0, 0], SIMD4(64, 0, 128, 192))
    }

    func testContextAlphaScalesTheSource() {
        let b = render(2, 2) { ctx in ctx.setAlpha(0.25); ctx.fill(rect(0, 0, 2, 2)) }
        XCTAssertEqual(b[1, 1], SIMD4(0, 0, 0, 64))
    }

    func testPartialCoverageBlendsByArea() {
        let b = render(3, 1, background: .white) { ctx in ctx.fill(rect(0.25, 0, 1, 1)) }
        // pixel 0 covered 3/4, pixel 1 covered 1/4 by black
        XCTAssertEqual(b[0, 0], SIMD4(64, 64, 64, 255))
        XCTAssertEqual(b[1, 0], SIMD4(191, 191, 191, 255))
        XCTAssertEqual(b[2, 0], SIMD4(255, 255, 255, 255))
    }

    func testClipIntersectsAndRestoreRemovesIt() {
        let b = render(10, 10) { ctx in
            ctx.saveGState()
            ctx.clip(to: rect(0, 0, 5, 10))
            ctx.clip(to: rect(0, 0, 10, 5))
            ctx.fill(rect(0, 0, 10, 10))
            ctx.restoreGState()
            ctx.setFillColor(Color(red: 1, green: 0, blue: 0))
            ctx.fill(rect(8, 8, 2, 2))
        }
        XCTAssertEqual(b[2, 2], SIMD4(0, 0, 0, 255))
        XCTAssertEqual(b[7, 2].w, 0)
        XCTAssertEqual(b[2, 7].w, 0)
        XCTAssertEqual(b[9, 9], SIMD4(255, 0, 0, 255))
    }

    func testAntiAliasedClipMultipliesCoverage() {
        let b = render(2, 1) { ctx in
            ctx.clip(to: rect(0, 0, 1.5, 1))
            ctx.fill(rect(0, 0, 2, 1))
        }
        XCTAssertEqual(b[0, 0].w, 255)
        XCTAssertEqual(b[1, 0].w, 128)
    }

    func testScaleFactorMapsPointsToPixels() {
        let b = render(20, 20, scale: 2) { ctx in ctx.fill(rect(1, 1, 2, 2)) }
        XCTAssertEqual(b[1, 1].w, 0)
        XCTAssertEqual(b[2, 2].w, 255)
        XCTAssertEqual(b[5, 5].w, 255)
        XCTAssertEqual(b[6, 6].w, 0)
    }

    func testSingularTransformDrawsNothing() {
        let b = render(4, 4) { ctx in ctx.scaleBy(x: 0, y: 1); ctx.fill(rect(0, 0, 4, 4)); ctx.stroke(rect(0, 0, 4, 4)) }
        XCTAssertEqual(b.pixels.reduce(0) { $0 + Int($1) }, 0)
    }

    func testEmptyClipClipsEverything() {
        let b = render(4, 4) { ctx in ctx.clip(to: Path()); ctx.fill(rect(0, 0, 4, 4)) }
        XCTAssertEqual(b.pixels.reduce(0) { $0 + Int($1) }, 0)
    }

    func testStrokeCoversTheBandAroundTheLine() {
        let b = render(10, 10) { ctx in
            ctx.setLineWidth(2)
            var p = Path(); p.move(to: Point(0, 5)); p.addLine(to: Point(10, 5))
            ctx.stroke(p)
        }
        XCTAssertEqual(b[5, 4].w, 255)
        XCTAssertEqual(b[5, 5].w, 255)
        XCTAssertEqual(b[5, 3].w, 0)
        XCTAssertEqual(b[5, 6].w, 0)
    }

    func testLayerGroupAlphaAppliesOnceToOverlappingContent() {
        let b = render(4, 1) { ctx in
            ctx.setAlpha(0.5)
            ctx.beginTransparencyLayer()
            ctx.fill(rect(0, 0, 3, 1))
            ctx.fill(rect(1, 0, 3, 1))
            ctx.endTransparencyLayer()
        }
        // Inside the layer both fills are opaque; the group is composited once at 0.5.
        XCTAssertEqual(b[1, 0], SIMD4(0, 0, 0, 128))
        XCTAssertEqual(b[3, 0], SIMD4(0, 0, 0, 128))
    }
}
