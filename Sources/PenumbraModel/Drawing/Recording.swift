// Recording: what was drawn, kept in user space, independent of any canvas.
//
// A GraphicsContext made with `init(recordingSize:)` lowers nothing. Each call
// of its API (state changes, transforms, clips, fills, strokes, images,
// gradients, layers, text, backdrop blurs, view trees) is kept as it was made,
// with its arguments in user space: paths as they were given, stroke styles,
// images (with their attributes), laid-out text (face, size, glyph outlines
// and positions), shadows in base-space points. Drawing the recording into a
// context at a size and a scale makes the same calls on that context, so the
// display list it lowers to is the one the same code gives drawing directly
// at that scale: record once, render at 1x and 2x, and each has the bytes of
// drawing at that scale. (A recording that kept resolved transforms instead
// would multiply them in another order and differ in the last bit.)
//
// Calls whose lowering depends on the device are kept whole and resolved when
// the recording is lowered: a text's bounding clip and layer, a view tree's
// culling, a vector image's replay. Each call has a stable id, its index in
// the recording, the same at every size and scale; what a scene decoder
// records also keeps the op each call came from (`origin`), so errors found
// while lowering (a budget) name the op.
//
// A recording is a value (Sendable, Hashable): it can be kept, compared,
// cached, drawn into another context under any transform (a picture, like a
// PDF page) or lowered on any thread.

/// One call a recording context kept, in user space.
package enum RecordedCall: Hashable, Sendable {
    case save, restore
    case concat(AffineTransform)
    case setAlpha(Double)
    case setBlendMode(BlendMode)
    case setInterpolationQuality(ImageInterpolation)
    case setShadow(Shadow?)
    case setFillColor(Color)
    case setStrokeColor(Color)
    case setStrokeStyle(StrokeStyle)
    case clip(Path, FillRule)
    case fill(Path, FillRule)
    case fillShadow(Path, FillRule)
    case stroke(Path)
    case drawImage(Image, in: Rect, blendMode: BlendMode?, alpha: Double, interpolation: ImageInterpolation?)
    case gradient(GradientDraw.Kind, stops: [GradientStop], extendStart: Bool, extendEnd: Bool)
    case beginLayer
    case endLayer
    case endLayerConvertingLuminanceToAlpha
    case endLayerMaskingBackdrop(BackdropMaskFilter)
    case drawText(TextDrawing, boundingTheLayer: Bool)
    case blurBackdrop(Path, radius: Double, saturation: Double, tint: Color?)
    case drawView(DrawViewOp)
}

/// A resolution-independent recording of drawing: the calls made on a recording context, in user
/// space, lowered to a display list for any scale (``displayList(scale:background:)``) or drawn
/// into another context (``GraphicsContext/draw(_:in:)``). Lowering a recording at a scale gives
/// the display list, and so the pixels, of drawing the same calls directly at that scale.
public struct Recording: Hashable, Sendable {
    /// One kept call and the caller's origin when it was made (a scene's op index).
    package struct Entry: Hashable, Sendable {
        package var call: RecordedCall
        package var origin: Int
    }

    /// The size of the drawing in points: the canvas it was drawn for, and what
    /// ``GraphicsContext/draw(_:in:)`` maps onto its rectangle.
    public var size: Size
    /// The calls in the order they were made; a call's index is its id.
    package var entries: [Entry]

    package init(size: Size, entries: [Entry]) { self.size = size; self.entries = entries }

    /// Records what `draw` does to a recording context of `size` points (whose transform starts as
    /// the identity: one unit is one point).
    public init(size: Size, _ draw: (GraphicsContext) throws -> Void) rethrows {
        let context = GraphicsContext(recordingSize: size)
        try draw(context)
        self = context.recording ?? Recording(size: size, entries: [])
    }

    /// The number of calls kept. Each call's id is its index, from 0, the same at every scale.
    public var callCount: Int { entries.count }

