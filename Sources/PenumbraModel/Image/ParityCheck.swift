// ParityCheck: the verdict on one scene's two renderings, the CPU reference
// and the GPU's, under the parity contract of SCENE_FORMAT.md: byte identity
// ("The GPU renderer's output is byte-identical to the CPU renderer's output
// for every valid scene"). The statistics are ImageDifference's; this adds
// what a report needs: the figures in the units people read, the sizes when
// they do not match (a size mismatch always fails), and the reasons for a
// failure in words. Kept free of rendering so that it can be tested with
// made-up bitmaps.
import Foundation

/// The outcome of comparing a candidate rendering (the GPU's) with the reference (the CPU's).
public struct ParityVerdict: Hashable, Sendable {
    /// The reference rendering's size in pixels.
    public let referenceWidth: Int, referenceHeight: Int
    /// The candidate rendering's size in pixels.
    public let candidateWidth: Int, candidateHeight: Int
    /// The statistics of the difference; nil when the sizes differ.
    public let difference: ImageDifference?

    /// True when the candidate meets the parity contract: the same size and the same bytes.
    public var passes: Bool { difference?.isExact ?? false }
    /// The largest difference of any channel value (0 when the sizes differ, see `problems`).
    public var maxChannelDifference: Int { difference?.maxChannelDifference ?? 0 }
    /// The share of channel values that differ, in percent (0...100).
    public var percentDiffering: Double { (difference?.fractionDiffering ?? 0) * 100 }
    /// Pixels with some channel that differs.
    public var pixelsDiffering: Int { difference?.pixelsDiffering ?? 0 }

    /// Why the candidate fails, one sentence per broken rule; empty when it passes.
    public var problems: [String] {
        guard let d = difference else {
            return ["sizes differ: reference \(referenceWidth)x\(referenceHeight), "
                    + "candidate \(candidateWidth)x\(candidateHeight)"]
        }
        guard !d.isExact else { return [] }
        return [String(format: "%d channel values (%.4f%%) in %d pixels differ, by at most %d",
                       d.valuesDiffering, d.fractionDiffering * 100, d.pixelsDiffering, d.maxChannelDifference)]
    }

    /// The figures in one line: size, then `identical  PASS`, or the max difference, the values
    /// and pixels that differ and FAIL.
    public var summary: String {
        guard let difference else { return "\(referenceWidth)x\(referenceHeight)  FAIL  \(problems[0])" }
        guard !difference.isExact else { return "\(referenceWidth)x\(referenceHeight)  identical  PASS" }
        return "\(referenceWidth)x\(referenceHeight)  max \(maxChannelDifference)  "
            + String(format: "%.4f%% of values", percentDiffering) + "  \(pixelsDiffering) px  FAIL"
    }
}

/// Applies the parity contract to two renderings of one scene.
public enum ParityCheck {
    /// Compares `candidate` (the GPU's rendering) with `reference` (the CPU's).
    public static func check(reference: Bitmap, candidate: Bitmap) -> ParityVerdict {
        ParityVerdict(referenceWidth: reference.width, referenceHeight: reference.height,
                      candidateWidth: candidate.width, candidateHeight: candidate.height,
                      difference: ImageDifference(reference, candidate))
    }
}
