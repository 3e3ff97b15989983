// ImageDiffing: how an Image travels to and from disk and how two are
// compared. On disk it is a PNG written by Penumbra's own encoder (the same
// pixels always give the same bytes; the premultiplied bytes round-trip
// exactly); only the pixels are kept (scale and drawing attributes are not
// part of the snapshot). The comparison is ImageComparison's.

import Foundation
import Penumbra
import SnapshotTesting

extension Diffing where Value == Image {
    /// Compares images by their premultiplied RGBA8 pixels and stores them as PNG.
    ///
    /// Two images of different pixel sizes never match. A pixel matches when each of its four
    /// premultiplied bytes differs from the reference's by at most `perPixelTolerance`; the images
    /// match when at least `precision` of their pixels match (at most ⌊(1 − precision) × pixels⌋
    /// may not). The failure message says how many pixels differ and the largest difference.
    ///
    /// - Parameters:
    ///   - precision: The fraction of pixels, 0...1, that must match (1: every pixel).
    ///   - perPixelTolerance: The largest difference, 0...255, of any channel of a matching pixel.
    public static func image(precision: Double = 1, perPixelTolerance: Int = 0) -> Diffing<Image> {
        precondition((0...1).contains(precision), "precision \(precision) is outside 0...1")
        precondition((0...255).contains(perPixelTolerance), "perPixelTolerance \(perPixelTolerance) is outside 0...255")
        return .diff(
            toData: { Data(ImageFile.png($0.bitmap)) },
            fromData: { Image(bitmap: ImageFile.bitmap(fromPNG: [UInt8]($0))) },
            diffV2: { reference, actual in
                let comparison = ImageComparison(reference: reference.bitmap, actual: actual.bitmap,
                                                 precision: precision, perPixelTolerance: perPixelTolerance)
                guard !comparison.matches else { return nil }
                let difference = ImageDifference.amplifiedDifference(reference.bitmap, actual.bitmap)
                return (comparison.failureMessage(precision: precision, perPixelTolerance: perPixelTolerance),
                        [.data(Data(ImageFile.png(difference)), name: "difference.png")])
            })
    }
}

/// PNG in and out, never throwing: what cannot be encoded or decoded is empty.
package enum ImageFile {
    /// The PNG of `bitmap`; empty for a bitmap PNG cannot hold (0 × 0).
    package static func png(_ bitmap: Bitmap) -> [UInt8] {
        (try? PNGCodec.encode(bitmap)) ?? []
    }

    /// The pixels of a PNG; a 0 × 0 bitmap when `data` is not one.
    package static func bitmap(fromPNG data: [UInt8]) -> Bitmap {
        (try? PNGCodec.decode(data)) ?? Bitmap(width: 0, height: 0)
    }
}