    /// The display list of the recording drawn on a fresh canvas of ``size`` at `scale` pixels per
    /// point (`round(size * scale)` pixels), over `background` (transparent when nil): exactly the
    /// list that making the same calls on `GraphicsContext(size: size, scale: scale)` records.
    public func displayList(scale: Double = 1, background: Color? = nil) -> DisplayList {
        let context = GraphicsContext(size: size, scale: scale, background: background)
        replay(into: context)
        return context.displayList
    }

    /// Makes every call on `context` in order. With `keepingOrigins`, each call carries the origin
    /// it was recorded with (a scene's op, for errors found later); otherwise the context's.
    /// Checks the current cancellation token every 16 calls and stops once it is set.
    package func replay(into context: GraphicsContext, keepingOrigins: Bool = false) {
        for (index, entry) in entries.enumerated() {
            if index & 15 == 0, RenderCancellation.currentIsCancelled { return }
            if keepingOrigins { context.origin = entry.origin }
            context.make(entry.call)
        }
    }
}

extension GraphicsContext {
    /// Makes one recorded call.
    func make(_ call: RecordedCall) {
        switch call {
        case .save: saveGState()
        case .restore: restoreGState()
        case .concat(let t): concatenate(t)
        case .setAlpha(let a): setAlpha(a)
        case .setBlendMode(let mode): setBlendMode(mode)
        case .setInterpolationQuality(let quality): setInterpolationQuality(quality)
        case .setShadow(let shadow): setShadow(shadow)
        case .setFillColor(let color): setFillColor(color)
        case .setStrokeColor(let color): setStrokeColor(color)
        case .setStrokeStyle(let style): setStrokeStyle(style)
        case .clip(let path, let rule): clip(to: path, using: rule)
        case .fill(let path, let rule): fill(path, using: rule)
        case .fillShadow(let path, let rule): fillShadow(path, using: rule)
        case .stroke(let path): stroke(path)
        case .drawImage(let image, let rect, let blendMode, let alpha, let interpolation):
            draw(image, in: rect, blendMode: blendMode, alpha: alpha, interpolation: interpolation)
        case .gradient(let kind, let stops, let extendStart, let extendEnd):
            drawGradient(kind, stops, extendStart, extendEnd)
        case .beginLayer: beginTransparencyLayer()
        case .endLayer: endTransparencyLayer()
        case .endLayerConvertingLuminanceToAlpha: endTransparencyLayerConvertingLuminanceToAlpha()
        case .endLayerMaskingBackdrop(let filter): endTransparencyLayer(maskingBackdropWith: filter)
        case .drawText(let text, let bounding): draw(text, boundingTheLayer: bounding)
        case .blurBackdrop(let path, let radius, let saturation, let tint):
            blurBackdrop(path, radius: radius, saturation: saturation, tint: tint)
        case .drawView(let view): view.draw(into: self)
        }
    }

    /// Draws `recording` so that its ``Recording/size`` fills `rect` (user space), as a PDF page
    /// is drawn: its calls are made under the current state, scaled and moved onto `rect` and
    /// clipped to it, and the state is restored afterwards (layers the recording left open are
    /// ended, saves it left are restored). Nothing is drawn for an empty rect or recording size.
    public func draw(_ recording: Recording, in rect: Rect) {
        let r = rect.standardized, size = recording.size
        guard !r.isEmpty, size.width > 0, size.height > 0 else { return }
        let depth = saveDepth
        saveGState()
        clip(to: Path(rect: r))
        concatenate(AffineTransform(a: r.width / size.width, b: 0, c: 0, d: r.height / size.height, tx: r.minX, ty: r.minY))
        recording.replay(into: self)
        unwind(toDepth: depth)
    }
}

extension Recording: VectorImage {
    /// Draws the recording into `rect` (``GraphicsContext/draw(_:in:)``), so that a recording can
    /// stand for an image's pixels as an SVG drawing does.
    package func draw(in context: GraphicsContext, rect: Rect) { context.draw(self, in: rect) }
}
