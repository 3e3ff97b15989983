// ReferencePlaneBlur: the Gaussian plane blur written tap by tap from its
// definition (docs/ARITHMETIC.md, "Gaussian blur"): the oracle that the fast
// blurs are held to (BlurTests for the shadow's plane blur, RGBABlurTests for
// the interleaved RGBA blur). All compute the same integer sums, so their
// planes are identical:
//     h = sum W[i] a[x + i - r],    h16 = (h + 2^7) >> 8
//     v = sum W[i] h16[y + i - r],  out = (v + 2^23) >> 24
// with samples outside the plane 0. O(width x height x (2r + 1)) per pass.
import PenumbraModel
import PenumbraCore
import PenumbraCPU

extension GaussianKernel {
    /// Blurs a row-major U8 plane in place (zeros outside it).
    func blurReference(_ plane: inout [UInt8], width: Int, height: Int) {
        guard radius > 0, width > 0, height > 0 else { return }
        var middle = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var h: UInt32 = 0
                for i in max(0, radius - x)...min(2 * radius, width - 1 - x + radius) {
                    h &+= weights[i] &* UInt32(plane[y * width + x + i - radius])
                }
                middle[y * width + x] = (h &+ 128) >> 8
            }
        }
        for y in 0..<height {
            for x in 0..<width {
                var v: UInt32 = 0
                for i in max(0, radius - y)...min(2 * radius, height - 1 - y + radius) {
                    v &+= weights[i] &* middle[(y + i - radius) * width + x]
                }
                plane[y * width + x] = UInt8(truncatingIfNeeded: (v &+ (1 << 23)) >> 24)
            }
        }
    }
}

extension FilterServices {
    /// Services with no renderer: enough for filters that draw no display list (all but
    /// generators' gradients and affineTransform, which then fail). The blur is the
    /// interleaved RGBA blur, the same code and bytes as the CPU renderer's services.
    static let withoutRenderer = FilterServices(render: { _ in throw FilterError("this filter needs a renderer") })
}
