// DisplayList: the single source of truth between the front ends (the Swift
// API's GraphicsContext, the scene decoder) and the renderers (CPU, GPU).
// A flat array of commands with all state resolved into device space: shapes
// are flattened device polygons, shadows are pixel offsets and sigmas, clips
// are indices into a tree of device shapes. Renderers never see user space,
// the state stack or the scene format.

/// A filled region in device pixels: polygons (each implicitly closed) and a fill rule.
@usableFromInline package struct DeviceShape: Hashable, Sendable {
    @usableFromInline package var contours: [[Point]]
    @usableFromInline package var rule: FillRule
    @usableFromInline package init(contours: [[Point]], rule: FillRule) { self.contours = contours; self.rule = rule }
    /// The bounding box of every vertex, or nil when there is none.
    @usableFromInline package var bounds: Rect? {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for c in contours { for p in c { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) } }
        guard x0 <= x1 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    /// The shape translated by a device offset.
    @usableFromInline package func offsetBy(_ d: Point) -> DeviceShape {
        DeviceShape(contours: contours.map { $0.map { $0 + d } }, rule: rule)
    }
    /// True when there is nothing to fill.
    @usableFromInline package var isEmpty: Bool { contours.allSatisfy { $0.count < 3 } }
}

/// A clip: the coverage of `shape` times the coverage of its parent clip.
@usableFromInline package struct ClipNode: Hashable, Sendable {
    @usableFromInline package var parent: Int?
    @usableFromInline package var shape: DeviceShape
    @usableFromInline package init(parent: Int?, shape: DeviceShape) { self.parent = parent; self.shape = shape }
}

/// A shadow resolved into device pixels.
@usableFromInline package struct DeviceShadow: Hashable, Sendable {
    /// Offset in pixels (points times the scale, unaffected by the CTM).
    @usableFromInline package var offset: Point
    /// Gaussian standard deviation in pixels (`blur * scale / 2`); 0 is a hard shadow.
    @usableFromInline package var sigma: Double
    @usableFromInline package var color: Color
    @usableFromInline package init(offset: Point, sigma: Double, color: Color) { self.offset = offset; self.sigma = sigma; self.color = color }
}

/// How a command's result is composited: resolved from the graphics state at the time it was drawn.
@usableFromInline package struct CompositeState: Hashable, Sendable {
    /// Context alpha (times a per-call alpha); scales the source before the blend.
    @usableFromInline package var alpha: Double
    @usableFromInline package var blendMode: BlendMode
    @usableFromInline package var shadow: DeviceShadow?
    /// Index into `DisplayList.clips`, nil for no clip.
    @usableFromInline package var clip: Int?
    /// Only the shadow is composited, not the op itself (a layer's `shadowPath`:
    /// GraphicsContext.fillShadow).
    @usableFromInline package var shadowOnly = false
    @usableFromInline package init(alpha: Double = 1, blendMode: BlendMode = .normal, shadow: DeviceShadow? = nil, clip: Int? = nil) {
        self.alpha = alpha; self.blendMode = blendMode; self.shadow = shadow; self.clip = clip
    }
}

/// One resolved drawing command.
@usableFromInline package enum DrawCommand: Hashable, Sendable {
    /// A shape filled with a solid colour (fills and strokes both arrive here).
    case fill(DeviceShape, Color, CompositeState)
    /// An image drawn into a rectangle under a transform.
    case image(ImageDraw, CompositeState)
    /// A gradient filling the current clip.
    case gradient(GradientDraw, CompositeState)
    /// Starts a transparency layer; the state is the one used when the layer is composited.
    case beginLayer(CompositeState)
    /// Composites the innermost open layer.
    case endLayer
    /// Composites the innermost open layer as `endLayer` does, each of its premultiplied pixels
    /// (r, g, b, a) read as (0, 0, 0, div255(54 r + 183 g + 18 b)): its luminance as alpha
    /// (LuminanceMask.swift).
    case endLayerConvertingLuminanceToAlpha
    /// Ends the innermost open layer without compositing it: its alpha (times the clip of its
    /// `beginLayer` state) is the coverage with which the target's pixels below are replaced by
    /// themselves through the filter (BackdropMask.swift). The rest of the `beginLayer` state
    /// does not apply.
    case endLayerMaskingBackdrop(BackdropMaskFilter)
    /// Replaces the destination under a shape by its blur (BackdropBlur.swift).
    case blurBackdrop(BackdropBlur, CompositeState)
}

/// What the renderers draw: a canvas size, a background and commands in order.
public struct DisplayList: Hashable, Sendable {
    /// Canvas width in pixels.
    public var width: Int
    /// Canvas height in pixels.
    public var height: Int
    /// Pixels per point.
    public var scale: Double
    /// Fills the canvas before the commands; nil is transparent.
    public var background: Color?
    /// The device pixels to render (nil: the whole canvas): the renderers draw into a target of
    /// this frame only, every coordinate kept in the canvas's device space, as they draw layers,
    /// so each pixel inside comes out as in a render of the whole canvas wherever nothing
    /// outside the frame reaches it (a backdrop blur or a shadow reading across its edge).
    /// PenumbraUI's partial re-render draws the damaged region grown by that reach.
    @usableFromInline package var viewport: PixelRect?
    /// The target the renderers start with: the viewport, or the whole canvas.
    @usableFromInline package var canvasFrame: PixelRect {
        viewport.map { $0.intersection(PixelRect(x: 0, y: 0, width: width, height: height)) }
            ?? PixelRect(x: 0, y: 0, width: width, height: height)
    }
    @usableFromInline package var clips: [ClipNode] = []
    @usableFromInline package var commands: [DrawCommand] = []
    /// What the scene recorded here could not have as asked but was drawn anyway (Scene.warnings);
    /// the renderers ignore it, whoever reports the render passes it on.
    public var warnings: [RenderWarning] = []
    @usableFromInline package init(width: Int, height: Int, scale: Double, background: Color?) {
        self.width = width; self.height = height; self.scale = scale; self.background = background
    }
}

extension DisplayList {
    /// Makes, on this thread, the deferred pixels of the images the list draws, except those of
    /// the draws `drawsFromDevice` says the renderer takes from its own device: a renderer calls
    /// it before planning, so that no planning thread runs a producer or reads a device back
    /// (DeferredPixels.swift). A failure leaves the pixels clear, as `Image.bitmap` does; the
    /// scene's lowering has thrown it already.
    package func makeDeferredImages(except drawsFromDevice: (ImageDraw, DeferredPixels) -> Bool = { _, _ in false }) {
        for command in commands {
            guard case .image(let draw, _) = command, case .deferred(let pixels) = draw.pixels,
                  !drawsFromDevice(draw, pixels) else { continue }
            _ = pixels.pixelsOrTransparent
        }
    }
}
