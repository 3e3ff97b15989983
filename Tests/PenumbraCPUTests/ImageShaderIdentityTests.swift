import XCTest
import PenumbraTestSupport
@testable import PenumbraCPU
@testable import PenumbraModel
@testable import PenumbraCore

/// The fixed-point image shader (ImageSamplingPlan, 8-bit bilinear weights) against the float
/// definition it replaced (ReferenceImageShader.swift, sampling at the exact positions in Double
/// with Float weights), over random draws of every kind: plain, nine-sliced (tile and stretch),
/// flipped, tinted, @2x and @3x, cropped, opaque and translucent. Plain draws agree within 2
/// levels everywhere (8-bit weights move a sample by at most half a level per axis, plus the
/// rounding of each); nine-slice draws may differ more only where a Q24 position lands on the
/// other side of a region or tile boundary than the Double one, which is rare. The alpha-only
/// paths must equal the definition, div255(coverage x colour alpha), exactly. The draws are
/// `low` (bilinear in the image); mipmapped sampling is InterpolationTests' and MipmapTests'.
final class ImageShaderIdentityTests: XCTestCase {
    private func randomBitmap(_ rng: inout SplitMix64, opaque: Bool) -> Bitmap {
        let w = Int(rng.next() % 19) + 1, h = Int(rng.next() % 19) + 1
        var b = Bitmap(width: w, height: h)
        for y in 0..<h { for x in 0..<w {
            let a: UInt8 = opaque ? 255 : [0, 255, UInt8(truncatingIfNeeded: rng.next())][Int(rng.next() % 3)]
            func channel() -> UInt8 { premultiply(UInt8(truncatingIfNeeded: rng.next()), alpha: a) }
            b[x, y] = SIMD4(channel(), channel(), channel(), a)
        } }
        return b
    }

