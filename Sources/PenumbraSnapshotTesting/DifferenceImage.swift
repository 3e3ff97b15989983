// DifferenceImage: the picture written beside a failed snapshot. Each channel
// is |snapshot − reference| of the premultiplied bytes, amplified so that a
// difference of 1 is plainly visible (0 stays black, d > 0 becomes
// 64 + d·191/255), with the alpha difference added to all three colours (an
// alpha-only change shows grey), drawn opaque. Where only one image has
// pixels (sizes differ) the picture is magenta.

import Penumbra

package enum DifferenceImage {
    /// The amplified difference of two bitmaps, as large as both together (opaque).
    package static func make(reference: Bitmap, actual: Bitmap) -> Bitmap {
        let width = max(reference.width, actual.width), height = max(reference.height, actual.height)
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let o = (y * width + x) * 4
                guard x < reference.width, y < reference.height, x < actual.width, y < actual.height else {
                    out[o] = 255; out[o + 1] = 0; out[o + 2] = 255; out[o + 3] = 255
                    continue
                }
                let r = (y * reference.width + x) * 4, a = (y * actual.width + x) * 4
                let alpha = abs(Int(reference.pixels[r + 3]) - Int(actual.pixels[a + 3]))
                for c in 0..<3 {
                    let d = max(alpha, abs(Int(reference.pixels[r + c]) - Int(actual.pixels[a + c])))
                    out[o + c] = amplify(d)
                }
                out[o + 3] = 255
            }
        }
        return Bitmap(width: width, height: height, pixels: out)
    }

    /// 0 for no difference, else 64 + d·191/255: a difference of 1 shows as 64, of 255 as 255.
    package static func amplify(_ difference: Int) -> UInt8 {
        difference == 0 ? 0 : UInt8(64 + difference * 191 / 255)
    }
}
