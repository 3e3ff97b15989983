// Tests of the shared Gaussian kernel and the CPU separable blur, in integers
// (docs/ARITHMETIC.md, "Gaussian blur"). Two independent references: a naive
// integer blur that follows the documented formulas tap by tap, which the fast
// blur must match exactly, and a direct 2D convolution in Double with exact
// Gaussian weights, which it must match within one level.

import Foundation
import PenumbraModel
import PenumbraCore
import PenumbraCPU
import XCTest
import PenumbraTestSupport

final class BlurTests: XCTestCase {

    // MARK: Kernel

    func testRadiusIsCeilingOfThreeSigma() {
        let cases: [(sigma: Double, radius: Int)] = [
            (0.1, 1), (0.5, 2), (1, 3), (2.5, 8), (10, 30), (10.01, 31), (384, 1152),
        ]
        for (sigma, radius) in cases {
            XCTAssertEqual(GaussianKernel(sigma: sigma).radius, radius, "sigma \(sigma)")
            XCTAssertEqual(BlurReach.radius(forSigma: sigma), radius, "sigma \(sigma)")
        }
    }

    func testWeightsSumToExactly65536AndFollowTheGaussian() {
        for sigma in [0.1, 0.3, 0.5, 1, 2.5, 10, 10.01, 384] {
            let kernel = GaussianKernel(sigma: sigma)
            let r = kernel.radius
            XCTAssertEqual(kernel.weights.count, 2 * r + 1)
            XCTAssertEqual(kernel.weights.reduce(0, +), 65536, "sigma \(sigma)")
            let exact = exactGaussian(sigma: sigma, radius: r)
            for i in 0...(2 * r) {
                XCTAssertEqual(kernel.weights[i], kernel.weights[2 * r - i], "symmetric, sigma \(sigma)")
                // Off the centre each weight is the rounded exact one; the centre absorbs the
                // rounding of the others, at most half a unit each.
                let bound = i == r ? 0.5 * Double(2 * r) + 0.5 : 0.5
                XCTAssertEqual(Double(kernel.weights[i]), exact[i] * 65536, accuracy: bound, "sigma \(sigma), offset \(i - r)")
            }
            for i in 0..<r { XCTAssertLessThanOrEqual(kernel.weights[i], kernel.weights[i + 1], "monotonic, sigma \(sigma)") }
        }
    }

    func testShadowBlurConvention() {
        // sigma = blur * scale / 2 (the HTML canvas convention).
        XCTAssertEqual(GaussianKernel.sigma(shadowBlur: 20, scale: 1), 10)
        XCTAssertEqual(GaussianKernel.sigma(shadowBlur: 20, scale: 3), 30)
        XCTAssertEqual(GaussianKernel(shadowBlur: 20, scale: 2), GaussianKernel(sigma: 20))
        XCTAssertEqual(GaussianKernel(shadowBlur: 256, scale: 3).radius, 1152)
        XCTAssertEqual(GaussianKernel(shadowBlur: 0, scale: 2), GaussianKernel.identity)
    }

    func testZeroNegativeNonFiniteAndTinySigmasGiveTheIdentity() {
        for sigma: Double in [0, -1, -0.0, .nan, .infinity, 0.01, 0.05, 0.075] {
            let kernel = GaussianKernel(sigma: sigma)
            XCTAssertEqual(kernel.radius, 0, "sigma \(sigma)")
            XCTAssertEqual(kernel.weights, [65536], "sigma \(sigma)")
            XCTAssertEqual(BlurReach.radius(forSigma: sigma), 0, "sigma \(sigma)")
        }
        XCTAssertEqual(GaussianKernel(sigma: 0.076).radius, 1)
        for step in 0...200 {
            let sigma = 0.07 + Double(step) * 0.0001
            XCTAssertEqual(GaussianKernel(sigma: sigma).radius, BlurReach.radius(forSigma: sigma), "sigma \(sigma)")
        }
    }

    func testHugestShadowKernel() {
        // blur 256 at scale 3: sigma = 256 * 3 / 2 = 384 pixels.
        let kernel = GaussianKernel(sigma: 256 * 3 / 2)
        XCTAssertEqual(kernel.radius, 1152)
        XCTAssertEqual(kernel.weights.count, 2305)
        // A plane much smaller than the radius: everything it reads beyond the edges is 0.
        var plane = AlphaPlane(width: 40, height: 30)
        for y in 5..<25 { for x in 5..<35 { plane[x, y] = 255 } }
        let blurred = plane.blurred(with: kernel)
        assertIdentical(blurred, referenceIntegerBlur(plane, kernel), "sigma 384")
    }

