import XCTest
@testable import PenumbraCPU
import PenumbraModel
import PenumbraCore

/// Shadows as SCENE_FORMAT.md defines them, against the shared kernel.
final class ShadowTests: XCTestCase {
    func render(_ w: Int, _ h: Int, scale: Double = 1, _ draw: (GraphicsContext) -> Void) -> Bitmap {
        let context = GraphicsContext(pixelWidth: w, pixelHeight: h, scale: scale)
        draw(context)
        return try! CPURenderer().render(context.displayList)
    }

    func testShadowOfAOnePixelDotIsTheNormalisedKernelTimesTheShadowColour() {
        let blur = 3.0, sigma = blur / 2
        let kernel = GaussianKernel(sigma: sigma)
        let color = Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.9)
        // The dot sits at (5, 5); its shadow is offset by (20, 12) and lands centred on (25, 17).
        let out = render(40, 30) { ctx in
            ctx.setShadow(offset: Size(width: 20, height: 12), blur: blur, color: color)
            var p = Path(); p.addRect(Rect(x: 5, y: 5, width: 1, height: 1)); ctx.fill(p)
        }
        XCTAssertEqual(out[5, 5], SIMD4(0, 0, 0, 255))
        let r = kernel.radius
        for dy in -r...r { for dx in -r...r {
            let k = Double(kernel.weights[dx + r]) * Double(kernel.weights[dy + r]) / 65536 / 65536
            let expected = color.premultiplied * k
            let got = out[25 + dx, 17 + dy]
            for c in 0..<4 { XCTAssertEqual(Double(got[c]) / 255, expected[c], accuracy: 1.0 / 255, "(\(dx), \(dy)) channel \(c)") }
        } }
        XCTAssertEqual(out[25 + r + 1, 17].w, 0)
    }

    func testShadowOffsetAndBlurAreInBaseSpaceUnaffectedByTheTransform() {
        func shadowCentre(_ transform: (GraphicsContext) -> Void) -> (Double, Double) {
            let out = render(100, 100, scale: 2) { ctx in
                ctx.setShadow(offset: Size(width: -10, height: 6), blur: 0, color: .black)
                transform(ctx)
                var p = Path(); p.addRect(Rect(x: -2, y: -2, width: 4, height: 4)); ctx.fill(p)
            }
            // The op stays within x >= 40 px; the shadow lies left of it.
            var sx = 0.0, sy = 0.0, total = 0.0
            for y in 0..<100 { for x in 0..<40 { let a = Double(out[x, y].w); sx += a * (Double(x) + 0.5); sy += a * (Double(y) + 0.5); total += a } }
            return (sx / total, sy / total)
        }
        // The square is centred at (25, 25) points = (50, 50) px; the shadow at (50 - 20, 50 + 12) px
        // whatever the rotation or scale of the CTM.
        for t in [{ (c: GraphicsContext) in c.translateBy(x: 25, y: 25) },
                  { (c: GraphicsContext) in c.translateBy(x: 25, y: 25); c.rotate(by: -.pi / 4); c.scaleBy(x: 2, y: 0.5) }] {
            let (x, y) = shadowCentre(t)
            XCTAssertEqual(x, 30, accuracy: 1e-6); XCTAssertEqual(y, 62, accuracy: 1e-6)
        }
    }

    func testShadowIsCastFromOutsideTheCanvasAndClippedWithTheOp() {
        let out = render(20, 20) { ctx in
            ctx.setShadow(offset: Size(width: 30, height: 0), blur: 0, color: .black)
            var p = Path(); p.addRect(Rect(x: -25, y: 5, width: 10, height: 10)); ctx.fill(p)
        }
        XCTAssertEqual(out[7, 10].w, 255)   // the shadow of [-25, -15] lands on [5, 15]
        XCTAssertEqual(out[3, 10].w, 0)
        let clipped = render(20, 20) { ctx in
            var c = Path(); c.addRect(Rect(x: 0, y: 0, width: 10, height: 20)); ctx.clip(to: c)
            ctx.setShadow(offset: Size(width: 30, height: 0), blur: 0, color: .black)
            var p = Path(); p.addRect(Rect(x: -25, y: 5, width: 10, height: 10)); ctx.fill(p)
        }
        XCTAssertEqual(clipped[7, 10].w, 255); XCTAssertEqual(clipped[12, 10].w, 0)
    }

    func testLayerCastsOneShadowFromItsUnclippedContent() {
        let out = render(30, 10) { ctx in
            ctx.setShadow(offset: Size(width: 10, height: 0), blur: 0) // black at 1/3
            ctx.beginTransparencyLayer()
            var a = Path(); a.addRect(Rect(x: 0, y: 0, width: 5, height: 10)); ctx.fill(a)
            var b = Path(); b.addRect(Rect(x: 3, y: 0, width: 5, height: 10)); ctx.fill(b)
            ctx.endTransparencyLayer()
        }
        // One shadow of the union [0, 8): the overlap [3, 5) is not darker than the rest.
        XCTAssertEqual(out[14, 5], SIMD4(0, 0, 0, 85))
        XCTAssertEqual(out[17, 5], SIMD4(0, 0, 0, 85))
        XCTAssertEqual(out[19, 5].w, 0)
    }
}
