// Tests of the shared Gaussian kernel and the CPU separable blur. Two independent
// references: a naive Float blur that follows the documented parity order step by
// step (each product and sum rounded to Float through Double, so no compiler
// contraction can hide in it), which the fast blur must match bit for bit, and a
// direct 2D convolution in Double with exact Gaussian weights, which it must match
// to 1e-5.

import Foundation
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
            XCTAssertEqual(GaussianKernel.radius(forSigma: sigma), radius, "sigma \(sigma)")
        }
    }

    func testWeightsAreNormalisedSymmetricMonotonicGaussians() {
        for sigma in [0.1, 0.3, 0.5, 1, 2.5, 10, 10.01, 384] {
            let kernel = GaussianKernel(sigma: sigma)
            let r = kernel.radius
            XCTAssertEqual(kernel.weights.count, 2 * r + 1, "sigma \(sigma)")
            XCTAssertEqual(kernel.sigma, sigma)
            let exact = exactGaussian(sigma: sigma, radius: r)
            var sum = 0.0
            for i in 0...(2 * r) {
                let w = kernel.weights[i]
                sum += Double(w)
                XCTAssertEqual(w, kernel.weights[2 * r - i], "symmetry, sigma \(sigma), index \(i)")
                XCTAssertEqual(Double(w), exact[i], accuracy: 1e-7, "sigma \(sigma), offset \(i - r)")
                XCTAssertGreaterThanOrEqual(w, Float.leastNormalMagnitude, "sigma \(sigma)")
                if i > r { XCTAssertLessThan(w, kernel.weights[i - 1], "decreasing from the centre, sigma \(sigma)") }
            }
            XCTAssertEqual(sum, 1, accuracy: 1e-6, "sigma \(sigma)")
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
            XCTAssertEqual(kernel.weights, [1], "sigma \(sigma)")
            XCTAssertEqual(GaussianKernel.radius(forSigma: sigma), 0, "sigma \(sigma)")
        }
        XCTAssertEqual(GaussianKernel.identity.weights, [1])
        // Just above the threshold the spec's radius applies and every weight is a normal Float.
        XCTAssertEqual(GaussianKernel(sigma: 0.076).radius, 1)
        // radius(forSigma:) and init agree across the threshold.
        for step in 0...200 {
            let sigma = 0.07 + Double(step) * 0.0001
            let kernel = GaussianKernel(sigma: sigma)
            XCTAssertEqual(kernel.radius, GaussianKernel.radius(forSigma: sigma), "sigma \(sigma)")
            XCTAssertTrue(kernel.weights.allSatisfy { $0 >= Float.leastNormalMagnitude }, "sigma \(sigma)")
        }
    }

    func testHugestShadowKernel() {
        // blur 256 at scale 3: sigma = 256 * 3 / 2 = 384 pixels.
        let kernel = GaussianKernel(sigma: 256 * 3 / 2)
        XCTAssertEqual(kernel.sigma, 384)
        XCTAssertEqual(kernel.radius, 1152)
        XCTAssertEqual(kernel.weights.count, 2305)
        XCTAssertEqual(kernel.weights.reduce(0.0) { $0 + Double($1) }, 1, accuracy: 1e-6)
        // A plane much smaller than the radius: everything it reads beyond the edges is 0.
        var plane = AlphaPlane(width: 40, height: 30)
        plane[20, 15] = 1
        let blurred = plane.blurred(with: kernel)
        assertBitIdentical(blurred, referenceParityBlur(plane, kernel), "sigma 384")
        let centre = Double(kernel.weights[1152]) * Double(kernel.weights[1152])
        XCTAssertEqual(Double(blurred[20, 15]), centre, accuracy: 1e-9)
        XCTAssertGreaterThan(blurred[0, 0], 0)
    }

    // MARK: Blur against references

    func testDotBlursIntoTheOuterProductOfTheKernel() {
        for sigma in [0.6, 2.5, 10] {
            let kernel = GaussianKernel(sigma: sigma)
            let r = kernel.radius, size = 2 * r + 11, centre = r + 5
            var plane = AlphaPlane(width: size, height: size)
            plane[centre, centre] = 1
            let blurred = plane.blurred(with: kernel)
            let exact = exactGaussian(sigma: sigma, radius: r)
            for y in 0..<size {
                for x in 0..<size {
                    let (i, j) = (x - centre + r, y - centre + r)
                    guard i >= 0, i <= 2 * r, j >= 0, j <= 2 * r else {
                        XCTAssertEqual(blurred[x, y], 0, "outside the kernel, sigma \(sigma) at \(x),\(y)")
                        continue
                    }
                    let value = Double(blurred[x, y])
                    let floatKernel = Double(kernel.weights[i]) * Double(kernel.weights[j])
                    XCTAssertEqual(value, floatKernel, accuracy: 1e-6, "sigma \(sigma) at \(x),\(y)")
                    XCTAssertEqual(value, exact[i] * exact[j], accuracy: 1e-5, "sigma \(sigma) at \(x),\(y)")
                    XCTAssertEqual(value, exact[i] * exact[j], accuracy: 1.0 / 255, "sigma \(sigma) at \(x),\(y)")
                }
            }
        }
    }

    func testBlurPreservesTotalAlphaWhenNothingLeavesThePlane() {
        var random = SplitMix64(seed: 7)
        for sigma in [1.0, 4, 12.5] {
            let kernel = GaussianKernel(sigma: sigma)
            let r = kernel.radius
            var plane = AlphaPlane(width: 160 + 2 * r, height: 120 + 2 * r)
            for _ in 0..<300 {
                let x = r + Int.random(in: 0..<160, using: &random)
                let y = r + Int.random(in: 0..<120, using: &random)
                plane[x, y] = Float.random(in: 0...1, using: &random)
            }
            let before = plane.values.reduce(0.0) { $0 + Double($1) }
            let after = plane.blurred(with: kernel).values.reduce(0.0) { $0 + Double($1) }
            XCTAssertGreaterThan(before, 10)
            XCTAssertEqual(after, before, accuracy: before * 1e-4, "sigma \(sigma)")
        }
    }

    func testSeparableBlurMatchesDirect2DConvolution() {
        var random = SplitMix64(seed: 11)
        for (width, height, sigma) in [(23, 17, 1.7), (31, 9, 3.0), (6, 5, 2.2), (40, 40, 0.5)] {
            var plane = AlphaPlane(width: width, height: height)
            for i in plane.values.indices where Bool.random(using: &random) {
                plane.values[i] = Float.random(in: 0...1, using: &random)
            }
            let kernel = GaussianKernel(sigma: sigma)
            let blurred = plane.blurred(with: kernel)
            let direct = directConvolution(plane, sigma: sigma, radius: kernel.radius)
            for i in plane.values.indices {
                XCTAssertEqual(Double(blurred.values[i]), direct[i], accuracy: 1e-5,
                               "\(width)x\(height) sigma \(sigma) at \(i % width),\(i / width)")
            }
        }
    }

    func testFastBlurFollowsTheParityOrderBitForBit() {
        var random = SplitMix64(seed: 3)
        // (width, height, sigma, fill fraction): sparse, dense, empty rows, and a radius whose
        // vertical pass needs several column strips (radius 100 over 700 columns).
        let cases: [(Int, Int, Double, Double)] = [
            (64, 48, 1.3, 0.02), (50, 40, 3.7, 1), (97, 61, 5, 0.3), (700, 30, 33.34, 0.05), (33, 200, 8, 0.1),
        ]
        for (width, height, sigma, fill) in cases {
            var plane = AlphaPlane(width: width, height: height)
            for i in plane.values.indices where Double.random(in: 0..<1, using: &random) < fill {
                plane.values[i] = Float(Int.random(in: 1...255, using: &random)) / 255
            }
            let kernel = GaussianKernel(sigma: sigma)
            assertBitIdentical(plane.blurred(with: kernel, threads: 1), referenceParityBlur(plane, kernel),
                               "\(width)x\(height) sigma \(sigma)")
        }
    }

    // MARK: Edges and degenerate planes

    func testContentAtTheEdgeLosesTheMassThatWouldLeaveThePlane() {
        let kernel = GaussianKernel(sigma: 3)
        let r = kernel.radius
        var plane = AlphaPlane(width: 50, height: 40)
        plane[0, 0] = 1
        let blurred = plane.blurred(with: kernel)
        // What stays is the kernel's non-negative half, squared.
        let half = kernel.weights[r...].reduce(0.0) { $0 + Double($1) }
        let total = blurred.values.reduce(0.0) { $0 + Double($1) }
        XCTAssertLessThan(total, 0.35)
        XCTAssertEqual(total, half * half, accuracy: 1e-6)
        for y in 0..<40 {
            for x in 0..<50 {
                XCTAssertEqual(blurred[x, y] > 0, x <= r && y <= r, "support at \(x),\(y)")
            }
        }
        assertBitIdentical(blurred, referenceParityBlur(plane, kernel), "corner dot")
    }

    func testThinEmptyAndTooSmallPlanes() {
        var random = SplitMix64(seed: 5)
        let kernel = GaussianKernel(sigma: 4)
        // One column, one row, one pixel, and planes smaller than the radius.
        for (width, height) in [(1, 50), (50, 1), (1, 1), (5, 4), (3, 13)] {
            var plane = AlphaPlane(width: width, height: height)
            for i in plane.values.indices { plane.values[i] = Float.random(in: 0...1, using: &random) }
            let blurred = plane.blurred(with: kernel)
            XCTAssertEqual(blurred.width, width); XCTAssertEqual(blurred.height, height)
            assertBitIdentical(blurred, referenceParityBlur(plane, kernel), "\(width)x\(height)")
            let direct = directConvolution(plane, sigma: 4, radius: kernel.radius)
            for i in plane.values.indices {
                XCTAssertEqual(Double(blurred.values[i]), direct[i], accuracy: 1e-5, "\(width)x\(height) at \(i)")
            }
        }
        // Empty planes: nothing to read or write.
        for (width, height) in [(0, 0), (0, 7), (7, 0)] {
            let empty = AlphaPlane(width: width, height: height)
            XCTAssertTrue(empty.isEmpty)
            XCTAssertEqual(empty.blurred(with: kernel), empty)
        }
        // All zero stays all zero; the identity kernel changes nothing.
        let zeros = AlphaPlane(width: 30, height: 20)
        XCTAssertEqual(zeros.blurred(with: kernel), zeros)
        var dot = AlphaPlane(width: 9, height: 9)
        dot[4, 4] = 0.5
        XCTAssertEqual(dot.blurred(with: .identity), dot)
        XCTAssertEqual(dot.blurred(with: GaussianKernel(sigma: 0)), dot)
        XCTAssertNotEqual(dot.blurred(with: kernel), dot)
    }

    func testOutOfPlaneReadsAreZero() {
        var plane = AlphaPlane(width: 3, height: 2)
        plane[1, 1] = 0.25
        XCTAssertEqual(plane[1, 1], 0.25)
        XCTAssertEqual(plane.values, [0, 0, 0, 0, 0.25, 0])
        XCTAssertEqual(plane[-1, 0], 0); XCTAssertEqual(plane[3, 1], 0); XCTAssertEqual(plane[0, 2], 0)
    }

    // MARK: Threads and scratch

    func testThreadCountsGiveBitIdenticalOutput() {
        var random = SplitMix64(seed: 13)
        var plane = AlphaPlane(width: 300, height: 257)
        for i in plane.values.indices where Double.random(in: 0..<1, using: &random) < 0.2 {
            plane.values[i] = Float.random(in: 0...1, using: &random)
        }
        for y in 100..<140 { for x in 0..<300 { plane[x, y] = 0 } }  // an empty band
        let kernel = GaussianKernel(sigma: 6)
        let single = plane.blurred(with: kernel, threads: 1)
        for threads in [2, 3, 8, 1000] {
            assertBitIdentical(plane.blurred(with: kernel, threads: threads), single, "\(threads) threads")
        }
        assertBitIdentical(plane.blurred(with: kernel), single, "automatic threads")
        assertBitIdentical(single, referenceParityBlur(plane, kernel), "reference")
    }

    /// Content whose rows reach different column strips (a diamond, and two blobs far apart with
    /// empty strips between them): each vertical strip computes only the rows its content
    /// reaches, which must change nothing, on any thread count, with a NaN-filled scratch.
    func testContentOfEveryShapeAcrossColumnStrips() {
        var random = SplitMix64(seed: 29)
        let kernel = GaussianKernel(sigma: 3)
        var diamond = AlphaPlane(width: 260, height: 150)
        for y in 0..<150 { for x in 0..<260 where abs(x - 130) + abs(y - 75) * 2 < 110 {
            diamond[x, y] = Float.random(in: 0.01...1, using: &random)
        } }
        var blobs = AlphaPlane(width: 400, height: 90)
        for y in 10..<30 { for x in 5..<25 { blobs[x, y] = 1 } }
        for y in 60..<85 { for x in 370..<396 { blobs[x, y] = Float.random(in: 0...1, using: &random) } }
        blobs[200, 45] = 0.5  // a lone dot in an otherwise empty strip
        for (name, plane) in [("diamond", diamond), ("blobs", blobs)] {
            let expected = referenceParityBlur(plane, kernel)
            for threads in [1, 2, 5] {
                var scratch = [Float](repeating: .nan, count: plane.values.count * 2)
                var blurred = plane
                blurred.blur(with: kernel, scratch: &scratch, threads: threads)
                assertBitIdentical(blurred, expected, "\(name), \(threads) threads")
            }
        }
    }

    func testStaleScratchIsNeverRead() {
        var random = SplitMix64(seed: 17)
        var plane = AlphaPlane(width: 80, height: 60)
        for _ in 0..<40 { plane[Int.random(in: 0..<80, using: &random), Int.random(in: 0..<60, using: &random)] = 1 }
        let kernel = GaussianKernel(sigma: 2)
        let expected = plane.blurred(with: kernel)
        var scratch = [Float](repeating: .nan, count: 80 * 60 + 100)
        var inPlace = plane
        inPlace.blur(with: kernel, scratch: &scratch, threads: 2)
        assertBitIdentical(inPlace, expected, "NaN-filled scratch")
        var again = plane
        again.blur(with: kernel, scratch: &scratch)
        assertBitIdentical(again, expected, "reused scratch")
    }

    // MARK: References

    /// The normalised Gaussian in Double, offsets -radius...radius.
    private func exactGaussian(sigma: Double, radius: Int) -> [Double] {
        let raw = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = raw.reduce(0, +)
        return raw.map { $0 / sum }
    }

    /// The blur as SCENE_FORMAT.md defines it, as one 2D convolution in Double.
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

    /// The documented parity order, naively: per pass and output, `acc = 0`, then for offsets
    /// -radius...radius in increasing order `acc = acc + w * sample` (0 outside the plane), every
    /// product and sum rounded to Float on its own (through Double, which is exact for Float
    /// products and innocuous for Float sums), reading every tap, zero or not.
    private func referenceParityBlur(_ plane: AlphaPlane, _ kernel: GaussianKernel) -> AlphaPlane {
        func pass(_ input: AlphaPlane, dx: Int, dy: Int) -> AlphaPlane {
            var output = AlphaPlane(width: input.width, height: input.height)
            let r = kernel.radius
            for y in 0..<input.height {
                for x in 0..<input.width {
                    var acc: Float = 0
                    for offset in -r...r {
                        let sample = input[x + offset * dx, y + offset * dy]
                        let product = Float(Double(kernel.weights[offset + r]) * Double(sample))
                        acc = Float(Double(acc) + Double(product))
                    }
                    output[x, y] = acc
                }
            }
            return output
        }
        return pass(pass(plane, dx: 1, dy: 0), dx: 0, dy: 1)
    }

    private func assertBitIdentical(
        _ actual: AlphaPlane, _ expected: AlphaPlane, _ message: String, line: UInt = #line
    ) {
        XCTAssertEqual(actual.width, expected.width, message, line: line)
        XCTAssertEqual(actual.height, expected.height, message, line: line)
        guard actual.values.count == expected.values.count else { return XCTFail(message, line: line) }
        let mismatches = actual.values.indices.filter {
            actual.values[$0].bitPattern != expected.values[$0].bitPattern
        }
        XCTAssertTrue(mismatches.isEmpty, "\(message): \(mismatches.count) values differ, first at index "
                      + "\(mismatches.first ?? -1)", line: line)
    }
}

