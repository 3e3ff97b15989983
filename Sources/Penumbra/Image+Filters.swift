// Eager image filters: the same effects as the decorators, applied now and
// returned as new Images, drawn by the caller's renderer (the CPU reference,
// which costs nothing to make, unless one is given: a GPU renderer passed in
// is reused, never a new context per call).
//
// Output sizes: `applying(_:)` returns the bounding box of the transformed
// image (the transform's translation only moves the content within it,
// so it is dropped); `renderingDropShadow` keeps the image's size by default, so
// whatever of the shadow falls outside is cut off, as when drawing into a
// context of the image's size; with `growingCanvas: true` the canvas grows
// on each side to hold the whole shadow (offset plus three sigmas) and the
// image keeps its pixels in the middle.

import PenumbraCPU

extension Image {
    /// The image drawn under `transform`, in a new image just large enough for the result.
    public func applying(_ transform: AffineTransform, renderer: Renderer = CPURenderer()) throws -> Image {
        let bounds = transform.apply(Rect(origin: .zero, size: size))
        guard bounds.width > 0, bounds.height > 0 else { return Image(bitmap: Bitmap(width: 0, height: 0), scale: scale) }
        let canvas = Size(width: bounds.width, height: bounds.height)
        return try ImageRenderer(size: canvas, scale: scale, renderer: renderer).image { context in
            context.translateBy(x: -bounds.minX, y: -bounds.minY)
            context.concatenate(transform)
            context.draw(self, in: Rect(origin: .zero, size: size))
        }
    }

    /// A new image: this one with a drop shadow, rendered now. With `growingCanvas` the result
    /// grows to hold the whole shadow; otherwise it keeps the image's size and clips the shadow to
    /// it. (`withDropShadow(offset:blur:color:)` is the lazy decorator, drawn when it is drawn.)
    public func renderingDropShadow(offset: Size, blur: Double, color: Color = .defaultShadow,
                               growingCanvas: Bool = false, renderer: Renderer = CPURenderer()) throws -> Image {
        var margin = EdgeInsets.zero
        if growingCanvas {
            let reach = 3 * blur / 2 + 1 / scale
            margin = EdgeInsets(top: max(0, reach - offset.height), left: max(0, reach - offset.width),
                                bottom: max(0, reach + offset.height), right: max(0, reach + offset.width))
            // Whole pixels, so the image keeps its pixels exactly.
            func whole(_ v: Double) -> Double { (v * scale).rounded(.up) / scale }
            margin = EdgeInsets(top: whole(margin.top), left: whole(margin.left), bottom: whole(margin.bottom), right: whole(margin.right))
        }
        let canvas = Size(width: size.width + margin.left + margin.right, height: size.height + margin.top + margin.bottom)
        return try ImageRenderer(size: canvas, scale: scale, renderer: renderer).image { context in
            ShadowFilter(self, offset: offset, blur: blur, color: color)
                .draw(at: Point(margin.left, margin.top), context: context)
        }
    }
}
