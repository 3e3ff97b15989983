// ImageSnapshotting: the base strategy, Image → PNG. Every other value type
// (bitmaps, scenes, later views) is a pullback of `Snapshotting<Image, Image>`,
// so the assertSnapshot/verifySnapshot overloads that add the difference image
// (AssertImageSnapshot.swift) apply to all of them.

import Penumbra
import SnapshotTesting

extension Snapshotting where Value == Image, Format == Image {
    /// Compares an image's pixels exactly with a PNG reference.
    ///
    /// Other value types snapshot as images by pulling this strategy back, for example
    /// `Snapshotting<Image, Image>.image.pullback { (bitmap: Bitmap) in Image(bitmap: bitmap) }`.
    public static var image: Snapshotting<Image, Image> { image() }

    /// Compares an image's pixels with a PNG reference, allowing some difference.
    ///
    /// - Parameters:
    ///   - precision: The fraction of pixels, 0...1, that must match (1: every pixel).
    ///   - perPixelTolerance: The largest difference, 0...255, of any premultiplied channel of a
    ///     pixel that still counts as matching.
    public static func image(precision: Double = 1, perPixelTolerance: Int = 0) -> Snapshotting<Image, Image> {
        Snapshotting(pathExtension: "png", diffing: .image(precision: precision, perPixelTolerance: perPixelTolerance))
    }
}

extension Snapshotting where Value == Bitmap, Format == Image {
    /// Compares a bitmap's pixels exactly with a PNG reference.
    public static var image: Snapshotting<Bitmap, Image> { image() }

    /// Compares a bitmap's pixels with a PNG reference, allowing some difference (see
    /// `Snapshotting<Image, Image>.image(precision:perPixelTolerance:)`).
    ///
    /// - Parameters:
    ///   - precision: The fraction of pixels, 0...1, that must match (1: every pixel).
    ///   - perPixelTolerance: The largest difference, 0...255, of any channel of a matching pixel.
    public static func image(precision: Double = 1, perPixelTolerance: Int = 0) -> Snapshotting<Bitmap, Image> {
        Snapshotting<Image, Image>.image(precision: precision, perPixelTolerance: perPixelTolerance)
            .pullback { Image(bitmap: $0) }
    }
}
