// Deferred pixels: an image whose pixels are made when it is first drawn.
// Decoding a scene draws nothing: an offscreen image, a view snapshot, a
// vector image's rasterization and a filter chain's result are images of
// known size whose pixels a producer makes: the scene's renderer draws the
// offscreen scene, the filter graph renderer evaluates the chain. The scene
// keeps its deferred images in the order they were declared complete, which
// is an order in which each comes after the images it draws, and
// `Scene.displayList()` makes them all, throwing the first failure (the
// same error, naming the same place, that decoding used to throw) before
// it lowers a single op. So a scene that fails decoding spends nothing on
// drawing, and what draws an image is what draws the scene.
//
// A producer runs at most once: its result is kept, shared by every copy of
// the image (the storage is a reference), the producer and what it holds
// let go, and two threads asking at once wait for one run. A failure is not kept: a cancelled render leaves the
// image to be made by the next one. Pixels read where nothing can throw
// (`Image.bitmap`) before the scene made them are made there; should that
// fail, the read sees transparent pixels of the image's size, and the
// failure is thrown again where the scene is lowered.
import Synchronization

/// Pixels of a known size made once, on first use, by a producer.
package final class DeferredPixels: Sendable {
    package let width: Int
    package let height: Int
    /// Where the image was declared (a scene's `images.NAME`), for an error in making it.
    package let place: String
    private let state: Mutex<State>

    private enum State {
        /// Not made yet: what makes them.
        case pending(@Sendable () throws -> Bitmap)
        /// Made: the producer (and the scene or graph it holds) is let go.
        case made(Bitmap)
    }

    /// Pixels `width` x `height` that `produce` makes when first asked for; `place` names the
    /// image in an error.
    package init(width: Int, height: Int, place: String, produce: @escaping @Sendable () throws -> Bitmap) {
        self.width = width; self.height = height; self.place = place
        state = Mutex(.pending(produce))
    }

    /// The pixels, made now if they have not been: the producer's error (a renderer's, the
    /// scene's budget, a cancellation) is thrown and the pixels stay unmade.
    package func make() throws -> Bitmap {
        try state.withLock { state in
            switch state {
            case .made(let bitmap):
                return bitmap
            case .pending(let produce):
                let bitmap = try produce()
                guard bitmap.width == width, bitmap.height == height else {
                    throw SceneError(location: place, message: "internal: the image should be \(width) x \(height) pixels but "
                        + "was drawn at \(bitmap.width) x \(bitmap.height)")
                }
                state = .made(bitmap)
                return bitmap
            }
        }
    }

    /// The pixels, or transparent ones of the same size where they cannot be made (the
    /// failure surfaces where the scene is lowered, which calls `make()`).
    package var pixelsOrTransparent: Bitmap {
        (try? make()) ?? Bitmap(width: width, height: height)
    }
}

/// Where an image's pixels are: held, or made on first use.
package enum ImagePixels: Hashable, Sendable {
    case held(Bitmap)
    case deferred(DeferredPixels)

    package var width: Int {
        switch self {
        case .held(let b): b.width
        case .deferred(let d): d.width
        }
    }
    package var height: Int {
        switch self {
        case .held(let b): b.height
        case .deferred(let d): d.height
        }
    }
    /// The pixels, made now if they are deferred.
    package var bitmap: Bitmap {
        switch self {
        case .held(let b): b
        case .deferred(let d): d.pixelsOrTransparent
        }
    }

    /// Equal when they hold equal pixels; deferred storage compares its pixels (making them),
    /// unless both are the same storage.
    package static func == (a: ImagePixels, b: ImagePixels) -> Bool {
        if case .deferred(let x) = a, case .deferred(let y) = b, x === y { return true }
        return a.width == b.width && a.height == b.height && a.bitmap == b.bitmap
    }
    package func hash(into hasher: inout Hasher) { hasher.combine(bitmap) }
}

/// The deferred images of a scene, in an order that makes each after the images it draws. Not
/// part of the scene's value: two scenes with equal images and ops are equal however their
/// images are made.
package struct DeferredImages: Hashable, Sendable {
    package var pending: [DeferredPixels] = []
    package init() {}

    /// Makes every image not yet made, in order, throwing the first failure.
    package func makeAll() throws {
        for pixels in pending { _ = try pixels.make() }
    }
    package static func == (_: DeferredImages, _: DeferredImages) -> Bool { true }
    package func hash(into _: inout Hasher) {}
}
