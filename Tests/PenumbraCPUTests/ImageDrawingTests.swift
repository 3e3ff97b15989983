import XCTest
@testable import PenumbraCPU
import PenumbraModel
import PenumbraCore

/// drawImage's exactness properties and UIKit's image attributes on the CPU reference renderer.
final class ImageDrawingTests: XCTestCase {
    /// A random premultiplied image with some transparent and opaque pixels.
    func randomImage(_ w: Int, _ h: Int, seed: UInt64) -> Image {
        var state = seed
        func next() -> UInt8 { state = state &* 6364136223846793005 &+ 1442695040888963407; return UInt8(truncatingIfNeeded: state >> 56) }
        var b = Bitmap(width: w, height: h)
        for y in 0..<h { for x in 0..<w {
            let a = (x + y) % 7 == 0 ? 0 : ((x * y) % 5 == 0 ? 255 : next())
            b[x, y] = SIMD4(premultiply(next(), alpha: a), premultiply(next(), alpha: a), premultiply(next(), alpha: a), a)
        } }
        return Image(bitmap: b)
    }

    func render(_ w: Int, _ h: Int, scale: Double = 1, _ draw: (GraphicsContext) -> Void) -> Bitmap {
        let context = GraphicsContext(pixelWidth: w, pixelHeight: h, scale: scale)
        draw(context)
        return try! CPURenderer().render(context.displayList)
    }

    func testOneToOneAtWholePixelsReproducesThePixels() {
        let image = randomImage(13, 9, seed: 1)
        let out = render(20, 20) { $0.draw(image, at: Point(3, 5)) }
        for y in 0..<9 { for x in 0..<13 { XCTAssertEqual(out[x + 3, y + 5], image.bitmap[x, y], "(\(x), \(y))") } }
        XCTAssertEqual(out[2, 5].w, 0); XCTAssertEqual(out[16, 5].w, 0)
    }

    func testScaledImageAtItsPointSizeReproducesThePixels() {
        // A 2x image drawn at its point size on a 2x canvas maps texel to pixel 1:1.
        var image = randomImage(8, 6, seed: 2); image.scale = 2
        let out = render(20, 20, scale: 2) { $0.draw(image, at: Point(1, 2)) }
        for y in 0..<6 { for x in 0..<8 { XCTAssertEqual(out[x + 2, y + 4], image.bitmap[x, y]) } }
    }

    func testQuarterTurnAboutAPixelCornerReproducesThePixelsRotated() {
        let image = randomImage(7, 5, seed: 3)
        // Rotate by +90 degrees (clockwise on screen) about (10, 10): (x, y) -> (10 - (y - 10), 10 + (x - 10)).
        let out = render(20, 20) { ctx in
            ctx.translateBy(x: 10, y: 10); ctx.rotate(by: .pi / 2)
            ctx.draw(image, at: .zero)
        }
        for y in 0..<5 { for x in 0..<7 {
            // Texel (x, y) covers [x, x+1) x [y, y+1), which lands on pixel (10 - y - 1, 10 + x).
            XCTAssertEqual(out[10 - y - 1, 10 + x], image.bitmap[x, y], "texel (\(x), \(y))")
        } }
    }

    func testMagnificationSamplesBilinearlyBetweenTexelCentres() {
        var b = Bitmap(width: 2, height: 1)
        b[0, 0] = SIMD4(0, 0, 0, 255); b[1, 0] = SIMD4(255, 255, 255, 255)
        let out = render(8, 1) { $0.draw(Image(bitmap: b), in: Rect(x: 0, y: 0, width: 8, height: 1)) }
        // Pixel centres 0.5...7.5 map to texel positions 0.125...1.875; centres at 0.5 and 1.5.
        XCTAssertEqual(out[0, 0].x, 0); XCTAssertEqual(out[1, 0].x, 0)          // clamped to the edge texel
        XCTAssertEqual(out[3, 0].x, UInt8(roundHalfUp(0.375 * 255)))            // 0.875 - 0.5
        XCTAssertEqual(out[6, 0].x, 255); XCTAssertEqual(out[7, 0].x, 255)
    }

