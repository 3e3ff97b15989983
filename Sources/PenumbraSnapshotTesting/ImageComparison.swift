// ImageComparison: the one rule that decides whether a snapshot matches its
// reference. Two bitmaps of different sizes never match; otherwise a pixel
// matches when each of its four premultiplied bytes is within
// `perPixelTolerance` of the reference's, and the images match when at most
// ⌊(1 − precision) × pixels⌋ pixels do not. Integer counting, so a precision
// like 0.99 over 100 pixels allows exactly one (a tiny epsilon absorbs the
// binary rounding of 1 − 0.99).

import Penumbra

/// What comparing a snapshot with its reference found.
package struct ImageComparison: Equatable, Sendable {
    /// Reference and snapshot sizes in pixels.
    package var referenceSize: (width: Int, height: Int)
    package var actualSize: (width: Int, height: Int)
    /// Pixels with a channel over the tolerance (0 when the sizes differ: nothing was compared).
    package var differingPixels: Int
    /// Pixels compared (width × height when the sizes agree).
    package var pixelCount: Int
    /// How many differing pixels the precision allows.
    package var allowedDifferingPixels: Int
    /// The largest per-channel difference found (0...255), and the first pixel that has it.
    package var largestDifference: Int
    package var largestDifferenceAt: (x: Int, y: Int)?

    /// Whether the sizes agree.
    package var sizesMatch: Bool { referenceSize == actualSize }
    /// Whether the snapshot counts as matching the reference.
    package var matches: Bool { sizesMatch && differingPixels <= allowedDifferingPixels }

    package static func == (a: ImageComparison, b: ImageComparison) -> Bool {
        a.referenceSize == b.referenceSize && a.actualSize == b.actualSize && a.differingPixels == b.differingPixels
            && a.pixelCount == b.pixelCount && a.allowedDifferingPixels == b.allowedDifferingPixels
            && a.largestDifference == b.largestDifference && a.largestDifferenceAt?.x == b.largestDifferenceAt?.x
            && a.largestDifferenceAt?.y == b.largestDifferenceAt?.y
    }

    /// Compares `actual` with `reference`: `precision` is the fraction (0...1) of pixels that must
    /// match, `perPixelTolerance` the largest per-channel difference (0...255) a matching pixel may have.
    package init(reference: Bitmap, actual: Bitmap, precision: Double, perPixelTolerance: Int) {
        referenceSize = (reference.width, reference.height)
        actualSize = (actual.width, actual.height)
        differingPixels = 0; largestDifference = 0; largestDifferenceAt = nil
        guard reference.width == actual.width, reference.height == actual.height else {
            pixelCount = 0; allowedDifferingPixels = 0
            return
        }
        let width = reference.width
        pixelCount = width * reference.height
        allowedDifferingPixels = Self.allowedDifferingPixels(pixelCount: pixelCount, precision: precision)
        var differing = 0, largest = 0, largestAt = -1
        reference.pixels.withUnsafeBufferPointer { r in
            actual.pixels.withUnsafeBufferPointer { a in
                for pixel in 0..<(r.count / 4) {
                    let i = pixel * 4
                    var worst = 0
                    for c in 0..<4 { worst = max(worst, abs(Int(r[i + c]) - Int(a[i + c]))) }
                    if worst > perPixelTolerance { differing += 1 }
                    if worst > largest { largest = worst; largestAt = pixel }
                }
            }
        }
        differingPixels = differing
        largestDifference = largest
        if largestAt >= 0 { largestDifferenceAt = (largestAt % width, largestAt / width) }
    }

    /// ⌊(1 − precision) × pixelCount⌋, with the binary rounding of `1 - precision` absorbed.
    package static func allowedDifferingPixels(pixelCount: Int, precision: Double) -> Int {
        let allowed = (1 - min(1, max(0, precision))) * Double(pixelCount)
        return min(pixelCount, Int((allowed + 1e-6).rounded(.down)))
    }

    /// The failure message: the sizes, or how many pixels differ and by how much at most.
    package func failureMessage(precision: Double, perPixelTolerance: Int) -> String {
        if !sizesMatch {
            let unreadable = referenceSize == (0, 0) ? " (a reference that is not a PNG reads as 0 × 0)" : ""
            return "The sizes differ: the reference is \(referenceSize.width) × \(referenceSize.height) px\(unreadable), "
                + "the snapshot \(actualSize.width) × \(actualSize.height) px."
        }
        let percent = pixelCount == 0 ? 0 : Double(differingPixels) * 100 / Double(pixelCount)
        var text = "\(differingPixels) of \(pixelCount) pixels differ (\(Self.format(percent))%) by more than "
            + "\(perPixelTolerance) in a channel; precision \(Self.format(precision)) allows \(allowedDifferingPixels)."
        if let at = largestDifferenceAt {
            text += " The largest difference is \(largestDifference) of 255, first at x \(at.x), y \(at.y)."
        }
        return text
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
