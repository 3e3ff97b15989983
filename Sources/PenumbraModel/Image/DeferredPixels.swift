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
//
// Kept pixels. A GPU renderer draws an offscreen image or a filter chain
// into a texture that it keeps to draw the image from (KeptPixels): the
// scene is drawn without the pixels ever leaving the device. Preparing
// (`prepare()`, what the scene's lowering does) runs the producer and
// stops there. Pixels are made only when something asks for them: read
// back by the renderer when the asking thread is the renderer's own, between
// frames; anywhere else (a planning thread, another thread reading
// `Image.bitmap`) made by the producer's portable twin, the CPU reference
// renderer or evaluator, whose bytes are the GPU's by the parity contract.
// So no GL call is ever made on a thread the renderer is not current on.
import Synchronization

/// Pixels a renderer made and keeps on its device (a GPU texture) to draw the image from.
package protocol KeptPixels: AnyObject, Sendable {
    /// The pixels read back from the device, when the calling thread may read them (the
    /// renderer's own, between frames); nil elsewhere.
    func readBack() -> Bitmap?
}

/// What a producer made: pixels, or pixels kept on a device with a portable producer that
/// makes the same bytes anywhere (the CPU reference renderer).
package enum ProducedPixels: Sendable {
    case bitmap(Bitmap)
    case kept(any KeptPixels, portable: @Sendable () throws -> Bitmap)
}

extension ProducedPixels {
    /// What `produce` makes, with its errors, and those of its portable twin when it has one,
    /// turned into the image's by `failure` (a cancellation passes through unchanged).
    package static func producing(_ produce: () throws -> ProducedPixels,
                                  failure: @escaping @Sendable (any Error) -> any Error) throws -> ProducedPixels {
        let mapped: @Sendable (any Error) -> any Error = { $0 is RenderCancelled ? $0 : failure($0) }
        do {
            switch try produce() {
            case .bitmap(let bitmap):
                return .bitmap(bitmap)
            case .kept(let kept, let portable):
                return .kept(kept, portable: {
                    do { return try portable() } catch { throw mapped(error) }
                })
            }
        } catch {
            throw mapped(error)
        }
    }
}

/// Pixels of a known size made once, on first use, by a producer.
@usableFromInline package final class DeferredPixels: Sendable {
    package let width: Int
    package let height: Int
    /// Where the image was declared (a scene's `images.NAME`), for an error in making it.
    package let place: String
    private let state: Mutex<State>

    private enum State {
        /// Not made yet: what makes them.
        case pending(@Sendable () throws -> ProducedPixels)
        /// Kept on a device, not read yet: the portable producer makes them elsewhere.
        case kept(any KeptPixels, portable: @Sendable () throws -> Bitmap)
        /// Made (and still kept on the device when `kept` is set): the producers are let go.
        case made(Bitmap, kept: (any KeptPixels)?)
    }

    /// Pixels `width` x `height` that `produce` makes when first asked for; `place` names the
    /// image in an error.
    package convenience init(width: Int, height: Int, place: String, produce: @escaping @Sendable () throws -> Bitmap) {
        self.init(width: width, height: height, place: place, producing: { .bitmap(try produce()) })
    }

    /// Pixels `width` x `height` that `produce` makes, or keeps on a device, when first asked for.
    package init(width: Int, height: Int, place: String, producing produce: @escaping @Sendable () throws -> ProducedPixels) {
        self.width = width; self.height = height; self.place = place
        state = Mutex(.pending(produce))
    }

    /// Runs the producer if it has not run, leaving kept pixels on their device: the producer's
    /// error is thrown and the pixels stay unmade.
    package func prepare() throws {
        try state.withLock { state in try prepare(&state) }
    }

    /// The pixels, made now if they have not been (read back, or made by the portable
    /// producer, when they are kept on a device): the producer's error (a renderer's, the
    /// scene's budget, a cancellation) is thrown and the pixels stay unmade.
    package func make() throws -> Bitmap {
        try state.withLock { state in
            try prepare(&state)
            switch state {
            case .made(let bitmap, _):
                return bitmap
            case .kept(let kept, let portable):
                let bitmap = try checked(kept.readBack() ?? portable())
                state = .made(bitmap, kept: kept)
                return bitmap
            case .pending:
                preconditionFailure("prepared pixels are pending")
            }
        }
    }

    /// The device's copy, when a renderer keeps one (after `prepare()`); nil otherwise.
    package var kept: (any KeptPixels)? {
        state.withLock { state in
            switch state {
            case .pending: nil
            case .kept(let kept, _): kept
            case .made(_, let kept): kept
            }
        }
    }

    private func prepare(_ state: inout State) throws {
        guard case .pending(let produce) = state else { return }
        switch try produce() {
        case .bitmap(let bitmap): state = .made(try checked(bitmap), kept: nil)
        case .kept(let kept, let portable): state = .kept(kept, portable: portable)
        }
    }

    private func checked(_ bitmap: Bitmap) throws -> Bitmap {
        guard bitmap.width == width, bitmap.height == height else {
            throw SceneError(location: place, message: "internal: the image should be \(width) x \(height) pixels but "
                + "was drawn at \(bitmap.width) x \(bitmap.height)")
        }
        return bitmap
    }

    /// The pixels, or transparent ones of the same size where they cannot be made (the
    /// failure surfaces where the scene is lowered, which calls `make()`).
    package var pixelsOrTransparent: Bitmap {
        (try? make()) ?? Bitmap(width: width, height: height)
    }
}

/// Where an image's pixels are: held, or made on first use.
@usableFromInline package enum ImagePixels: Hashable, Sendable {
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
    @usableFromInline package var bitmap: Bitmap {
        switch self {
        case .held(let b): b
        case .deferred(let d): d.pixelsOrTransparent
        }
    }

    /// Equal when they hold equal pixels; deferred storage compares its pixels (making them),
    /// unless both are the same storage.
    @usableFromInline package static func == (a: ImagePixels, b: ImagePixels) -> Bool {
        if case .deferred(let x) = a, case .deferred(let y) = b, x === y { return true }
        return a.width == b.width && a.height == b.height && a.bitmap == b.bitmap
    }
    @usableFromInline package func hash(into hasher: inout Hasher) { hasher.combine(bitmap) }
}

/// The deferred images of a scene, in an order that makes each after the images it draws. Not
/// part of the scene's value: two scenes with equal images and ops are equal however their
/// images are made.
package struct DeferredImages: Hashable, Sendable {
    package var pending: [DeferredPixels] = []
    package init() {}

    /// Runs every producer not yet run, in order, throwing the first failure (pixels a renderer
    /// keeps on its device stay there).
    package func prepareAll() throws {
        for pixels in pending { try pixels.prepare() }
    }
    package static func == (_: DeferredImages, _: DeferredImages) -> Bool { true }
    package func hash(into _: inout Hasher) {}
}
