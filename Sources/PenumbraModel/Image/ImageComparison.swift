// ImageComparison: how two renderings of the same scene differ. The parity
// contract of SCENE_FORMAT.md is byte identity (`isExact`); the other figures
// say how far apart two renderings are when they are not, for people reading
// a report.

/// Per-channel statistics of the difference between two bitmaps of the same size.
public struct ImageDifference: Hashable, Sendable, CustomStringConvertible {
    /// The width of both bitmaps, in pixels.
    public let width: Int
    /// The height of both bitmaps, in pixels.
    public let height: Int
    /// The largest difference of any channel value.
    public let maxChannelDifference: Int
    /// Channel values that differ at all.
    public let valuesDiffering: Int
    /// Pixels with some channel that differs.
    public let pixelsDiffering: Int

    /// Compares two bitmaps; nil when their sizes differ.
    public init?(_ a: Bitmap, _ b: Bitmap) {
        guard a.width == b.width, a.height == b.height else { return nil }
        width = a.width; height = a.height
        var maxDiff = 0, differing = 0, pixels = 0
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                var i = 0
                while i < pa.count {
                    var pixelMax = 0
                    for k in 0..<4 {
                        let d = abs(Int(pa[i + k]) - Int(pb[i + k]))
                        if d > 0 { differing += 1 }
                        pixelMax = max(pixelMax, d)
                    }
                    if pixelMax > 0 { pixels += 1 }
                    maxDiff = max(maxDiff, pixelMax)
                    i += 4
                }
            }
        }
        maxChannelDifference = maxDiff; valuesDiffering = differing; pixelsDiffering = pixels
    }

    /// Number of channel values compared.
    public var valueCount: Int { width * height * 4 }
    /// Share of channel values that differ, in 0...1.
    public var fractionDiffering: Double { valueCount == 0 ? 0 : Double(valuesDiffering) / Double(valueCount) }
    /// True when the two images are identical: the parity contract.
    public var isExact: Bool { valuesDiffering == 0 }

    public var description: String {
        isExact ? "identical"
            : "max difference \(maxChannelDifference), \(valuesDiffering) values "
              + "(\(String(format: "%.4f", fractionDiffering * 100))%) in \(pixelsDiffering) pixels differ"
    }

    /// An image of the difference for people, as large as both images together and opaque:
    /// each colour channel is the absolute difference of the premultiplied bytes (or of alpha,
    /// whichever is larger, so that an alpha-only change shows grey), amplified by
    /// ``amplified(_:)`` so that a difference of 1 is plainly visible; magenta where only one
    /// image has pixels (their sizes differ).
    public static func amplifiedDifference(_ a: Bitmap, _ b: Bitmap) -> Bitmap {
        let width = max(a.width, b.width), height = max(a.height, b.height)
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let o = (y * width + x) * 4
                guard x < a.width, y < a.height, x < b.width, y < b.height else {
                    out[o] = 255; out[o + 1] = 0; out[o + 2] = 255; out[o + 3] = 255
                    continue
                }
                let i = (y * a.width + x) * 4, k = (y * b.width + x) * 4
                let alpha = abs(Int(a.pixels[i + 3]) - Int(b.pixels[k + 3]))
                for c in 0..<3 { out[o + c] = amplified(max(alpha, abs(Int(a.pixels[i + c]) - Int(b.pixels[k + c])))) }
                out[o + 3] = 255
            }
        }
        return Bitmap(width: width, height: height, pixels: out)
    }

    /// How ``amplifiedDifference(_:_:)`` shows a difference `d` of 0...255: 0 stays black, any
    /// other becomes 64 + d x 191 / 255 (1 shows as 64, 255 as 255).
    public static func amplified(_ d: Int) -> UInt8 { d == 0 ? 0 : UInt8(64 + min(255, d) * 191 / 255) }
}
