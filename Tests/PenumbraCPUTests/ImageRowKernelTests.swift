// The image row sampler's AVX2 kernel (CSampleKernels, penumbra_sample.c)
// against its Swift loop: random images and affine maps, positions that clamp
// at every edge, negative and fractional ones, 2 x 2 images, rows of every
// length modulo 8, and the maps the kernel must leave to Swift (one texel
// wide, positions past 2^22).

import Foundation
import XCTest
@testable import PenumbraCPU
import PenumbraModel
import PenumbraCore

final class ImageRowKernelTests: XCTestCase {
    private func shade(_ sampler: ImageRowSampler, _ image: Bitmap, y: Int, x0: Int, count: Int,
                       _ code: VectorCode) -> [SIMD4<UInt8>] {
        var colors = [SIMD4<UInt8>](repeating: SIMD4(1, 2, 3, 4), count: count)
        image.pixels.withUnsafeBufferPointer { texels in
            colors.withUnsafeMutableBufferPointer { out in
                sampler.shade(y: y, x0: x0, count: count, texels: texels.baseAddress!, width: image.width,
                              colors: out.baseAddress!, code: code)
            }
        }
        return colors
    }

    private func randomImage(_ width: Int, _ height: Int, _ rng: inout some RandomNumberGenerator) -> Bitmap {
        var image = Bitmap(width: width, height: height)
        for i in image.pixels.indices { image.pixels[i] = UInt8.random(in: 0...255, using: &rng) }
        return image
    }

    func testTheKernelGivesTheSwiftLoopsBytes() throws {
        guard avx2Runs(.imageRows) else { return }
        var rng = SystemRandomNumberGenerator()
        var vectorRows = 0
        for trial in 0..<400 {
            let width = Int.random(in: 2...40, using: &rng), height = Int.random(in: 2...40, using: &rng)
            let image = randomImage(width, height, &rng)
            // Scales from 1/8 to 8, any rotation, origins around and outside the image.
            let angle = Double.random(in: 0..<(2 * .pi), using: &rng), scale = pow(2, Double.random(in: -3...3, using: &rng))
            let (c, s) = (cos(angle) / scale, sin(angle) / scale)
            let ox = Double.random(in: -30...Double(width + 30), using: &rng), oy = Double.random(in: -30...Double(height + 30), using: &rng)
            let horizontal = FixedAffine(value: ox, stepX: c, stepY: -s), vertical = FixedAffine(value: oy, stepX: s, stepY: c)
            // Clamping bounds: the whole image, or a sub-rectangle (a nine-slice region's), at least 2 wide.
            let c0 = Int32.random(in: 0...Int32(width - 2), using: &rng), r0 = Int32.random(in: 0...Int32(height - 2), using: &rng)
            let columns = (c0, Int32.random(in: (c0 + 1)...Int32(width - 1), using: &rng))
            let rows = (r0, Int32.random(in: (r0 + 1)...Int32(height - 1), using: &rng))
            let sampler = ImageRowSampler(horizontal: horizontal, vertical: vertical, columns: columns, rows: rows)
            let y = Int.random(in: -50...50, using: &rng), x0 = Int.random(in: -50...50, using: &rng)
            let count = Int.random(in: 1...70, using: &rng)
            if count >= 8 { vectorRows += 1 }
            XCTAssertEqual(shade(sampler, image, y: y, x0: x0, count: count, .avx2),
                           shade(sampler, image, y: y, x0: x0, count: count, .portable),
                           "trial \(trial): \(width) x \(height), angle \(angle), scale \(scale), row \(y) from \(x0), \(count) pixels")
        }
        XCTAssertGreaterThan(vectorRows, 300, "most rows reach the kernel")
    }

    func testMapsTheKernelCannotTakeStayOnTheSwiftLoop() throws {
        guard avx2Runs(.imageRows) else { return }
        var rng = SystemRandomNumberGenerator()
        let image = randomImage(1, 9, &rng), wide = randomImage(16, 16, &rng)
        // One texel wide: the kernel's adjacent pairs do not exist; the loop's clamp repeats the texel.
        let thin = ImageRowSampler(horizontal: FixedAffine(value: -3, stepX: 0.37, stepY: 0), vertical: FixedAffine(value: 1, stepX: 0.2, stepY: 1),
                                   columns: (0, 0), rows: (0, 8))
        XCTAssertEqual(shade(thin, image, y: 2, x0: 0, count: 33, .avx2), shade(thin, image, y: 2, x0: 0, count: 33, .portable))
        // Positions past 2^22 texels (a huge step), clamped to the last column by the loop.
        let far = ImageRowSampler(horizontal: FixedAffine(value: 3, stepX: 1e6, stepY: 0), vertical: FixedAffine(value: 3.5, stepX: 0, stepY: 1),
                                  columns: (0, 15), rows: (0, 15))
        let farRow = shade(far, wide, y: 0, x0: 0, count: 24, .avx2)
        XCTAssertEqual(farRow, shade(far, wide, y: 0, x0: 0, count: 24, .portable))
        XCTAssertEqual(farRow[20], farRow[23], "past the image every pixel is the clamped edge")
    }
}
