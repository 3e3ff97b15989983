// Tests of the interleaved RGBA blur (RGBABlur.swift): its bytes must equal
// blurring each channel as a plane, with the tap-by-tap reference blur
// (ReferencePlaneBlur.swift) and with the shadow's fast plane blur
// (Blur.swift), whatever the size, the sigma (identity-like tiny ones, radii
// wider than the image) and the thread count; and the filter graph's
// gaussianBlur must give those bytes.

import Foundation
import PenumbraModel
import PenumbraCore
import PenumbraCPU
import PenumbraTestSupport
import XCTest

final class RGBABlurTests: XCTestCase {
    /// Random premultiplied-looking pixels (some bytes zeroed, so rows have zero runs too).
    private func randomPixels(width: Int, height: Int, _ random: inout SplitMix64) -> [UInt8] {
        (0..<(width * height * 4)).map { _ in
            let v = random.next()
            return v & 7 == 0 ? 0 : UInt8(truncatingIfNeeded: v >> 8)
        }
    }

    /// Each channel of `pixels` blurred as a plane by `blurPlane`.
    private func perChannel(_ pixels: [UInt8], width: Int, height: Int,
                            _ blurPlane: (inout [UInt8]) -> Void) -> [UInt8] {
        var out = pixels
        for c in 0..<4 {
            var plane = (0..<(width * height)).map { pixels[4 * $0 + c] }
            blurPlane(&plane)
            for i in 0..<(width * height) { out[4 * i + c] = plane[i] }
        }
        return out
    }

    func testEqualsTheReferencePlaneBlurOnEachChannel() {
        var random = SplitMix64(seed: 9)
        let sizes = [(1, 1), (7, 3), (33, 17), (100, 1), (1, 100), (5, 64), (64, 5), (61, 29)]
        // 0.05: radius 0; 0.1: radius 1 with off-centre weights 0 (the identity); 0.3 and 0.5: a
        // centre above 2^15; 40: a radius of 120, wider than every image here.
        let sigmas = [0.05, 0.1, 0.3, 0.5, 0.8, 1, 2.5, 4, 10, 40]
        for (width, height) in sizes {
            let pixels = randomPixels(width: width, height: height, &random)
            for sigma in sigmas {
                let kernel = GaussianKernel(sigma: sigma)
                let expected = perChannel(pixels, width: width, height: height) {
                    kernel.blurReference(&$0, width: width, height: height)
                }
                for threads in [nil, 1, 2, 3] as [Int?] {
                    var blurred = pixels
                    kernel.blurRGBA(&blurred, width: width, height: height, threads: threads)
                    XCTAssertEqual(blurred, expected, "\(width)x\(height), sigma \(sigma), threads \(threads.map(String.init) ?? "auto")")
                }
            }
        }
    }

    /// Both row codes (the Swift functions and, where the CPU has AVX2, CBlurKernels' 256-bit
    /// ones) give the reference's bytes, four channels and one, on widths that are not multiples
    /// of the vector width, every sigma class, 1 to 5 threads.
    func testEveryRowCodeEqualsTheReference() throws {
        var random = SplitMix64(seed: 31)
        let sizes = [(1, 1), (3, 2), (5, 9), (17, 11), (31, 40), (33, 7), (67, 13), (129, 6), (250, 23), (2, 70)]
        let sigmas = [0.05, 0.1, 0.3, 0.5, 0.8, 1, 1.7, 2.5, 4, 7.3, 10, 17, 40]
        let codes = VectorCode.allCases.filter(\.isSupported)
        for (width, height) in sizes {
            let pixels = randomPixels(width: width, height: height, &random)
            let plane = Array(pixels.prefix(width * height))
            for sigma in sigmas {
                let kernel = GaussianKernel(sigma: sigma)
                let expected = perChannel(pixels, width: width, height: height) {
                    kernel.blurReference(&$0, width: width, height: height)
                }
                var expectedPlane = plane
                kernel.blurReference(&expectedPlane, width: width, height: height)
                for code in codes {
                    for threads in 1...5 {
                        let label = "\(code), \(width)x\(height), sigma \(sigma), \(threads) threads"
                        var blurred = pixels
                        kernel.blurRGBA(&blurred, width: width, height: height, threads: threads, rowCode: code)
                        XCTAssertEqual(blurred, expected, label)
                        var blurredPlane = plane
                        blurredPlane.withUnsafeMutableBufferPointer {
                            kernel.blurInterleaved($0.baseAddress!, rowStride: width, width: width, height: height,
                                                   channels: 1, threads: threads, rowCode: code)
                        }
                        XCTAssertEqual(blurredPlane, expectedPlane, "one channel, " + label)
                    }
                }
            }
        }
        _ = avx2Runs(.rgbaBlur)  // without AVX2 only the Swift rows were compared
    }

