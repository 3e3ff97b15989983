// MaskRowBlendTests: a solid paint composited a row of mask spans at a time
// (`BlendMode.blendRow(source:mask:...)`, normal mode's 16-bit lanes among
// them) gives, pixel for pixel, the per-pixel composite of the mask's coverage.
import XCTest
import PenumbraTestSupport
import PenumbraModel
@_spi(Stages) import PenumbraCore
import PenumbraCPU

final class MaskRowBlendTests: XCTestCase {
    /// Every mode, sources valid and not (colour above alpha: normal mode's Int32 fallback),
    /// opaque and clear; masks with explicit and constant spans, full and partial coverage;
    /// whole rows and a cut of columns.
    func testMaskRowsMatchThePerPixelComposite() {
        var g = SplitMix64(seed: 0x5A11_0B1E)
        let width = 203, height = 24
        let region = PixelRect(x: 0, y: 0, width: width, height: height)
        // A ring (long constant runs inside, explicit edges) and a random polygon.
        var ring = Path()
        ring.addEllipse(in: Rect(x: -40, y: 1.3, width: 260, height: 40))
        ring.addEllipse(in: Rect(x: -20, y: 6.6, width: 230, height: 28))
        let shapes = [DeviceShape(contours: ring.flattened(transform: .identity).map(\.points), rule: .evenOdd),
                      DeviceShape(contours: [(0..<9).map { _ in g.point(in: -20...220) }], rule: .nonzero)]
        let sources: [SIMD4<UInt8>] = [SIMD4(40, 90, 200, 255), SIMD4(30, 60, 90, 128), .zero, SIMD4(0, 0, 0, 255),
                                       SIMD4(200, 10, 10, 100), SIMD4(128, 128, 128, 128)]
        let original: [UInt8] = (0..<width * height).flatMap { _ -> [UInt8] in
            let a = UInt8(truncatingIfNeeded: g.next())
            return (0..<3).map { _ in UInt8(truncatingIfNeeded: Int(g.next() % 256) * Int(a) / 255) } + [a]
        }
        var checked = 0
        for shape in shapes {
            let mask = Rasterizer.coverage(of: shape, in: region)
            let dense = mask.denseValues()
            for mode in BlendMode.allCases {
                for source in sources {
                    for (from, to) in [(0, width), (17, 150)] {
                        var pixels = original
                        pixels.withUnsafeMutableBufferPointer { p in
                            for y in 0..<height {
                                mode.blendRow(source: source, mask: mask, y: y, from: from, to: to,
                                              row: p.baseAddress! + (y * width + from) * 4, rowX: from)
                            }
                        }
                        for y in 0..<height {
                            for x in 0..<width {
                                let i = y * width + x
                                let d = SIMD4<Int32>((0..<4).map { Int32(original[4 * i + $0]) })
                                let t = (from..<to).contains(x) ? Int32(dense[i]) : 0
                                let r = composite(source: SIMD4<Int32>(truncatingIfNeeded: source), destination: d,
                                                  coverage: t, mode: mode)
                                let actual = SIMD4<Int32>((0..<4).map { Int32(pixels[4 * i + $0]) })
                                if actual != r {
                                    XCTFail("\(mode) \(source) columns \(from)..<\(to): pixel (\(x), \(y)) coverage \(t) is \(actual), expected \(r)")
                                    return
                                }
                                checked += 1
                            }
                        }
                    }
                }
            }
            // The mask has both kinds of span, partial and full coverage.
            XCTAssertTrue(dense.contains(255) && dense.contains { $0 > 0 && $0 < 255 })
        }
        XCTAssertEqual(checked, shapes.count * BlendMode.allCases.count * sources.count * 2 * width * height)
    }
}
