// ImageComparison: how two renderings of the same scene differ, and whether
// that difference is within the parity contract of SCENE_FORMAT.md:
// every channel within 2, except at no more than 0.01% of pixels (at least
// one allowed) where a decision at a pixel centre may flip; and at most
// 0.1% of channel values off by more than 1. Reference-image tests use the
// same statistics with a tighter tolerance.

/// Per-channel statistics of the difference between two bitmaps of the same size.
public struct ImageDifference: Hashable, Sendable, CustomStringConvertible {
    public let width: Int
    public let height: Int
    /// The largest difference of any channel value.
    public let maxChannelDifference: Int
    /// Channel values that differ at all.
    public let valuesDiffering: Int
    /// Channel values that differ by more than 1.
    public let valuesOffByMoreThanOne: Int
    /// Pixels with some channel off by more than 2.
    public let pixelsOffByMoreThanTwo: Int

    /// Compares two bitmaps; nil when their sizes differ.
    public init?(_ a: Bitmap, _ b: Bitmap) {
        guard a.width == b.width, a.height == b.height else { return nil }
        width = a.width; height = a.height
        var maxDiff = 0, differing = 0, overOne = 0, pixelsOverTwo = 0
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                var i = 0
                while i < pa.count {
                    var pixelMax = 0
                    for k in 0..<4 {
                        let d = abs(Int(pa[i + k]) - Int(pb[i + k]))
                        if d > 0 { differing += 1 }
                        if d > 1 { overOne += 1 }
                        pixelMax = max(pixelMax, d)
                    }
                    if pixelMax > 2 { pixelsOverTwo += 1 }
                    maxDiff = max(maxDiff, pixelMax)
                    i += 4
                }
            }
        }
        maxChannelDifference = maxDiff; valuesDiffering = differing
        valuesOffByMoreThanOne = overOne; pixelsOffByMoreThanTwo = pixelsOverTwo
    }

    /// Number of channel values compared.
    public var valueCount: Int { width * height * 4 }
    /// Share of channel values off by more than 1, in 0...1.
    public var fractionOffByMoreThanOne: Double { valueCount == 0 ? 0 : Double(valuesOffByMoreThanOne) / Double(valueCount) }
    /// True when the two images are identical.
    public var isExact: Bool { valuesDiffering == 0 }

    /// The parity contract: every channel within 2 except at max(1, 0.01% of pixels) pixels, and
    /// at most 0.1% of channel values off by more than 1.
    public var meetsParityContract: Bool {
        pixelsOffByMoreThanTwo <= allowedPixelsOffByMoreThanTwo
            && fractionOffByMoreThanOne <= ImageDifference.allowedFractionOffByMoreThanOne
    }

    /// The parity contract's allowance of pixels off by more than 2: "no more than 0.01% of
    /// pixels (and at least one allowed)".
    public var allowedPixelsOffByMoreThanTwo: Int { max(1, (width * height) / 10_000) }
    /// The parity contract's allowance of channel values off by more than 1: "at most 0.1%".
    public static let allowedFractionOffByMoreThanOne = 0.001

    public var description: String {
        "max difference \(maxChannelDifference), \(valuesDiffering) values differ, "
            + "\(valuesOffByMoreThanOne) (\(String(format: "%.4f", fractionOffByMoreThanOne * 100))%) off by more than 1, "
            + "\(pixelsOffByMoreThanTwo) pixels off by more than 2"
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
