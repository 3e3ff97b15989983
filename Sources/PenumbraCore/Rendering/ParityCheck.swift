// ParityCheck: the verdict on one scene's two renderings, the CPU reference
// and the GPU's, under the parity contract of SCENE_FORMAT.md:
//
//   "every channel differs by at most 2, except at no more than 0.01% of
//   pixels (and at least one allowed) where a decision taken at a pixel
//   centre ... may flip; and at most 0.1% of the channel values differ at
//   all by more than 1."
//
// The statistics are ImageDifference's; this adds what a report needs: the
// figures in the units people read (percent), the sizes when they do not
// match (a size mismatch always fails), and the reasons for a failure in
// words. Kept free of rendering so that it can be tested with made-up bitmaps.
import Foundation

/// The outcome of comparing a candidate rendering (the GPU's) with the reference (the CPU's).
public struct ParityVerdict: Hashable, Sendable {
    /// The reference rendering's size in pixels.
    public let referenceWidth: Int, referenceHeight: Int
    /// The candidate rendering's size in pixels.
    public let candidateWidth: Int, candidateHeight: Int
    /// The statistics of the difference; nil when the sizes differ.
    public let difference: ImageDifference?

    /// True when the candidate meets the parity contract (same size, and within its tolerances).
    public var passes: Bool { difference?.meetsParityContract ?? false }
    /// The largest difference of any channel value (0 when the sizes differ, see `problems`).
    public var maxChannelDifference: Int { difference?.maxChannelDifference ?? 0 }
    /// The share of channel values off by more than 1, in percent (0...100).
    public var percentOffByMoreThanOne: Double { (difference?.fractionOffByMoreThanOne ?? 0) * 100 }
    /// Pixels with some channel off by more than 2.
    public var pixelsOffByMoreThanTwo: Int { difference?.pixelsOffByMoreThanTwo ?? 0 }

    /// Why the candidate fails, one sentence per broken rule; empty when it passes.
    public var problems: [String] {
        guard let d = difference else {
            return ["sizes differ: reference \(referenceWidth)x\(referenceHeight), "
                    + "candidate \(candidateWidth)x\(candidateHeight)"]
        }
        var out: [String] = []
        if d.pixelsOffByMoreThanTwo > d.allowedPixelsOffByMoreThanTwo {
            out.append("\(d.pixelsOffByMoreThanTwo) pixels off by more than 2 "
                       + "(at most \(d.allowedPixelsOffByMoreThanTwo) allowed)")
        }
        if d.fractionOffByMoreThanOne > ImageDifference.allowedFractionOffByMoreThanOne {
            out.append(String(format: "%.4f%% of channel values off by more than 1 (at most %.1f%% allowed)",
                              d.fractionOffByMoreThanOne * 100, ImageDifference.allowedFractionOffByMoreThanOne * 100))
        }
        return out
    }

    /// The figures in one line: size, max difference, percent off by more than 1, pixels off
    /// by more than 2, and PASS or FAIL.
    public var summary: String {
        guard difference != nil else { return "\(referenceWidth)x\(referenceHeight)  FAIL  \(problems[0])" }
        return "\(referenceWidth)x\(referenceHeight)  max \(maxChannelDifference)  "
            + String(format: ">1: %.4f%%", percentOffByMoreThanOne)
            + "  >2: \(pixelsOffByMoreThanTwo) px  " + (passes ? "PASS" : "FAIL")
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