    private func randomDraw(_ rng: inout SplitMix64) -> ImageDraw {
        var image = Image(bitmap: randomBitmap(&rng, opaque: rng.next() % 2 == 0), scale: [1, 2, 3][Int(rng.next() % 3)])
        if rng.next() % 4 == 0, let cropped = image.cropped(to: Rect(x: rng.double(in: -2...4), y: rng.double(in: -2...4),
                                                                     width: rng.double(in: 1...12), height: rng.double(in: 1...12))) {
            image = cropped
        }
        let powerOfTwo = rng.next() % 2 == 0
        func side() -> Double { powerOfTwo ? Double(1 << Int(rng.next() % 7)) / 2 : rng.double(in: 0.3...60) }
        let rect = Rect(x: rng.double(in: -20...20), y: rng.double(in: -20...20), width: side(), height: side())
        let slicing: NineSlice? = rng.next() % 3 == 0
            ? NineSlice(capInsets: EdgeInsets(top: rng.double(in: 0...4), left: rng.double(in: 0...4),
                                              bottom: rng.double(in: 0...4), right: rng.double(in: 0...4)),
                        mode: rng.next() % 2 == 0 ? .tile : .stretch)
            : nil
        let tint: Color? = rng.next() % 4 == 0
            ? Color(red: rng.double(in: 0...1), green: rng.double(in: 0...1), blue: rng.double(in: 0...1), alpha: rng.double(in: 0...1))
            : nil
        let transform: PenumbraModel.AffineTransform = switch rng.next() % 3 {
        case 0: rng.transform()
        case 1: PenumbraModel.AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: Double(Int(rng.next() % 40)) - 20, ty: rng.double(in: -20...20))
        default: PenumbraModel.AffineTransform(a: 0.707106781186548, b: -0.707106781186547, c: 0.707106781186547,
                                              d: 0.707106781186548, tx: rng.double(in: 0...40), ty: rng.double(in: 0...40))
        }
        return ImageDraw(bitmap: image.bitmap, scale: image.scale, transform: transform, rect: rect,
                         slicing: slicing, tint: tint, flippedHorizontally: rng.next() % 3 == 0, interpolation: .low)
    }

    /// A coverage row with zeros, partial and full values.
    private func randomCoverage(_ rng: inout SplitMix64, count: Int) -> [UInt8] {
        (0..<count).map { _ in [0, 255, UInt8(truncatingIfNeeded: rng.next())][Int(rng.next() % 3)] }
    }

    /// Shades one row with both shaders; returns (pixels compared, pixels off by more than 2).
    private func compareRow(_ draw: ImageDraw, y: Int, x0: Int, count: Int, offset: Point, coverage: [UInt8],
                            _ label: String, file: StaticString = #filePath, line: UInt = #line) -> (Int, Int) {
        let reference = ReferenceImageShader(draw), shader = makeShader(PaintPlan(image: draw, offset: offset))
        var expected = [SIMD4<Float>](repeating: .zero, count: count)
        var floatCoverage = coverage.map { Float($0) / 255 }
        expected.withUnsafeMutableBufferPointer { c in floatCoverage.withUnsafeMutableBufferPointer { k in
            reference.shade(y: y, x0: x0, count: count, offset: offset, colors: c.baseAddress!, coverage: k.baseAddress!)
        } }
        var actual = [SIMD4<UInt8>](repeating: .zero, count: count), actualCoverage = coverage
        actual.withUnsafeMutableBufferPointer { c in actualCoverage.withUnsafeMutableBufferPointer { k in
            shader.shade(y: y, x0: x0, count: count, colors: c.baseAddress!, coverage: k.baseAddress!)
        } }
        XCTAssertEqual(actualCoverage, coverage, "\(label): an image never changes coverage", file: file, line: line)
        var compared = 0, off = 0
        for i in 0..<count where coverage[i] > 0 {
            compared += 1
            let worst = (0..<4).map { abs(Double(actual[i][$0]) - Double(expected[i][$0]) * 255) }.max()!
            if worst > 2 { off += 1 }
            XCTAssert(actual[i].x <= actual[i].w && actual[i].y <= actual[i].w && actual[i].z <= actual[i].w,
                      "\(label): not premultiplied at \(i)", file: file, line: line)
        }
        // Alpha only: div255(coverage x colour alpha) where coverage > 0, untouched elsewhere.
        let expectedAlpha = (0..<count).map { coverage[$0] > 0 ? CoverageMask.product(coverage[$0], actual[$0].w) : 77 }
        for (name, alphaShader) in [("plain", shader), ("prepared", shader.preparedForAlpha())] {
            var alpha = [UInt8](repeating: 77, count: count), k = coverage
            var scratch = [SIMD4<UInt8>](repeating: .zero, count: count)
            alpha.withUnsafeMutableBufferPointer { a in k.withUnsafeMutableBufferPointer { k in
                scratch.withUnsafeMutableBufferPointer { s in
                    alphaShader.shadeAlpha(y: y, x0: x0, count: count, coverage: k.baseAddress!,
                                           alpha: a.baseAddress!, scratch: s.baseAddress!)
                }
            } }
            XCTAssertEqual(alpha, expectedAlpha, "\(label) \(name) alpha", file: file, line: line)
        }
        return (compared, off)
    }

    func testRandomDrawsMatchTheFloatDefinition() {
        var rng = SplitMix64(seed: 0x1A6E_5EED)
        var slicedCompared = 0, slicedOff = 0
        for i in 0..<300 {
            let draw = randomDraw(&rng)
            let bounds = draw.transform.apply(draw.rect)
            let offset = [Point.zero, Point(-25, 15), Point(rng.double(in: -9...9), rng.double(in: -9...9))][Int(rng.next() % 3)]
            for r in 0..<6 {
                let y = Int(bounds.minY.rounded(.down)) - 2 + Int(rng.next() % UInt64(max(1, Int(bounds.height) + 5)))
                let x0 = Int(bounds.minX.rounded(.down)) - 3 + Int(rng.next() % 5)
                let count = max(1, Int(bounds.width) + 6 - Int(rng.next() % 4))
                let (compared, off) = compareRow(draw, y: y + Int(offset.y), x0: x0 + Int(offset.x), count: count,
                                                 offset: offset, coverage: randomCoverage(&rng, count: count), "draw \(i) row \(r)")
                if draw.slicing == nil {
                    XCTAssertEqual(off, 0, "draw \(i) row \(r): a plain draw off by more than 2 levels")
                } else {
                    slicedCompared += compared; slicedOff += off
                }
            }
        }
        XCTAssertGreaterThan(slicedCompared, 1000)
        XCTAssertLessThanOrEqual(Double(slicedOff), 0.01 * Double(slicedCompared), "nine-slice pixels off by more than 2 levels")
    }

    /// A 1:1 draw at whole pixels reproduces the bitmap exactly, at any offset of whole pixels.
    func testOneToOneDrawReproducesThePixels() {
        var rng = SplitMix64(seed: 3)
        let bitmap = randomBitmap(&rng, opaque: false)
        let draw = ImageDraw(bitmap: bitmap, scale: 1, transform: PenumbraModel.AffineTransform(translationX: 5, y: 7),
                             rect: Rect(x: 0, y: 0, width: Double(bitmap.width), height: Double(bitmap.height)))
        let shader = makeShader(PaintPlan(image: draw))
        for y in 0..<bitmap.height {
            var colors = [SIMD4<UInt8>](repeating: .zero, count: bitmap.width)
            var coverage = [UInt8](repeating: 255, count: bitmap.width)
            colors.withUnsafeMutableBufferPointer { c in coverage.withUnsafeMutableBufferPointer { k in
                shader.shade(y: y + 7, x0: 5, count: bitmap.width, colors: c.baseAddress!, coverage: k.baseAddress!)
            } }
            for x in 0..<bitmap.width { XCTAssertEqual(colors[x], bitmap[x, y], "(\(x), \(y))") }
        }
    }

    func testBilinearMixOfOpaqueTexelsIsOpaque() {
        let one = SIMD4<Int32>(repeating: 255)
        for wx in Int32(0)...255 { for wy in stride(from: Int32(0), through: 255, by: 5) {
            XCTAssertEqual(bilinearMix(one, one, one, one, wx, wy), one)
        } }
    }
}