    /// The two row codes on larger random images split into bands: the same bytes.
    func testAVX2RowsEqualTheSwiftRowsOnLargeImages() throws {
        guard avx2Runs(.rgbaBlur) else { return }
        XCTAssertEqual(VectorCode.rgbaBlur, ProcessInfo.processInfo.environment["PENUMBRA_RGBA_BLUR"] == "portable" ? .portable : .avx2)
        var random = SplitMix64(seed: 37)
        for (width, height, sigma) in [(1024, 64, 10.0), (333, 257, 3.3), (97, 500, 40.0), (513, 129, 0.7)] {
            let pixels = randomPixels(width: width, height: height, &random)
            let kernel = GaussianKernel(sigma: sigma)
            for threads in [1, 2, 3] {
                var swift = pixels, avx2 = pixels
                kernel.blurRGBA(&swift, width: width, height: height, threads: threads, rowCode: .portable)
                kernel.blurRGBA(&avx2, width: width, height: height, threads: threads, rowCode: .avx2)
                XCTAssertEqual(avx2, swift, "\(width)x\(height), sigma \(sigma), \(threads) threads")
                XCTAssertNotEqual(avx2, pixels)
            }
        }
        // Saturated and empty images: the largest and smallest sums.
        for value: UInt8 in [255, 0] {
            let pixels = [UInt8](repeating: value, count: 70 * 45 * 4)
            let kernel = GaussianKernel(sigma: 6)
            var swift = pixels, avx2 = pixels
            kernel.blurRGBA(&swift, width: 70, height: 45, threads: 1, rowCode: .portable)
            kernel.blurRGBA(&avx2, width: 70, height: 45, threads: 1, rowCode: .avx2)
            XCTAssertEqual(avx2, swift, "every byte \(value)")
        }
    }

    /// Larger images split into bands (each reading the rows around it from the copy of the halo)
    /// against the shadow's plane blur on each channel.
    func testBandsEqualTheShadowPlaneBlur() {
        var random = SplitMix64(seed: 13)
        for (width, height, sigma) in [(257, 241, 10.0), (130, 400, 2.5), (19, 300, 33.0)] {
            let pixels = randomPixels(width: width, height: height, &random)
            let kernel = GaussianKernel(sigma: sigma)
            let expected = perChannel(pixels, width: width, height: height) { plane in
                var alpha = AlphaPlane(width: width, height: height, values: plane)
                alpha.blur(with: kernel, threads: 1)
                plane = alpha.values
            }
            for threads in [1, 2, 5] {
                var blurred = pixels
                kernel.blurRGBA(&blurred, width: width, height: height, threads: threads)
                XCTAssertEqual(blurred, expected, "\(width)x\(height), sigma \(sigma), \(threads) threads")
            }
        }
    }

    /// The pair multiply-add (pmaddwd on x86-64) equals its plain-SIMD form, which other
    /// architectures run, on the values the vertical pass feeds it (biased h16, weights < 2^15).
    func testPairMultiplyAddEqualsItsPortableForm() {
        var random = SplitMix64(seed: 5)
        for _ in 0..<10_000 {
            let a = SIMD8<Int16>((0..<8).map { _ in Int16(truncatingIfNeeded: random.next()) })
            let b = SIMD8<Int16>((0..<8).map { _ in Int16(truncatingIfNeeded: random.next() & 0x7FFF) })
            XCTAssertEqual(multiplyAddPairs(a, b), multiplyAddPairsPortable(a, b))
        }
        let extreme = SIMD8<Int16>(repeating: .min), weights = SIMD8<Int16>(repeating: .max)
        XCTAssertEqual(multiplyAddPairs(extreme, weights), SIMD4(repeating: -2 * 32768 * 32767))
    }

    func testGaussianBlurFilterGivesTheRGBABlur() throws {
        var random = SplitMix64(seed: 21)
        let bitmap = Bitmap(width: 90, height: 70, pixels: randomPixels(width: 90, height: 70, &random))
        let region = PixelRect(x: 0, y: 0, width: 90, height: 70)
        let kernel = GaussianKernel(sigma: 3)
        var expected = bitmap
        kernel.blurRGBA(&expected)
        for services in [FilterServices.cpu, .withoutRenderer] {
            let out = try FilterEvaluator(services: services)
                .render(.filtered(.bitmap(bitmap), .gaussianBlur(radius: 3)), in: region)
            XCTAssertEqual(out.pixels, expected.pixels)
            XCTAssertNotEqual(out.pixels, bitmap.pixels, "the blur changed the image")
        }
    }
}
