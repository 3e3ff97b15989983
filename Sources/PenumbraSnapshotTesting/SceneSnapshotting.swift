// SceneSnapshotting: a decoded Scene snapshots as the image it renders to,
// on the CPU reference renderer unless asked otherwise (the GPU's pixels are
// byte-identical, so one reference serves both). A render that throws (no GPU
// for `.gpu`, a scene over its budget) is reported as a test issue naming the
// error, and no snapshot is taken (verifySnapshot then stops at its timeout),
// so a broken render is never recorded as a reference.

import Foundation
import Penumbra
import SnapshotTesting
import Testing
import XCTest

extension Snapshotting where Value == Scene, Format == Image {
    /// Renders a scene on the CPU and compares its pixels exactly with a PNG reference.
    public static var image: Snapshotting<Scene, Image> { image() }

    /// Renders a scene and compares its pixels with a PNG reference, allowing some difference.
    ///
    /// A render that throws is reported as a test issue and takes no snapshot (the assertion
    /// then fails at its timeout), so it is never recorded.
    ///
    /// - Parameters:
    ///   - backend: The renderer: `.cpu` (the default, the reference renderer), `.gpu` or `.auto`.
    ///   - precision: The fraction of pixels, 0...1, that must match (1: every pixel).
    ///   - perPixelTolerance: The largest difference, 0...255, of any premultiplied channel of a
    ///     pixel that still counts as matching.
    public static func image(backend: Backend = .cpu, precision: Double = 1, perPixelTolerance: Int = 0)
        -> Snapshotting<Scene, Image> {
        Snapshotting<Image, Image>.image(precision: precision, perPixelTolerance: perPixelTolerance)
            .asyncPullback { scene in
                Async { callback in
                    do {
                        callback(try SceneRendering.image(of: scene, backend: backend))
                    } catch {
                        SceneRendering.report("PenumbraSnapshotTesting: rendering the scene on \(backend) failed: \(error)")
                    }
                }
            }
    }
}

package enum SceneRendering {
    /// The scene's pixels from `backend`'s renderer, at the scene's scale.
    package static func image(of scene: Scene, backend: Backend) throws -> Image {
        let renderer = try backend.makeRenderer().renderer
        return Image(bitmap: try renderer.render(try scene.displayList()), scale: scene.scale)
    }

    /// Fails the current test, Swift Testing's or XCTest's.
    static func report(_ message: String) {
        if Test.current != nil {
            Issue.record(Comment(rawValue: message))
        } else {
            XCTFail(message)
        }
    }
}