/// A random premultiplied image of `smallest` to `smallest + 39` x `smallest + 29` pixels, every
/// alpha 255 when `opaque`.
private func randomImage(_ rng: inout SplitMix64, smallest: Int, opaque: Bool) -> Bitmap {
    var bitmap = Bitmap(width: smallest + Int(rng.next() % 40), height: smallest + Int(rng.next() % 30))
    for y in 0..<bitmap.height { for x in 0..<bitmap.width {
        let a = opaque ? 255 : UInt8(truncatingIfNeeded: rng.next())
        bitmap[x, y] = SIMD4(premultiply(UInt8(truncatingIfNeeded: rng.next()), alpha: a),
                             premultiply(UInt8(truncatingIfNeeded: rng.next()), alpha: a), premultiply(9, alpha: a), a)
    } }
    return bitmap
}

/// The branch-free row path gives the per-pixel path's bytes on every pixel it shades.
final class ImageRowSamplerTests: XCTestCase {
    func testTheRowPathGivesThePerPixelBytes() throws {
        var rng = SplitMix64(seed: 0x0123_4567)
        var rowPathDraws = 0
        for i in 0..<200 {
            let bitmap = randomImage(&rng, smallest: 1, opaque: false)
            let draw = ImageDraw(bitmap: bitmap, scale: 1 + Double(rng.next() % 3), transform: rng.transform(),
                                 rect: Rect(x: rng.double(in: -20...20), y: rng.double(in: -20...20),
                                            width: rng.double(in: 1...90), height: rng.double(in: 1...70)),
                                 flippedHorizontally: i % 3 == 0, interpolation: [.low, .default, .high][i % 3])
            let offset = i % 4 == 0 ? Point(rng.double(in: -9...9), rng.double(in: -9...9)) : .zero
            guard case .image(let paint) = PaintPlan(image: draw, offset: offset) else { return XCTFail("not an image paint") }
            let fast = ImageShader(paint), slow = ImageShader(paint, rowPath: false)
            if fast.rows != nil { rowPathDraws += 1 }
            for y in -5..<75 {
                let x0 = Int(rng.next() % 40) - 20, count = 1 + Int(rng.next() % 120)
                var a = [SIMD4<UInt8>](repeating: .zero, count: count), b = a
                var ka = [UInt8](repeating: 255, count: count), kb = ka
                a.withUnsafeMutableBufferPointer { c in ka.withUnsafeMutableBufferPointer { k in
                    fast.shade(y: y, x0: x0, count: count, colors: c.baseAddress!, coverage: k.baseAddress!)
                } }
                b.withUnsafeMutableBufferPointer { c in kb.withUnsafeMutableBufferPointer { k in
                    slow.shade(y: y, x0: x0, count: count, colors: c.baseAddress!, coverage: k.baseAddress!)
                } }
                XCTAssertEqual(a, b, "draw \(i), row \(y) from \(x0)")
                if a != b { return }
            }
        }
        XCTAssertGreaterThan(rowPathDraws, 50, "the row path was exercised")
    }
}

