import XCTest
import PenumbraTestSupport
@testable import PenumbraCPU
@testable import PenumbraCore

/// The optimised image shader (batched footprints, exact shortcuts, alpha-only paths) against a
/// verbatim copy of the original (ReferenceImageShader.swift): every colour and alpha must be
/// bit-identical, over random draws of every kind: plain, nine-sliced (tile and stretch), flipped,
/// tinted, @2x and @3x, cropped, opaque and translucent, power-of-two and other destinations.
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
        let transform: PenumbraCore.AffineTransform = switch rng.next() % 3 {
        case 0: rng.transform()
        case 1: PenumbraCore.AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: Double(Int(rng.next() % 40)) - 20, ty: rng.double(in: -20...20))
        default: PenumbraCore.AffineTransform(a: 0.707106781186548, b: -0.707106781186547, c: 0.707106781186547,
                                              d: 0.707106781186548, tx: rng.double(in: 0...40), ty: rng.double(in: 0...40))
        }
        return ImageDraw(bitmap: image.bitmap, scale: image.scale, transform: transform, rect: rect,
                         slicing: slicing, tint: tint, flippedHorizontally: rng.next() % 3 == 0)
    }

    /// A coverage row with zeros, partial and full values.
    private func randomCoverage(_ rng: inout SplitMix64, count: Int) -> [Float] {
        (0..<count).map { _ in [0, 1, Float(rng.double(in: 0...1))][Int(rng.next() % 3)] }
    }

    private let sentinel = SIMD4<Float>(-7, .nan, 3, -1)

    /// Shades one row with both shaders (colours and alphas) and compares every bit.
    private func assertRowIdentical(_ draw: ImageDraw, y: Int, x0: Int, count: Int, offset: Point, coverage: [Float],
                                    _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        let reference = ReferenceImageShader(draw), shader = ImageShader(draw)
        var expected = [SIMD4<Float>](repeating: sentinel, count: count), actual = expected
        var expectedCoverage = coverage, actualCoverage = coverage
        expected.withUnsafeMutableBufferPointer { c in expectedCoverage.withUnsafeMutableBufferPointer { k in
            reference.shade(y: y, x0: x0, count: count, offset: offset, colors: c.baseAddress!, coverage: k.baseAddress!)
        } }
        actual.withUnsafeMutableBufferPointer { c in actualCoverage.withUnsafeMutableBufferPointer { k in
            shader.shade(y: y, x0: x0, count: count, offset: offset, colors: c.baseAddress!, coverage: k.baseAddress!)
        } }
        let colorMismatch = (0..<count).first { i in (0..<4).contains { expected[i][$0].bitPattern != actual[i][$0].bitPattern } }
        XCTAssertNil(colorMismatch, "\(label): colour \(colorMismatch ?? -1): \(actual[colorMismatch ?? 0]) != \(expected[colorMismatch ?? 0])",
                     file: file, line: line)
        XCTAssertEqual(actualCoverage, expectedCoverage, label, file: file, line: line)

        // Alpha only: the definition is coverage x colour alpha where coverage > 0, untouched elsewhere.
        let expectedAlpha = (0..<count).map { coverage[$0] > 0 ? coverage[$0] * expected[$0].w : -5 }
        for (name, alphaShader) in [("plain", shader as Shader), ("prepared", shader.preparedForAlpha())] {
            var alpha = [Float](repeating: -5, count: count), k = coverage
            var scratch = [SIMD4<Float>](repeating: .zero, count: count)
            alpha.withUnsafeMutableBufferPointer { a in k.withUnsafeMutableBufferPointer { k in
                scratch.withUnsafeMutableBufferPointer { s in
                    alphaShader.shadeAlpha(y: y, x0: x0, count: count, offset: offset, coverage: k.baseAddress!,
                                           alpha: a.baseAddress!, scratch: s.baseAddress!)
                }
            } }
            let mismatch = (0..<count).first { alpha[$0].bitPattern != expectedAlpha[$0].bitPattern }
            XCTAssertNil(mismatch, "\(label) \(name) alpha at \(mismatch ?? -1)", file: file, line: line)
        }
    }

    func testRandomDrawsMatchTheOriginalShaderBitForBit() {
        var rng = SplitMix64(seed: 0x1A6E_5EED)
        for i in 0..<300 {
            let draw = randomDraw(&rng)
            let bounds = draw.transform.apply(draw.rect)
            let offset = [Point.zero, Point(-25, 15), Point(rng.double(in: -9...9), rng.double(in: -9...9))][Int(rng.next() % 3)]
            for r in 0..<6 {
                let y = Int(bounds.minY.rounded(.down)) - 2 + Int(rng.next() % UInt64(max(1, Int(bounds.height) + 5)))
                let x0 = Int(bounds.minX.rounded(.down)) - 3 + Int(rng.next() % 5)
                let count = Int(bounds.width) + 6 - Int(rng.next() % 4)
                let coverage = randomCoverage(&rng, count: max(1, count))
                assertRowIdentical(draw, y: y + Int(offset.y), x0: x0 + Int(offset.x), count: max(1, count), offset: offset,
                                   coverage: coverage, "draw \(i) row \(r)")
            }
        }
    }

    /// The decorator's draw (a 2^k destination under the rotation), on the exact-multiply path.
    func testRotatedPowerOfTwoDestinationMatches() {
        var rng = SplitMix64(seed: 7)
        let transform = PenumbraCore.AffineTransform(a: 0.707106781186548, b: -0.707106781186547, c: 0.707106781186547,
                                                     d: 0.707106781186548, tx: 44, ty: 414)
        for opaque in [true, false] {
            let bitmap = randomBitmap(&rng, opaque: opaque)
            let draw = ImageDraw(bitmap: bitmap, scale: 1, transform: transform,
                                 rect: Rect(x: 0, y: 0, width: Double(1 << 5), height: Double(1 << 3)))
            for y in 380...450 {
                assertRowIdentical(draw, y: y, x0: 30, count: 60, offset: .zero,
                                   coverage: randomCoverage(&rng, count: 60), "row \(y)")
            }
        }
    }

    /// The offset positions f = position - 0.5 themselves (Doubles, where a last-bit difference
    /// would rarely reach a Float weight) against the definition's expression, including the
    /// power-of-two shortcut's underflow and overflow edges.
    func testPlainPositionsMatchTheDefinitionBitForBit() {
        var rng = SplitMix64(seed: 5)
        var checked = 0
        for i in 0..<400 {
            var draw = randomDraw(&rng)
            draw.slicing = nil
            if i % 4 == 0 { // extreme scales at the origin
                draw.transform = PenumbraCore.AffineTransform(a: [1e-300, 1e307, 1, 0x1p-920][i / 4 % 4], b: 0, c: 0, d: 1, tx: 0, ty: 0)
                draw.rect.origin = .zero
            }
            let reference = ReferenceImageShader(draw), shader = ImageShader(draw)
            let y = Int(rng.next() % 40) - 20, offset = Point(rng.double(in: -3...3), rng.double(in: -3...3))
            let footprints = PlainFootprints(ImageRowMapping(shader, y: y, offset: offset),
                                             width: draw.bitmap.width, height: draw.bitmap.height)
            for x in -30...30 {
                let device = Point(Double(x) + 0.5 - offset.x, Double(y) + 0.5 - offset.y)
                let user = reference.inverse.apply(device)
                var lx = user.x - draw.rect.minX
                if draw.flippedHorizontally { lx = draw.rect.width - lx }
                let expected = (reference.horizontal.sample(lx).position - 0.5,
                                reference.vertical.sample(user.y - draw.rect.minY).position - 0.5)
                let actual = footprints.offsetPosition(x)
                // Beyond 2^30 the shader recomputes the definition's position (exactFootprint).
                guard abs(expected.0) < 0x1p30, abs(expected.1) < 0x1p30 else { continue }
                XCTAssertEqual(actual.0.bitPattern, expected.0.bitPattern, "draw \(i) x \(x): \(actual.0) != \(expected.0)")
                XCTAssertEqual(actual.1.bitPattern, expected.1.bitPattern, "draw \(i) x \(x): \(actual.1) != \(expected.1)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 300 * 61)
    }

    /// Positions far beyond 2^30 pixels take the scalar floor; they must still match.
    func testFarPositionsTakeTheScalarPathAndMatch() {
        var rng = SplitMix64(seed: 11)
        let bitmap = randomBitmap(&rng, opaque: false)
        for rect in [Rect(x: 0, y: 0, width: 4, height: 4), Rect(x: 0, y: 0, width: 3, height: 5)] {
            let draw = ImageDraw(bitmap: bitmap, scale: 1, transform: .identity, rect: rect)
            for x0 in [(1 << 30) - 8, 1 << 31, -(1 << 32)] {
                assertRowIdentical(draw, y: 2, x0: x0, count: 16, offset: .zero,
                                   coverage: [Float](repeating: 1, count: 16), "x0 \(x0)")
            }
        }
    }

    /// The premise of the opaque shortcut, checked rather than assumed: for every Float weight t
    /// in [0, 1], (1 - t) + t rounds to exactly 1, so a mix of four alphas of 1 is exactly 1.
    /// (Every Float in [0, 1) was checked once; here a spread of them and the edges.)
    func testBilinearMixOfOnesIsExactlyOne() {
        var rng = SplitMix64(seed: 3)
        var weights: [Float] = [0, 1, Float(1).nextDown, .leastNonzeroMagnitude, 0.5, Float(0.5).nextUp, Float(0.5).nextDown]
        for _ in 0..<200_000 { weights.append(Float(bitPattern: UInt32(rng.next() % UInt64(Float(1).bitPattern)))) }
        let ones = SIMD4<Float>(repeating: 1)
        let failing = zip(weights, weights.reversed()).first { tx, ty in
            let top = ones * (1 - tx) + ones * tx
            return top * (1 - ty) + top * ty != ones
        }
        XCTAssertNil(failing.map { "tx \($0.0) ty \($0.1)" })
    }
}
