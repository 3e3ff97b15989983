// ImageRenderer: the UIGraphicsBeginImageContextWithOptions /
// UIGraphicsImageRenderer analogue. It makes a recording context of the
// requested size, scale and opacity, hands it to the caller's drawing code,
// renders the recorded display list and returns an Image of that scale.
import PenumbraCPU

/// Draws into a fresh context and returns the result as an image.
public struct ImageRenderer {
    /// Size in points.
    public var size: Size
    /// Pixels per point; the image has this scale.
    public var scale: Double
    /// When true the canvas starts opaque white instead of transparent (UIKit's `opaque` flag
    /// promises no transparency; a white background keeps that promise).
    public var opaque: Bool
    /// Which renderer runs the drawing (the CPU reference by default) when no `renderer` is given.
    public var backend: Backend
    /// A renderer to draw with (reused across images, so a GPU context is made once); nil makes
    /// one of `backend` per image.
    public var renderer: Renderer?

    /// Creates a renderer of images `size` points large at `scale` pixels per point (1 by
    /// default: `round(size * scale)` pixels), transparent unless `opaque`, rendered by a renderer
    /// of `backend` (``Backend/cpu`` by default) made for each image, as
    /// `UIGraphicsImageRenderer(size:format:)`.
    public init(size: Size, scale: Double = 1, opaque: Bool = false, backend: Backend = .cpu) {
        self.size = size; self.scale = scale; self.opaque = opaque; self.backend = backend
    }

    /// Draws with `renderer`, the caller's, for every image.
    public init(size: Size, scale: Double = 1, opaque: Bool = false, renderer: Renderer) {
        self.init(size: size, scale: scale, opaque: opaque)
        self.renderer = renderer
    }

    /// Runs `drawing` on a new context and renders what it recorded, as
    /// `UIGraphicsImageRenderer.image(actions:)`. Rethrows what `drawing` throws, and throws
    /// `BackendUnavailable` when ``backend`` cannot make a renderer, or the renderer's error.
    public func image(_ drawing: (GraphicsContext) throws -> Void) throws -> Image {
        let context = GraphicsContext(size: size, scale: scale, background: opaque ? .white : nil)
        try drawing(context)
        let bitmap = try (renderer ?? backend.makeRenderer().renderer).render(context.displayList)
        return Image(bitmap: bitmap, scale: scale)
    }
}