    // MARK: Blur against references

    /// SCENE_FORMAT.md's accuracy rule for shadows: a one-pixel shadow equals the kernel's outer
    /// product within 1/255.
    func testDotBlursIntoTheOuterProductOfTheKernelWithinOneLevel() {
        for sigma in [0.5, 1, 2.5, 4] {
            let kernel = GaussianKernel(sigma: sigma)
            let r = kernel.radius, size = 2 * r + 1
            var plane = AlphaPlane(width: size, height: size)
            plane[r, r] = 255
            let blurred = plane.blurred(with: kernel)
            let exact = exactGaussian(sigma: sigma, radius: r)
            for j in 0..<size { for i in 0..<size {
                XCTAssertEqual(Double(blurred[i, j]), 255 * exact[i] * exact[j], accuracy: 1, "sigma \(sigma) at \(i),\(j)")
            } }
        }
    }

    func testBlurMatchesTheDirect2DConvolutionWithinOneLevel() {
        var random = SplitMix64(seed: 5)
        for (width, height, sigma) in [(37, 23, 1.5), (64, 40, 3.0), (20, 70, 0.8)] {
            let kernel = GaussianKernel(sigma: sigma)
            var plane = AlphaPlane(width: width, height: height)
            for i in plane.values.indices where random.next() % 3 == 0 { plane.values[i] = UInt8(truncatingIfNeeded: random.next()) }
            let blurred = plane.blurred(with: kernel)
            let direct = directConvolution(plane, sigma: sigma, radius: kernel.radius)
            for i in plane.values.indices {
                XCTAssertEqual(Double(blurred.values[i]), direct[i], accuracy: 1, "\(width)x\(height) sigma \(sigma) at \(i)")
            }
        }
    }

    func testFastBlurIsTheIntegerDefinitionExactly() {
        var random = SplitMix64(seed: 21)
        for (width, height, sigma) in [(50, 40, 2.0), (33, 71, 5.0), (200, 9, 1.2), (1, 1, 3.0), (5, 100, 0.4)] {
            var plane = AlphaPlane(width: width, height: height)
            for i in plane.values.indices where random.next() % 4 == 0 { plane.values[i] = UInt8(truncatingIfNeeded: random.next()) }
            let kernel = GaussianKernel(sigma: sigma)
            assertIdentical(plane.blurred(with: kernel), referenceIntegerBlur(plane, kernel), "\(width)x\(height) sigma \(sigma)")
        }
    }

    func testEmptyPlanesStayEmptyAndOutOfPlaneReadsAreZero() {
        for (width, height) in [(0, 0), (0, 5), (5, 0), (30, 20)] {
            let empty = AlphaPlane(width: width, height: height)
            XCTAssertEqual(empty.blurred(with: GaussianKernel(sigma: 3)), empty)
        }
        var plane = AlphaPlane(width: 3, height: 2)
        plane[1, 1] = 9
        XCTAssertEqual(plane[-1, 0], 0); XCTAssertEqual(plane[3, 1], 0); XCTAssertEqual(plane[0, 2], 0)
    }

    // MARK: Threads and scratch

    func testThreadCountsGiveIdenticalOutput() {
        var random = SplitMix64(seed: 13)
        var plane = AlphaPlane(width: 300, height: 257)
        for i in plane.values.indices where random.next() % 5 == 0 { plane.values[i] = UInt8(truncatingIfNeeded: random.next()) }
        for y in 100..<140 { for x in 0..<300 { plane[x, y] = 0 } }  // an empty band
        let kernel = GaussianKernel(sigma: 6)
        let single = plane.blurred(with: kernel, threads: 1)
        for threads in [2, 3, 8, 1000] {
            assertIdentical(plane.blurred(with: kernel, threads: threads), single, "\(threads) threads")
        }
        assertIdentical(plane.blurred(with: kernel), single, "automatic threads")
        assertIdentical(single, referenceIntegerBlur(plane, kernel), "reference")
    }

