// MipmapTests: `interpolation`'s Core half: the level rule at its boundary
// scales (axis-aligned, anisotropic, rotated, clamped), the 2 x 2 reduction
// against a hand computation and a naive reference, nearest's lower texel on
// an exact boundary, the per-region levels of a nine-slice draw, and the cache
// (built once, never stale after an edit).
import XCTest
import PenumbraModel
import PenumbraCore

final class MipmapTests: XCTestCase {
    func opaque(_ w: Int, _ h: Int) -> Bitmap {
        var b = Bitmap(width: w, height: h)
        for i in stride(from: 3, to: b.pixels.count, by: 4) { b.pixels[i] = 255 }
        return b
    }

    /// The level a draw of a w x h image into a w x h rect under `transform` samples.
    func level(_ transform: AffineTransform, width: Int = 64, height: Int = 64,
               interpolation: ImageInterpolation = .high) -> Int32 {
        let draw = ImageDraw(bitmap: opaque(width, height), scale: 1, transform: transform,
                             rect: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), interpolation: interpolation)
        let plan = ImageSamplingPlan(draw)
        XCTAssertEqual(Set(plan.levels.map(\.level)).count, 1, "a plain image has one level")
        XCTAssertEqual(plan.mipmaps == nil, plan.levels[4].level == 0)
        return plan.levels[4].level
    }

    func testLevelRuleAtBoundaryScales() {
        func scaled(_ s: Double) -> AffineTransform { AffineTransform(scaleX: s, y: s) }
        XCTAssertEqual(level(scaled(2)), 0)
        XCTAssertEqual(level(scaled(1)), 0)
        XCTAssertEqual(level(scaled(0.5000001)), 0, "just above 0.5 is plain bilinear")
        XCTAssertEqual(level(scaled(0.5)), 1, "s = 0.5 exactly: log2(1/s) = 1")
        XCTAssertEqual(level(scaled(0.4999999)), 1)
        XCTAssertEqual(level(scaled(0.2500001)), 1)
        XCTAssertEqual(level(scaled(0.25)), 2)
        XCTAssertEqual(level(scaled(0.1)), 3, "log2(10) = 3.32")
        XCTAssertEqual(level(scaled(0.125)), 3)
        // s is the square root of |det|: anisotropic scales and mirrors count by their product.
        XCTAssertEqual(level(AffineTransform(scaleX: 1, y: 0.25)), 1)
        XCTAssertEqual(level(AffineTransform(scaleX: 1, y: 0.2500001)), 0)
        XCTAssertEqual(level(AffineTransform(scaleX: -0.25, y: 0.25)), 2)
        XCTAssertEqual(level(AffineTransform(scaleX: 4, y: 0.01)), 2, "s = 0.2")
    }

    func testLevelRuleUnderRotation() {
        for angle in [0.3, 1.0, 2.5, -0.7] {
            func turned(_ s: Double) -> AffineTransform {
                AffineTransform(a: s * cos(angle), b: s * sin(angle), c: -s * sin(angle), d: s * cos(angle), tx: 7, ty: 3)
            }
            XCTAssertEqual(level(turned(0.5 * (1 + 1e-9))), 0, "angle \(angle)")
            XCTAssertEqual(level(turned(0.5 * (1 - 1e-9))), 1, "angle \(angle)")
            XCTAssertEqual(level(turned(0.25 * (1 - 1e-9))), 2, "angle \(angle)")
            XCTAssertEqual(level(turned(0.3)), 1, "angle \(angle)")
        }
    }

    func testLevelIsClampedWhereTheImageIsOnePixelAndOnlyHighAndDefaultMipmap() {
        XCTAssertEqual(MipLevels.maxLevel(width: 4, height: 4), 2)
        XCTAssertEqual(MipLevels.maxLevel(width: 5, height: 1), 3)
        XCTAssertEqual(MipLevels.maxLevel(width: 1, height: 1), 0)
        XCTAssertEqual(level(AffineTransform(scaleX: 0.001, y: 0.001), width: 4, height: 4), 2)
        XCTAssertEqual(level(AffineTransform(scaleX: 0.001, y: 0.001), width: 1, height: 1), 0)
        XCTAssertEqual(level(AffineTransform(scaleX: 0.1, y: 0.1), interpolation: .default), 3)
        XCTAssertEqual(level(AffineTransform(scaleX: 0.1, y: 0.1), interpolation: .low), 0)
        XCTAssertEqual(level(AffineTransform(scaleX: 0.1, y: 0.1), interpolation: .none), 0)
        // A rect smaller than the image scales it just as the transform does.
        let draw = ImageDraw(bitmap: opaque(100, 60), scale: 1, transform: .identity, rect: Rect(x: 3, y: 4, width: 50, height: 30))
        XCTAssertEqual(ImageSamplingPlan(draw).levels[4].level, 1)
        XCTAssertEqual(ImageSamplingPlan(draw).mipmaps, MipAtlasLayout(
            entries: [MipAtlasEntry(region: PixelRect(x: 0, y: 0, width: 100, height: 60), level: 1, originX: 0, originY: 0)],
            width: 50, height: 30))
    }

    func testReductionAgainstAHandComputation() {
        // Red channel of a 3 x 3 image (green and blue 0, alpha 255).
        let red: [UInt8] = [10, 11, 200,
                            12, 14, 100,
                            7, 0, 255]
        var b = opaque(3, 3)
        for i in 0..<9 { b.pixels[4 * i] = red[i] }
        let one = MipLevels.reduce(b, PixelRect(x: 0, y: 0, width: 3, height: 3))
        XCTAssertEqual(one.width, 2); XCTAssertEqual(one.height, 2)
        // (10+11+12+14+2)>>2 = 12 (11.75); the edge column repeated: (2x200 + 2x100 + 2)>>2 = 150;
        // the edge row repeated: (2x7 + 2x0 + 2)>>2 = 4 (3.5 rounds half up); (4x255 + 2)>>2 = 255.
        XCTAssertEqual([one[0, 0].x, one[1, 0].x, one[0, 1].x, one[1, 1].x], [12, 150, 4, 255])
        XCTAssertEqual([one[0, 0].w, one[1, 1].w], [255, 255])
        let two = MipLevels.reduce(one, PixelRect(x: 0, y: 0, width: 2, height: 2))
        XCTAssertEqual(two.width, 1); XCTAssertEqual(two.height, 1)
        XCTAssertEqual(two[0, 0].x, 105, "(12 + 150 + 4 + 255 + 2) >> 2")
        // A region of a larger image: its own texels only.
        var big = opaque(5, 4)
        for y in 0..<4 { for x in 0..<5 { big[x, y] = SIMD4(UInt8(x * 50), UInt8(y * 60), 0, 255) } }
        let sub = MipLevels.reduce(big, PixelRect(x: 1, y: 1, width: 3, height: 3))
        XCTAssertEqual(sub.width, 2)
        XCTAssertEqual(sub[0, 0], SIMD4(75, 90, 0, 255), "(50+100+50+100+2)>>2, (60+60+120+120+2)>>2")
        XCTAssertEqual(sub[1, 1], SIMD4(150, 180, 0, 255), "texel (3, 3) repeated four times")
    }

    func testReductionMatchesANaiveAverageOnEveryChannel() {
        var state: UInt64 = 7
        // The last size is large enough to be cut into bands on several threads.
        for (w, h) in [(37, 23), (2, 2), (1, 9), (8, 1), (64, 17), (803, 701)] {
            var b = Bitmap(width: w, height: h)
            for i in 0..<b.pixels.count {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                b.pixels[i] = UInt8(truncatingIfNeeded: state >> 56)
            }
            let out = MipLevels.reduce(b, PixelRect(x: 0, y: 0, width: w, height: h))
            XCTAssertEqual(out.width, (w + 1) / 2); XCTAssertEqual(out.height, (h + 1) / 2)
            for y in 0..<out.height { for x in 0..<out.width {
                let xs = [2 * x, min(2 * x + 1, w - 1)], ys = [2 * y, min(2 * y + 1, h - 1)]
                var sum = SIMD4<Int>.zero
                for sy in ys { for sx in xs { sum &+= SIMD4<Int>(truncatingIfNeeded: b[sx, sy]) } }
                XCTAssertEqual(out[x, y], SIMD4<UInt8>(truncatingIfNeeded: (sum &+ 2) / 4), "\(w)x\(h) at (\(x), \(y))")
            } }
        }
    }

    func testSeveralLevelsAtOnceEqualSuccessiveReductions() {
        var state: UInt64 = 11
        for (w, h, k) in [(37, 23, 3), (9, 1, 2), (1, 17, 4), (64, 64, 6), (13, 11, 5), (1203, 905, 3)] {
            var b = Bitmap(width: w, height: h)
            for i in 0..<b.pixels.count {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                b.pixels[i] = UInt8(truncatingIfNeeded: state >> 56)
            }
            var expected = b
            for _ in 0..<k { expected = MipLevels.reduce(expected, PixelRect(x: 0, y: 0, width: expected.width, height: expected.height)) }
            XCTAssertEqual(MipLevels.reduce(b, PixelRect(x: 0, y: 0, width: w, height: h), levels: k), expected, "\(w)x\(h) level \(k)")
        }
        // A region inside a larger image, two levels down.
        var big = opaque(20, 14)
        for y in 0..<14 { for x in 0..<20 { big[x, y] = SIMD4(UInt8(x * 12), UInt8(y * 18), UInt8((x * y) % 256), 255) } }
        let region = PixelRect(x: 3, y: 2, width: 11, height: 9)
        XCTAssertEqual(MipLevels.reduce(big, region, levels: 2),
                       MipLevels.reduce(MipLevels.reduce(big, region), PixelRect(x: 0, y: 0, width: 6, height: 5)))
    }

    func testNearestTakesTheLowerTexelOnAnExactBoundary() {
        // q = position - 0.5: position 3.0 exactly lies between texels 2 and 3.
        XCTAssertEqual(FixedImageAxis.nearest(5 << 23, 0, 9).x0, 2)
        XCTAssertEqual(FixedImageAxis.nearest((5 << 23) + 1, 0, 9).x0, 3)
        XCTAssertEqual(FixedImageAxis.nearest((5 << 23) - 1, 0, 9).x0, 2)
        XCTAssertEqual(FixedImageAxis.nearest(-(1 << 23), 0, 9).x0, 0, "position 0 clamps to the first texel")
        XCTAssertEqual(FixedImageAxis.nearest(100 << 24, 0, 9).x0, 9)
        XCTAssertEqual(FixedImageAxis.nearest(5 << 23, 0, 9).weight, 0)
    }

    func testNineSliceRegionsChooseTheirOwnLevels() {
        let image = Image(bitmap: opaque(40, 40)).resizable(capInsets: EdgeInsets(top: 8, left: 8, bottom: 8, right: 8), mode: .stretch)
        // 80 x 10 points: horizontally caps 1:1 and the middle's 24 pixels stretched to 64 points;
        // vertically the caps shrink to 5 points (x 1.6) and the middle is empty: no level above 0.
        var draw = ImageDraw(bitmap: image.bitmap, scale: 1, transform: .identity, rect: Rect(x: 0, y: 0, width: 80, height: 10),
                             slicing: image.slicing)
        XCTAssertNil(ImageSamplingPlan(draw).mipmaps)
        // 20 x 200 points under scale(1, 0.1). Horizontally: caps 8 pixels in 8 points (x 1),
        // middle 24 pixels in 4 points (x 6). Vertically: caps 8 pixels in 0.8 device pixels
        // (x 10), middle 24 pixels in 18.4 (x 1.3). Image pixels² per device pixel²: corners 10
        // (level 1), top and bottom middles 60 (level 2: 16 <= 60 < 64), left and right middles
        // 1.3 (level 0), centre 7.8 (level 1).
        draw.rect = Rect(x: 0, y: 0, width: 20, height: 200)
        draw.transform = AffineTransform(scaleX: 1, y: 0.1)
        let plan = ImageSamplingPlan(draw)
        XCTAssertEqual(plan.levels.map(\.level), [1, 2, 1,
                                                  0, 1, 0,
                                                  1, 2, 1])
        // Each distinct region level once in the atlas, side by side.
        let entries = plan.mipmaps?.entries ?? []
        XCTAssertEqual(entries.map(\.region.x), [0, 8, 32, 8, 0, 8, 32])
        XCTAssertEqual(entries.map(\.region.y), [0, 0, 0, 8, 32, 32, 32])
        XCTAssertEqual(entries.map(\.level), [1, 2, 1, 1, 1, 2, 1])
        XCTAssertEqual(plan.mipmaps?.width, 4 + 6 + 4 + 12 + 4 + 6 + 4)
        XCTAssertEqual(plan.mipmaps?.height, 12)
        XCTAssertEqual(plan.levels[1], MipRegionLevel(level: 2, originX: 4, originY: 0, lastX: 5, lastY: 1))
        XCTAssertEqual(plan.levels[7].originX, 30, "the bottom middle's own entry")
    }

    func testCacheBuildsOnceAndNeverServesStaleLevels() {
        var b = opaque(9, 7)
        for x in 0..<9 { b[x, 0] = SIMD4(UInt8(x * 20), 0, 0, 255) }
        let region = PixelRect(x: 0, y: 0, width: 9, height: 7)
        let first = b.mipCache.level(2, of: region, in: b)
        let again = b.mipCache.level(2, of: region, in: b)
        let copy = b
        let fromCopy = copy.mipCache.level(2, of: region, in: copy)
        func address(_ x: Bitmap) -> UnsafeRawPointer? { x.pixels.withUnsafeBytes { UnsafeRawPointer($0.baseAddress) } }
        XCTAssertEqual(address(first), address(again), "the second request is served from the cache")
        XCTAssertEqual(address(first), address(fromCopy), "copies of a bitmap share its levels")
        XCTAssertEqual(first, MipLevels.reduce(MipLevels.reduce(b, region), PixelRect(x: 0, y: 0, width: 5, height: 4)))
        b[0, 0] = SIMD4(255, 255, 255, 255)
        let edited = b.mipCache.level(2, of: region, in: b)
        XCTAssertNotEqual(edited, first, "an edit of the pixels is not served the old levels")
        XCTAssertEqual(edited, MipLevels.reduce(MipLevels.reduce(b, region), PixelRect(x: 0, y: 0, width: 5, height: 4)))
        XCTAssertEqual(copy.mipCache.level(2, of: region, in: copy), first, "the unedited copy keeps its pixels' levels")
    }
}