/// An opaque image's fully covered runs written straight into the target give the bytes of the
/// row compositor (shade into scratch, then normal or copy at coverage 255).
final class OpaqueRunTests: XCTestCase {
    func testDirectRunsGiveTheCompositorsBytes() throws {
        var rng = SplitMix64(seed: 0x5eed_0bad)
        var direct = 0
        for i in 0..<60 {
            let bitmap = randomImage(&rng, smallest: 2, opaque: true)
            let draw = ImageDraw(bitmap: bitmap, scale: 1, transform: rng.transform(),
                                 rect: Rect(x: rng.double(in: -20...20), y: rng.double(in: -20...20),
                                            width: rng.double(in: 20...90), height: rng.double(in: 20...70)))
            guard case .image(let paint) = PaintPlan(image: draw, offset: .zero) else { return XCTFail("not an image paint") }
            let shader = ImageShader(paint)
            let mode: BlendMode = i % 2 == 0 ? .normal : .copy
            let region = PixelRect(x: 0, y: 0, width: 64, height: 64)
            var target = [UInt8](repeating: 0, count: 64 * 64 * 4)
            for j in target.indices { target[j] = UInt8(truncatingIfNeeded: rng.next()) }
            var expected = target
            target.withUnsafeMutableBufferPointer { px in
                let compositor = SpanCompositor(pixels: px, frame: region, shader: shader, alpha: 255, mode: mode, region: region)
                if compositor.opaqueImage == nil { return }
                direct += 1
                let scratch = SpanCompositor.Scratch(width: 64)
                for y in 0..<64 {
                    let x0 = Int(rng.next() % 20), count = 1 + Int(rng.next() % UInt64(64 - x0))
                    compositor.composite(y: y, x: x0, count: count, coverage: nil, constant: 255, scratch)
                    // The general path by hand: shade into scratch, composite at coverage 255.
                    let coverage = [UInt8](repeating: 255, count: count)
                    var colors = [SIMD4<UInt8>](repeating: .zero, count: count), cov = coverage
                    colors.withUnsafeMutableBufferPointer { c in cov.withUnsafeMutableBufferPointer { k in
                        shader.shade(y: y, x0: x0, count: count, colors: c.baseAddress!, coverage: k.baseAddress!)
                    } }
                    XCTAssertEqual(colors.first?.w, 255, "an opaque image shades opaque colours")
                    expected.withUnsafeMutableBufferPointer { e in
                        colors.withUnsafeBufferPointer { c in coverage.withUnsafeBufferPointer { k in
                            mode.blendRow(sources: c, coverage: k,
                                          destination: UnsafeMutableBufferPointer(rebasing: e[((y * 64 + x0) * 4)...]))
                        } }
                    }
                }
            }
            XCTAssertEqual(target, expected, "draw \(i)")
        }
        XCTAssertGreaterThan(direct, 40, "the direct runs were exercised")
    }
}
