// The filter graph's extents and regions of interest (FilterGraph.swift,
// FilterEvaluator.swift): each filter's extent rule from SCENE_FORMAT.md's
// table, clampToExtent, the ROI rule (a crop after a blur is exactly the blur
// cropped, however the region is asked for), the blur as the shadow's kernel
// per channel, blendWithMask and composite formulas, and the seed's vignette
// against a hand computation.

import Foundation
import PenumbraModel
import PenumbraCore
import PenumbraCPU
import PenumbraTestSupport
import XCTest

final class FilterGraphTests: XCTestCase {
    let evaluator = FilterEvaluator(services: .cpu)
    let photo = ColorFilterTests.randomBitmap(width: 60, height: 44, seed: 11)

    /// `bitmap`'s pixels (covering `from`) inside `to`.
    func cut(_ bitmap: Bitmap, from: PixelRect, to: PixelRect) -> Bitmap {
        var out = Bitmap(width: to.width, height: to.height)
        for y in 0..<to.height { for x in 0..<to.width { out[x, y] = bitmap[to.x - from.x + x, to.y - from.y + y] } }
        return out
    }

    func testExtentsFollowTheTable() {
        let source = FilterNode.bitmap(photo)
        let e = PixelRect(x: 0, y: 0, width: 60, height: 44)
        XCTAssertEqual(source.extent, .finite(e))
        XCTAssertEqual(FilterNode.filtered(source, .gaussianBlur(radius: 3)).extent, .finite(e.grown(by: 9)))
        XCTAssertEqual(FilterNode.filtered(source, .gaussianBlur(radius: 2.1)).extent, .finite(e.grown(by: 7)))
        XCTAssertEqual(FilterNode.filtered(source, .colorInvert).extent, .finite(e))
        XCTAssertEqual(FilterNode.filtered(source, .unsharpMask(radius: 2.5, intensity: 0.5)).extent, .finite(e))
        XCTAssertEqual(source.cropped(to: Rect(x: 10.5, y: -3, width: 100, height: 20.2)).extent,
                       .finite(PixelRect(x: 10, y: 0, width: 50, height: 18)))
        XCTAssertEqual(FilterNode.filtered(source, .affineTransform(AffineTransform(scaleX: 0.5, y: 2))).extent,
                       .finite(PixelRect(x: 0, y: 0, width: 30, height: 88)))
        XCTAssertEqual(FilterNode.filtered(source, .affineTransform(AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0.5, ty: -1.25))).extent,
                       .finite(PixelRect(x: 0, y: -2, width: 61, height: 45)))
        XCTAssertEqual(FilterNode.filtered(source, .clampToExtent).extent, .infinite)
        XCTAssertEqual(FilterNode.generator(.constantColor(.white)).extent, .infinite)
        let small = FilterNode.bitmap(Bitmap(width: 5, height: 5)).cropped(to: Rect(x: 0, y: 0, width: 5, height: 5))
        let shifted = FilterNode.filtered(small, .affineTransform(AffineTransform(translationX: 100, y: 100)))
        XCTAssertEqual(FilterNode.filtered(source, .composite(mode: .normal, background: shifted)).extent,
                       .finite(PixelRect(x: 0, y: 0, width: 105, height: 105)))
        XCTAssertEqual(FilterNode.filtered(source, .blendWithMask(mask: shifted, background: nil)).extent, .finite(e))
    }

    func testOutsideTheExtentIsTransparentAndClampRepeatsTheEdges() throws {
        let region = PixelRect(x: -5, y: -3, width: 70, height: 50)
        let plain = try evaluator.render(.bitmap(photo), in: region)
        XCTAssertEqual(plain[0, 0], .zero)
        XCTAssertEqual(plain[5, 3], photo[0, 0])
        let clamped = try evaluator.render(.filtered(.bitmap(photo), .clampToExtent), in: region)
        for (x, y) in [(0, 0), (3, 40), (69, 49), (66, 2), (30, 0)] {
            let sx = max(0, min(59, x - 5)), sy = max(0, min(43, y - 3))
            XCTAssertEqual(clamped[x, y], photo[sx, sy], "(\(x), \(y))")
        }
        // Far away from the extent: still the corner.
        let far = try evaluator.render(.filtered(.bitmap(photo), .clampToExtent), in: PixelRect(x: 1000, y: -900, width: 2, height: 2))
        XCTAssertEqual(far[1, 1], photo[59, 0])
    }

    func testBlurIsTheShadowKernelOnEachChannel() throws {
        let node = FilterNode.filtered(.bitmap(photo), .gaussianBlur(radius: 2))
        let extent = try XCTUnwrap(node.extent.rect)
        let out = try evaluator.render(node, in: extent)
        let kernel = GaussianKernel(sigma: 2)
        for channel in 0..<4 {
            var plane = AlphaPlane(width: extent.width, height: extent.height)
            for y in 0..<44 { for x in 0..<60 { plane[x + 6, y + 6] = photo[x, y][channel] } }
            let blurred = plane.blurred(with: kernel)
            for y in 0..<extent.height { for x in 0..<extent.width {
                XCTAssertEqual(out[x, y][channel], blurred[x, y])
                XCTAssertLessThanOrEqual(out[x, y][min(channel, 2)], out[x, y][3])
            } }
        }
    }

    func testACropAfterABlurIsTheBlurCropped() throws {
        for filter in [ImageFilter.gaussianBlur(radius: 3), .unsharpMask(radius: 2.5, intensity: 0.8), .gaussianBlur(radius: 0.5)] {
            let blurred = FilterNode.filtered(.bitmap(photo), filter)
            let whole = try XCTUnwrap(blurred.extent.rect)
            let full = try evaluator.render(blurred, in: whole)
            for rect in [PixelRect(x: 10, y: 7, width: 30, height: 20), PixelRect(x: -9, y: -9, width: 5, height: 60),
                         PixelRect(x: 55, y: 40, width: 20, height: 10)] {
                let crop = Rect(x: Double(rect.x), y: Double(rect.y), width: Double(rect.width), height: Double(rect.height))
                let cropped = blurred.cropped(to: crop)
                let r = try XCTUnwrap(cropped.extent.rect)
                XCTAssertEqual(try evaluator.render(cropped, in: r), cut(full, from: whole, to: r), "\(filter) \(rect)")
            }
        }
        // An infinite chain (clamp, blur) asked for a small region equals the same pixels of a larger one.
        let chain = FilterNode.filtered(.filtered(.bitmap(photo), .clampToExtent), .gaussianBlur(radius: 4))
        let big = PixelRect(x: -30, y: -30, width: 120, height: 104)
        let large = try evaluator.render(chain, in: big)
        let small = PixelRect(x: -12, y: 30, width: 25, height: 20)
        XCTAssertEqual(try evaluator.render(chain, in: small), cut(large, from: big, to: small))
    }

    func testBlendWithMaskAndComposite() throws {
        let mask = ColorFilterTests.randomBitmap(width: 60, height: 44, seed: 3)
        let back = ColorFilterTests.randomBitmap(width: 60, height: 44, seed: 5)
        let e = PixelRect(x: 0, y: 0, width: 60, height: 44)
        let blended = try evaluator.render(.filtered(.bitmap(photo), .blendWithMask(mask: .bitmap(mask), background: .bitmap(back))), in: e)
        for y in stride(from: 0, to: 44, by: 3) {
            for x in stride(from: 0, to: 60, by: 3) {
                let m = mask[x, y]
                let luma = 0.2126 * Double(m.x) + 0.7152 * Double(m.y) + 0.0722 * Double(m.z)
                for lane in 0..<4 {
                    let expected = (Double(back[x, y][lane]) * (255 - luma) + Double(photo[x, y][lane]) * luma) / 255
                    XCTAssertLessThanOrEqual(abs(Double(blended[x, y][lane]) - expected), 1.01, "(\(x), \(y)) lane \(lane)")
                }
            }
        }
        for mode in [BlendMode.multiply, .sourceIn, .hue] {
            let out = try evaluator.render(.filtered(.bitmap(photo), .composite(mode: mode, background: .bitmap(back))), in: e)
            for (x, y) in [(0, 0), (17, 9), (59, 43)] {
                let s = SIMD4<Int32>(truncatingIfNeeded: photo[x, y]), d = SIMD4<Int32>(truncatingIfNeeded: back[x, y])
                XCTAssertEqual(SIMD4<Int32>(truncatingIfNeeded: out[x, y]), mode.blend(source: s, destination: d))
            }
        }
    }

    /// The seed: mask = radialGradient(centre, 0.85 x min(w, h) / 2 -> max(w, h) / 2, white -> black),
    /// blendWithMask(photo, mask) over transparent, on a flat opaque colour, at pixels computed by hand.
    func testSeedVignetteAgainstAHandComputation() throws {
        let (w, h) = (200, 100)
        var flat = Bitmap(width: w, height: h)
        for y in 0..<h { for x in 0..<w { flat[x, y] = SIMD4(200, 120, 40, 255) } }
        let r0 = 0.85 * 50.0, r1 = 100.0
        let mask = FilterNode.generator(.radialGradient(startCenter: Point(x: 100, y: 50), startRadius: r0,
                                                        endCenter: Point(x: 100, y: 50), endRadius: r1,
                                                        stops: [GradientStop(offset: 0, color: .white), GradientStop(offset: 1, color: .black)],
                                                        extendStart: true, extendEnd: true))
        let out = try evaluator.render(.filtered(.bitmap(flat), .blendWithMask(mask: mask, background: nil)),
                                       in: PixelRect(x: 0, y: 0, width: w, height: h))
        for (x, y) in [(100, 50), (130, 50), (160, 50), (0, 50), (199, 99), (100, 0), (60, 20)] {
            let d = ((Double(x) + 0.5 - 100) * (Double(x) + 0.5 - 100) + (Double(y) + 0.5 - 50) * (Double(y) + 0.5 - 50)).squareRoot()
            let t = min(1, max(0, (d - r0) / (r1 - r0)))
            let m = 1 - t  // white -> black: the grey level, and so the mask's luma
            for (lane, c) in [200.0, 120, 40, 255].enumerated() {
                XCTAssertLessThanOrEqual(abs(Double(out[x, y][lane]) - c * m), 1.5, "(\(x), \(y)) lane \(lane) distance \(d)")
            }
        }
        XCTAssertEqual(out[0, 0], .zero)  // beyond the end radius: black mask, transparent
        XCTAssertEqual(out[100, 50], SIMD4(200, 120, 40, 255))
    }

    func testAffineTransformDrawsAsDrawImage() throws {
        let node = FilterNode.filtered(.bitmap(photo), .affineTransform(AffineTransform(translationX: 3, y: 2)))
        let out = try evaluator.render(node, in: try XCTUnwrap(node.extent.rect))
        XCTAssertEqual(out.width, 60); XCTAssertEqual(out.height, 44)
        // A whole-pixel translation reproduces the pixels, in the transformed extent's coordinates.
        XCTAssertEqual(out[0, 0], photo[0, 0]); XCTAssertEqual(out[59, 43], photo[59, 43])
        let doubled = FilterNode.filtered(.bitmap(photo), .affineTransform(AffineTransform(scaleX: 2, y: 2)))
        let big = try evaluator.render(doubled, in: try XCTUnwrap(doubled.extent.rect))
        XCTAssertEqual(big.width, 120)
        XCTAssertEqual(big[40, 30][3] > 0, photo[20, 15][3] > 0 || photo[19, 14][3] > 0 || photo[20, 14][3] > 0 || photo[19, 15][3] > 0)
    }

    func testRegionsOverTheLimitAreRefused() {
        let tiny = FilterEvaluator(services: .cpu, maxPixels: 1000)
        let node = FilterNode.filtered(.bitmap(photo), .gaussianBlur(radius: 1))
        XCTAssertThrowsError(try tiny.render(node, in: PixelRect(x: 0, y: 0, width: 60, height: 44))) { error in
            XCTAssertTrue("\(error)".contains("over the limit"), "\(error)")
        }
    }
}