    func testCropTemplateAndFlip() {
        let image = randomImage(10, 10, seed: 4)
        let cropped = image.cropped(to: Rect(x: 2.5, y: 3, width: 4, height: 2.2))!
        XCTAssertEqual(cropped.bitmap.width, 5); XCTAssertEqual(cropped.bitmap.height, 3) // rounded out: x 2...7, y 3...6
        XCTAssertEqual(cropped.bitmap[0, 0], image.bitmap[2, 3])
        XCTAssertNil(image.cropped(to: Rect(x: 20, y: 0, width: 3, height: 3)))

        let tint = Color(red: 1, green: 0, blue: 0, alpha: 0.5)
        let template = render(10, 10) { $0.draw(image.withRenderingMode(.template, tint: tint), at: .zero) }
        for (x, y) in [(1, 1), (4, 7), (9, 2)] {
            let a = Float(image.bitmap[x, y].w) / 255 * 0.5
            XCTAssertEqual(template[x, y], SIMD4(UInt8(roundHalfUp(Double(a) * 255)), 0, 0, UInt8(roundHalfUp(Double(a) * 255))))
        }
        let flipped = render(10, 10) { $0.draw(image.flippedHorizontally(), at: .zero) }
        for y in 0..<10 { for x in 0..<10 { XCTAssertEqual(flipped[x, y], image.bitmap[9 - x, y]) } }
    }

    func testNineSliceStretchKeepsCapsAndStretchesTheMiddle() {
        // 3x3 image, caps of 1 pixel on every side, drawn 7x5: corners stay, edges stretch.
        let image = randomImage(3, 3, seed: 5).resizable(capInsets: EdgeInsets(top: 1, left: 1, bottom: 1, right: 1), mode: .stretch)
        let out = render(7, 5) { $0.draw(image, in: Rect(x: 0, y: 0, width: 7, height: 5)) }
        XCTAssertEqual(out[0, 0], image.bitmap[0, 0]); XCTAssertEqual(out[6, 0], image.bitmap[2, 0])
        XCTAssertEqual(out[0, 4], image.bitmap[0, 2]); XCTAssertEqual(out[6, 4], image.bitmap[2, 2])
        // The middle region is one texel: every middle pixel is that texel (clamped to its own edges).
        for y in 1..<4 { for x in 1..<6 { XCTAssertEqual(out[x, y], image.bitmap[1, 1]) } }
        for x in 1..<6 { XCTAssertEqual(out[x, 0], image.bitmap[1, 0]) }
    }

    func testNineSliceTileRepeatsTheMiddleAtNaturalSizeFromItsTopLeft() {
        // 4x3 image with a 2-texel-wide middle (caps 1 left and right), drawn 8 wide: the middle
        // (6 pixels) holds three whole tiles of 2 texels.
        let image = randomImage(4, 3, seed: 6).resizable(capInsets: EdgeInsets(top: 1, left: 1, bottom: 1, right: 1), mode: .tile)
        let out = render(8, 3) { $0.draw(image, in: Rect(x: 0, y: 0, width: 8, height: 3)) }
        for x in 1..<7 { XCTAssertEqual(out[x, 1], image.bitmap[1 + (x - 1) % 2, 1], "x \(x)") }
        XCTAssertEqual(out[7, 1], image.bitmap[3, 1])
    }

    func testCapsShrinkProportionallyWhenTheRectangleIsSmallerThanThem() {
        // Caps of 15 and 5 in a 10-wide rectangle shrink to 7.5 and 2.5.
        func axis(at distance: Double) -> FixedImageAxis {
            ImageSamplingPlan.axis((distance, 0, 0), destination: 10, pixels: 40, scale: 1, leadingCap: 15, trailingCap: 5,
                                   mode: .stretch)
        }
        XCTAssertEqual(axis(at: 0).leadingEnd, FixedAffine.q24(7.5))
        XCTAssertEqual(axis(at: 0).trailingStart, FixedAffine.q24(7.5))
        // Halfway into the leading cap samples position 7.5 (texel 7 alone); halfway into the
        // trailing cap, position 37.5 (texel 37 alone).
        XCTAssertEqual(axis(at: 3.75).sample(0, 0).x0, 7)
        XCTAssertEqual(axis(at: 3.75).sample(0, 0).weight, 0)
        XCTAssertEqual(axis(at: 8.75).sample(0, 0).x0, 37)
        XCTAssertEqual(axis(at: 8.75).sample(0, 0).weight, 0)
    }
}
