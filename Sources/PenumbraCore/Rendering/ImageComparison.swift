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

    /// An image of the difference for people: each channel's absolute difference times
    /// `amplification`, opaque, so that a difference of 1 is visible.
    public static func amplifiedDifference(_ a: Bitmap, _ b: Bitmap, amplification: Int = 32) -> Bitmap? {
        guard a.width == b.width, a.height == b.height else { return nil }
        var out = Bitmap(width: a.width, height: a.height)
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            var alphaDiff = 0
            for k in 0..<3 {
                let d = abs(Int(a.pixels[i + k]) - Int(b.pixels[i + k]))
                out.pixels[i + k] = UInt8(min(255, d * amplification))
            }
            alphaDiff = abs(Int(a.pixels[i + 3]) - Int(b.pixels[i + 3]))
            // Alpha differences show in every channel so that they are not lost.
            for k in 0..<3 { out.pixels[i + k] = max(out.pixels[i + k], UInt8(min(255, alphaDiff * amplification))) }
            out.pixels[i + 3] = 255
        }
        return out
    }
}
