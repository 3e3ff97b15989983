// ViewSnapshotting: a view snapshots as its hierarchy rendered into its own
// bounds (View.snapshot), on the CPU reference renderer unless asked
// otherwise; the pixels are the same on every Linux machine and on the GPU.
// A render that throws is reported like a scene's (SceneSnapshotting.swift).

import Penumbra
import PenumbraUI
import SnapshotTesting

extension Snapshotting where Value: View, Format == Image {
    /// Renders a view and its subviews at scale 2 on the CPU and compares the pixels exactly
    /// with a PNG reference: `assertSnapshot(of: view, as: .image)`.
    public static var image: Snapshotting<Value, Image> { image() }

    /// Renders a view and its subviews into an image of its bounds' size and compares its pixels
    /// with a PNG reference, allowing some difference.
    ///
    /// - Parameters:
    ///   - scale: Pixels per point (2 by default).
    ///   - layoutDirection: The direction of the root (views with `unspecified` semantic content follow it).
    ///   - backend: The renderer: `.cpu` (the default, the reference renderer), `.gpu` or `.auto`.
    ///   - precision: The fraction of pixels, 0...1, that must match (1: every pixel).
    ///   - perPixelTolerance: The largest difference, 0...255, of any premultiplied channel of a
    ///     pixel that still counts as matching.
    public static func image(scale: Double = 2, layoutDirection: LayoutDirection = .leftToRight, backend: Backend = .cpu,
                             precision: Double = 1, perPixelTolerance: Int = 0) -> Snapshotting<Value, Image> {
        Snapshotting<Image, Image>.image(precision: precision, perPixelTolerance: perPixelTolerance)
            .asyncPullback { view in
                Async { callback in
                    do {
                        callback(try view.snapshot(scale: scale, layoutDirection: layoutDirection, backend: backend))
                    } catch {
                        SceneRendering.report("PenumbraSnapshotTesting: rendering the view on \(backend) failed: \(error)")
                    }
                }
            }
    }
}