    /// Content whose rows reach different column strips: each vertical strip computes only the
    /// rows its content reaches, which must change nothing, on any thread count, with a stale
    /// scratch.
    func testContentOfEveryShapeAcrossColumnStrips() {
        var random = SplitMix64(seed: 29)
        let kernel = GaussianKernel(sigma: 3)
        var diamond = AlphaPlane(width: 260, height: 150)
        for y in 0..<150 { for x in 0..<260 where abs(x - 130) + abs(y - 75) * 2 < 110 {
            diamond[x, y] = UInt8(truncatingIfNeeded: random.next() % 255 + 1)
        } }
        var blobs = AlphaPlane(width: 400, height: 90)
        for y in 10..<30 { for x in 5..<25 { blobs[x, y] = 255 } }
        for y in 60..<85 { for x in 370..<396 { blobs[x, y] = UInt8(truncatingIfNeeded: random.next()) } }
        blobs[200, 45] = 128  // a lone dot in an otherwise empty strip
        for (name, plane) in [("diamond", diamond), ("blobs", blobs)] {
            let expected = referenceIntegerBlur(plane, kernel)
            for threads in [1, 2, 5] {
                var blurred = plane
                blurred.blur(with: kernel, threads: threads)
                assertIdentical(blurred, expected, "\(name), \(threads) threads")
            }
        }
    }

    /// Content touching the plane's edges (no margin): the window the blur runs on is the whole
    /// plane, and values beyond it read as 0.
    func testContentAtThePlaneEdges() {
        var random = SplitMix64(seed: 17)
        var plane = AlphaPlane(width: 80, height: 60)
        for _ in 0..<40 { plane[Int(random.next() % 80), Int(random.next() % 60)] = 255 }
        plane[0, 0] = 200; plane[79, 59] = 90; plane[79, 0] = 17; plane[0, 59] = 255
        let kernel = GaussianKernel(sigma: 2)
        let expected = referenceIntegerBlur(plane, kernel)
        for threads in [1, 2] {
            var inPlace = plane
            inPlace.blur(with: kernel, threads: threads)
            assertIdentical(inPlace, expected, "\(threads) threads")
        }
    }

    // MARK: References

    /// The normalised Gaussian in Double, offsets -radius...radius.
    private func exactGaussian(sigma: Double, radius: Int) -> [Double] {
        let raw = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = raw.reduce(0, +)
        return raw.map { $0 / sum }
    }

    /// The blur as SCENE_FORMAT.md defines it, as one 2D convolution in Double (values in levels).
    private func directConvolution(_ plane: AlphaPlane, sigma: Double, radius: Int) -> [Double] {
        let g = exactGaussian(sigma: sigma, radius: radius)
        var out = [Double](repeating: 0, count: plane.values.count)
        for y in 0..<plane.height {
            for x in 0..<plane.width {
                var sum = 0.0
                for j in -radius...radius {
                    for i in -radius...radius { sum += g[i + radius] * g[j + radius] * Double(plane[x + i, y + j]) }
                }
                out[y * plane.width + x] = sum
            }
        }
        return out
    }

    /// docs/ARITHMETIC.md's two passes, tap by tap, in 64-bit integers (so no wrap could hide):
    /// h16 = (sum W a + 2^7) >> 8, then out = (sum W h16 + 2^23) >> 24, 0 outside the plane.
    private func referenceIntegerBlur(_ plane: AlphaPlane, _ kernel: GaussianKernel) -> AlphaPlane {
        let r = kernel.radius, w = plane.width, h = plane.height
        var middle = [UInt64](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w {
            var sum: UInt64 = 0
            for i in -r...r where x + i >= 0 && x + i < w { sum += UInt64(kernel.weights[i + r]) * UInt64(plane[x + i, y]) }
            middle[y * w + x] = (sum + 128) >> 8
        } }
        var out = plane
        for y in 0..<h { for x in 0..<w {
            var sum: UInt64 = 0
            for i in -r...r where y + i >= 0 && y + i < h { sum += UInt64(kernel.weights[i + r]) * middle[(y + i) * w + x] }
            XCTAssertLessThan(sum, 1 << 32, "the vertical sum must fit 32 bits")
            out[x, y] = UInt8((sum + (1 << 23)) >> 24)
        } }
        return out
    }

    private func assertIdentical(_ actual: AlphaPlane, _ expected: AlphaPlane, _ message: String, line: UInt = #line) {
        XCTAssertEqual(actual.width, expected.width, message, line: line)
        XCTAssertEqual(actual.height, expected.height, message, line: line)
        guard actual.values.count == expected.values.count else { return XCTFail(message, line: line) }
        let mismatches = actual.values.indices.filter { actual.values[$0] != expected.values[$0] }
        XCTAssertTrue(mismatches.isEmpty, "\(message): \(mismatches.count) values differ, first at index "
                      + "\(mismatches.first ?? -1)", line: line)
    }
}
