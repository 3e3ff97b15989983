// GraphicsContext: the CGContext analogue. It keeps Quartz's graphics state
// stack and records every drawing call into a DisplayList, resolving state as
// it goes: paths are transformed and flattened into device polygons (strokes
// are outlined in user space first), shadows become pixel offsets and sigmas,
// clips become nodes of a clip tree. Rendering happens later, on whichever
// renderer reads the list; the context itself never touches pixels.
// Outlining strokes, the costly part of recording, is deferred until the
// list is read and then done for all pending strokes at once, on every core
// (GraphicsContext+Strokes.swift).
// A context made with `init(recordingSize:)` resolves nothing: it keeps each
// call in user space (Recording.swift) and only tracks the state, so that
// what reads it (`ctm`, `saveDepth`) answers as it would while drawing.

/// A recording graphics context with Quartz 2D's state model.
public final class GraphicsContext {
    /// The graphics state that `saveGState` / `restoreGState` save and restore as one unit.
    public struct State: Hashable, Sendable {
        /// The current transform: user space to device pixels.
        public var ctm: AffineTransform
        /// The opacity, 0...1, that scales every later drawing's source (`CGContextSetAlpha`); 1 by default.
        public var alpha: Double = 1
        /// How later drawings composite with what is already drawn (`CGContextSetBlendMode`);
        /// ``BlendMode/normal`` by default.
        public var blendMode: BlendMode = .normal
        /// The shadow every later drawing casts (`CGContextSetShadowWithColor`); nil, no shadow, by default.
        public var shadow: Shadow? = nil
        /// The colour of later fills (`CGContextSetFillColorWithColor`); black by default.
        public var fillColor: Color = .black
        /// The colour of later strokes (`CGContextSetStrokeColorWithColor`); black by default.
        public var strokeColor: Color = .black
        /// Line width, caps, joins, miter limit and dash of later strokes; Quartz's defaults
        /// (width 1, butt caps, miter joins, miter limit 10, solid).
        public var strokeStyle = StrokeStyle()
        /// How images are sampled (CGContextSetInterpolationQuality).
        public var interpolationQuality: ImageInterpolation = .default
        /// Index into the display list's clip tree; nil is no clip.
        package var clip: Int? = nil
    }

    private struct SavedState { var state: State; var startsLayer: Bool }

    /// The current graphics state.
    public package(set) var state: State
    private var stack: [SavedState] = []
    package var list: DisplayList
    /// Strokes recorded as placeholders, outlined when the list is next read.
    var pendingStrokes: [PendingStroke] = []
    /// Where each command of `list` came from: the value of `origin` when it was recorded.
    var origins: [Int] = []
    /// The caller's name for what is being recorded now (a scene's op index), kept per command
    /// so that an error found later (a budget) can name the op.
    package var origin = 0
    /// The calls kept by a recording context; nil for a context that lowers to a display list.
    private var recordedEntries: [Recording.Entry]?
    /// The size a recording context was made for.
    private var recordingSize = Size(width: 0, height: 0)
    /// The points fills and strokes may make in all; nil: only each call's own guards.
    package var geometryBudget: GeometryBudget?
    /// The origin of the first fill or stroke that did not fit `geometryBudget` (it was dropped).
    package internal(set) var geometryOverflow: Int?

    /// A context for a canvas of `width` x `height` pixels at `scale` pixels per point.
    /// The initial transform maps points to pixels: scale(scale, scale).
    public init(pixelWidth width: Int, pixelHeight height: Int, scale: Double = 1, background: Color? = nil) {
        list = DisplayList(width: width, height: height, scale: scale, background: background)
        state = State(ctm: AffineTransform(scaleX: scale, y: scale))
    }

    /// A recording context for a drawing of `size` points: it renders nothing and lowers nothing,
    /// but keeps every call in user space (its transform starts as the identity) for
    /// ``recording``, which can then be lowered at any scale or drawn into another context.
    /// Its ``displayList`` stays empty.
    public init(recordingSize size: Size) {
        list = DisplayList(width: 0, height: 0, scale: 1, background: nil)
        state = State(ctm: .identity)
        recordedEntries = []
        recordingSize = size
    }

    /// What a recording context has kept so far (layers still open stay open in it); nil for a
    /// context that draws to a canvas.
    public var recording: Recording? {
        recordedEntries.map { Recording(size: recordingSize, entries: $0) }
    }

    /// True for a context made with ``init(recordingSize:)``.
    public var isRecording: Bool { recordedEntries != nil }

    /// In a recording context, keeps `call` and returns true: the caller then lowers nothing. A
    /// context that lowers does not even build the call (its path or image is not retained again).
    @inline(__always)
    func recorded(_ call: @autoclosure () -> RecordedCall) -> Bool {
        guard recordedEntries != nil else { return false }
        recordedEntries!.append(Recording.Entry(call: call(), origin: origin))
        return true
    }

    /// A context for a canvas of `size` points at `scale`: round(size * scale) pixels, which must
    /// be finite, not negative and at most 2^31 - 1 a side (a precondition).
    public convenience init(size: Size, scale: Double = 1, background: Color? = nil) {
        let w = roundHalfUp(size.width * scale), h = roundHalfUp(size.height * scale)
        let side = 0...Double(Int32.max)
        precondition(side.contains(w) && side.contains(h),
                     "a canvas of \(size.width) x \(size.height) points at scale \(scale) has no whole pixel size")
        self.init(pixelWidth: Int(w), pixelHeight: Int(h), scale: scale, background: background)
    }

    /// Canvas width in pixels.
    public var pixelWidth: Int { list.width }
    /// Canvas height in pixels.
    public var pixelHeight: Int { list.height }
    /// Pixels per point.
    public var scale: Double { list.scale }
    /// The current transform (CGContextGetCTM).
    public var ctm: AffineTransform { state.ctm }
    /// Depth of the save stack, layers included.
    public var saveDepth: Int { stack.count }
    /// Number of commands recorded so far.
    public var commandCount: Int {
        outlinePendingStrokes()
        return list.commands.count
    }

    /// The origin of each command of `displayList` (the layers ended there take the last origin).
    package var commandOrigins: [Int] {
        outlinePendingStrokes()
        return origins + stack.filter(\.startsLayer).map { _ in origin }
    }

    /// Appends a command with the current origin.
    func record(_ command: DrawCommand) {
        list.commands.append(command)
        origins.append(origin)
    }

    /// The recorded display list, with layers still open ended in reverse order (empty for a
    /// recording context: see ``recording``).
    public var displayList: DisplayList {
        outlinePendingStrokes()
        var out = list
        guard !isRecording else { return out }
        for saved in stack where saved.startsLayer { out.commands.append(.endLayer); _ = saved }
        return out
    }

    // MARK: Graphics state (CGContextSaveGState / RestoreGState)

    /// Pushes a copy of the graphics state.
    public func saveGState() {
        _ = recorded(.save)
        stack.append(SavedState(state: state, startsLayer: false))
    }

    /// Pops the graphics state; ignored when nothing was saved since the innermost open layer.
    public func restoreGState() {
        _ = recorded(.restore)
        guard let top = stack.last, !top.startsLayer else { return }
        state = stack.removeLast().state
    }

    // MARK: Current transform

    /// Concatenates `t` to the CTM: `t` applies first, in user space (CGContextConcatCTM).
    public func concatenate(_ t: AffineTransform) {
        _ = recorded(.concat(t))
        state.ctm = t.concatenating(state.ctm)
    }
    /// CGContextTranslateCTM.
    public func translateBy(x: Double, y: Double) { concatenate(AffineTransform(translationX: x, y: y)) }
    /// CGContextScaleCTM.
    public func scaleBy(x: Double, y: Double) { concatenate(AffineTransform(scaleX: x, y: y)) }
    /// CGContextRotateCTM: [cos, sin, -sin, cos]; positive angles turn clockwise on screen.
    public func rotate(by angle: Double) { concatenate(AffineTransform(rotationAngle: angle)) }

    // MARK: Compositing state

    /// CGContextSetAlpha (clamped to 0...1).
    public func setAlpha(_ alpha: Double) {
        _ = recorded(.setAlpha(alpha))
        state.alpha = min(1, max(0, alpha))
    }
    /// CGContextSetBlendMode.
    public func setBlendMode(_ mode: BlendMode) {
        _ = recorded(.setBlendMode(mode))
        state.blendMode = mode
    }
    /// CGContextSetInterpolationQuality: how later image draws sample (mipmapped by default).
    public func setInterpolationQuality(_ quality: ImageInterpolation) {
        _ = recorded(.setInterpolationQuality(quality))
        state.interpolationQuality = quality
    }
    /// CGContextSetShadowWithColor: offset and blur in base-space points; nil colour is black at 1/3.
    public func setShadow(offset: Size, blur: Double, color: Color? = nil) {
        setShadow(Shadow(offset: offset, blur: blur, color: color ?? .defaultShadow))
    }
    /// Removes the shadow (zero blur, zero offset, clear colour).
    public func clearShadow() { setShadow(nil) }
    /// Sets the shadow later drawings cast; nil is none.
    package func setShadow(_ shadow: Shadow?) {
        _ = recorded(.setShadow(shadow))
        state.shadow = shadow
    }

    // MARK: Paint and line style

    /// Sets the colour of later fills, as `CGContext.setFillColor(_:)`; black by default.
    public func setFillColor(_ color: Color) {
        _ = recorded(.setFillColor(color))
        state.fillColor = color
    }
    /// Sets the colour of later strokes, as `CGContext.setStrokeColor(_:)`; black by default.
    public func setStrokeColor(_ color: Color) {
        _ = recorded(.setStrokeColor(color))
        state.strokeColor = color
    }
    /// Sets the width of later strokes in user-space units (scaled by the current transform), as
    /// `CGContext.setLineWidth(_:)`; 1 by default. A width of 0 strokes nothing.
    public func setLineWidth(_ width: Double) { state.strokeStyle.width = width; recordStrokeStyle() }
    /// Sets how later strokes end open subpaths and dashes, as `CGContext.setLineCap(_:)`;
    /// ``LineCap/butt`` by default.
    public func setLineCap(_ cap: LineCap) { state.strokeStyle.cap = cap; recordStrokeStyle() }
    /// Sets how later strokes join segments, as `CGContext.setLineJoin(_:)`; ``LineJoin/miter`` by default.
    public func setLineJoin(_ join: LineJoin) { state.strokeStyle.join = join; recordStrokeStyle() }
    /// Sets the miter limit of later strokes, as `CGContext.setMiterLimit(_:)`: a miter join longer
    /// than `limit` times the line width is drawn as a bevel. 10 by default.
    public func setMiterLimit(_ limit: Double) { state.strokeStyle.miterLimit = limit; recordStrokeStyle() }
    /// CGContextSetLineDash; empty `lengths` is a solid line.
    public func setLineDash(phase: Double, lengths: [Double]) {
        state.strokeStyle.dashPhase = phase; state.strokeStyle.dashLengths = lengths
        recordStrokeStyle()
    }
    /// Sets every line attribute of later strokes at once.
    package func setStrokeStyle(_ style: StrokeStyle) { state.strokeStyle = style; recordStrokeStyle() }
    /// A recording keeps a line attribute's change as the whole style it leaves.
    private func recordStrokeStyle() { _ = recorded(.setStrokeStyle(state.strokeStyle)) }

    // MARK: Clipping (CGContextClip)

    /// Intersects the clip with the path's coverage under `rule`.
    public func clip(to path: Path, using rule: FillRule = .nonzero) {
        if recorded(.clip(path, rule)) { return }
        let shape = deviceShape(filling: path, rule: rule) ?? DeviceShape(contours: [], rule: rule)
        list.clips.append(ClipNode(parent: state.clip, shape: shape))
        state.clip = list.clips.count - 1
    }

    // MARK: Drawing paths (CGContextFillPath / EOFillPath / StrokePath)

    /// Fills the path with the fill colour.
    public func fill(_ path: Path, using rule: FillRule = .nonzero) {
        if recorded(.fill(path, rule)) { return }
        guard let shape = deviceShape(filling: path, rule: rule) else { return }
        record(.fill(shape, state.fillColor, composite()))
    }

    /// Composites only the shadow the path would cast if it were filled with an opaque colour
    /// (CALayer's `shadowPath`): the shadow in force, the context alpha, blend mode and clip
    /// apply as to a fill; the path itself changes no pixel. Nothing without a shadow.
    package func fillShadow(_ path: Path, using rule: FillRule = .nonzero) {
        if recorded(.fillShadow(path, rule)) { return }
        var c = composite()
        guard c.shadow != nil, let shape = deviceShape(filling: path, rule: rule) else { return }
        c.shadowOnly = true
        record(.fill(shape, .black, c))
    }

    /// Strokes the path with the stroke colour and line style.
    public func stroke(_ path: Path) {
        if recorded(.stroke(path)) { return }
        let style = state.strokeStyle
        guard state.ctm.isInvertible, style.width > 0, !path.isEmpty else { return }
        pendingStrokes.append(PendingStroke(command: list.commands.count, path: path, style: style, ctm: state.ctm,
                                            tolerance: flatteningTolerance / state.ctm.maximumStretch))
        record(.fill(DeviceShape(contours: [], rule: .nonzero), state.strokeColor, composite()))
    }

    // MARK: Drawing images (UIImage drawInRect:blendMode:alpha:, drawAtPoint:)

    /// Draws the image into `rect` (user space), with the image's own attributes (slicing,
    /// rendering mode, flip). An SVG image (from a scene) is drawn as vectors, except with slicing. `blendMode`, `alpha` and `interpolation` apply to this call only,
    /// shadow included (the state's interpolation quality when nil).
    public func draw(_ image: Image, in rect: Rect, blendMode: BlendMode? = nil, alpha: Double = 1,
                     interpolation: ImageInterpolation? = nil) {
        if recorded(.drawImage(image, in: rect, blendMode: blendMode, alpha: alpha, interpolation: interpolation)) { return }
        guard state.ctm.isInvertible, !rect.isEmpty, image.pixelWidth > 0, image.pixelHeight > 0 else { return }
        if let vector = image.vector, image.slicing == nil {
            return drawVector(vector, of: image, in: rect.standardized, blendMode: blendMode, alpha: alpha)
        }
        let tint: Color? = image.renderingMode == .template ? (image.tint ?? .black) : nil
        let draw = ImageDraw(pixels: image.pixels, scale: image.scale, transform: state.ctm, rect: rect.standardized,
                             slicing: image.slicing, tint: tint, flippedHorizontally: image.isFlippedHorizontally,
                             interpolation: interpolation ?? state.interpolationQuality)
        var c = composite()
        c.alpha *= min(1, max(0, alpha))
        if let blendMode { c.blendMode = blendMode }
        record(.image(draw, c))
    }

    /// Draws the image at its natural size (in points) with its top-left corner at `point`.
    public func draw(_ image: Image, at point: Point, blendMode: BlendMode? = nil, alpha: Double = 1,
                     interpolation: ImageInterpolation? = nil) {
        draw(image, in: Rect(origin: point, size: image.size), blendMode: blendMode, alpha: alpha, interpolation: interpolation)
    }

    // MARK: Gradients (CGContextDrawLinearGradient / DrawRadialGradient)

    /// Fills the clip with a linear gradient from `start` (t = 0) to `end` (t = 1), user space.
    public func drawLinearGradient(stops: [GradientStop], start: Point, end: Point,
                                   extendStart: Bool = true, extendEnd: Bool = true) {
        drawGradient(.linear(start: start, end: end), stops, extendStart, extendEnd)
    }

    /// Fills the clip with a two-circle radial gradient (the canvas rule), user space.
    public func drawRadialGradient(stops: [GradientStop], startCenter: Point, startRadius: Double,
                                   endCenter: Point, endRadius: Double, extendStart: Bool = true, extendEnd: Bool = true) {
        drawGradient(.radial(startCenter: startCenter, startRadius: startRadius, endCenter: endCenter, endRadius: endRadius),
                     stops, extendStart, extendEnd)
    }

    func drawGradient(_ kind: GradientDraw.Kind, _ stops: [GradientStop], _ extendStart: Bool, _ extendEnd: Bool) {
        if recorded(.gradient(kind, stops: stops, extendStart: extendStart, extendEnd: extendEnd)) { return }
        guard state.ctm.isInvertible, !stops.isEmpty else { return }
        let g = GradientDraw(kind: kind, stops: stops, extendStart: extendStart, extendEnd: extendEnd, transform: state.ctm)
        record(.gradient(g, composite()))
    }

    // MARK: Transparency layers (CGContextBeginTransparencyLayer / End)

    /// Saves the state and starts a transparent layer over the whole plane with alpha 1, blend
    /// `normal`, no shadow and no clip of its own. The alpha, blend mode, shadow and clip in force
    /// now are used when the layer is composited at `endTransparencyLayer`.
    public func beginTransparencyLayer() {
        if !recorded(.beginLayer) { record(.beginLayer(composite())) }
        stack.append(SavedState(state: state, startsLayer: true))
        state.alpha = 1; state.blendMode = .normal; state.shadow = nil; state.clip = nil
    }

    /// Composites the innermost layer and restores the state saved at its beginning;
    /// ignored when no layer is open.
    public func endTransparencyLayer() { endLayer(.endLayer, recorded: .endLayer) }

    /// Composites the innermost layer as `endTransparencyLayer()` does, with each of its pixels'
    /// colour replaced by black and its alpha by the colour's luminance: a premultiplied U8 pixel
    /// (r, g, b, a) composites as (0, 0, 0, m), m = div255(54 r + 183 g + 18 b) (Rec. 709
    /// weights summing to 255; docs/ARITHMETIC.md, "Luminance to alpha"). Begun under
    /// `destinationIn`, the layer is a luminance mask (SVG's `mask`) on what is below. Restores
    /// the state saved at the layer's beginning; ignored when no layer is open.
    package func endTransparencyLayerConvertingLuminanceToAlpha() {
        endLayer(.endLayerConvertingLuminanceToAlpha, recorded: .endLayerConvertingLuminanceToAlpha)
    }

    /// Ends the innermost transparency layer without compositing it: its alpha becomes the mask
    /// with which the pixels of the target below are replaced by themselves through
    /// `colorControls(saturation: filter.saturation, brightness: filter.brightness, contrast: 1)`
    /// (UIVisualEffectView's vibrancy). Per pixel of the layer's frame,
    /// `target' = target (1 - m) + F(target) m`: F(target) written with `copy` through the
    /// coverage m = the layer's alpha (U8) times the coverage of the clip in force at
    /// `beginTransparencyLayer`, in the composite's U8 arithmetic (docs/ARITHMETIC.md, "Backdrop
    /// mask"). The alpha, blend mode and shadow in force at the beginning do not apply, the
    /// layer's colours are ignored, nothing outside the layer's frame changes and an empty layer
    /// changes nothing. Restores the state saved at the layer's beginning; ignored when no layer
    /// is open.
    package func endTransparencyLayer(maskingBackdropWith filter: BackdropMaskFilter) {
        endLayer(.endLayerMaskingBackdrop(filter), recorded: .endLayerMaskingBackdrop(filter))
    }

    private func endLayer(_ command: DrawCommand, recorded call: RecordedCall) {
        let recording = recorded(call)
        guard let index = stack.lastIndex(where: \.startsLayer) else { return }
        state = stack[index].state
        stack.removeSubrange(index...)
        if !recording { record(command) }
    }

    /// Ends layers and restores saves until `depth` entries are left on the stack.
    func unwind(toDepth depth: Int) {
        while stack.count > depth {
            if stack[stack.count - 1].startsLayer { endTransparencyLayer() } else { restoreGState() }
        }
    }

    /// Number of layers open now.
    public var openLayerCount: Int { stack.reduce(0) { $0 + ($1.startsLayer ? 1 : 0) } }

    // MARK: Resolving state

    private func composite() -> CompositeState {
        var shadow: DeviceShadow?
        if let s = state.shadow, s.isVisible {
            let k = list.scale
            shadow = DeviceShadow(offset: Point(x: s.offset.width * k, y: s.offset.height * k), sigma: s.blur * k / 2, color: s.color)
        }
        return CompositeState(alpha: state.alpha, blendMode: state.blendMode, shadow: shadow, clip: state.clip)
    }

    /// The path transformed and flattened in device space; nil when it covers nothing.
    func deviceShape(filling path: Path, rule: FillRule) -> DeviceShape? {
        guard state.ctm.isInvertible else { return nil }
        let flat: [FlatSubpath]
        if let geometryBudget {
            guard let f = geometryBudget.flatten(path, transform: state.ctm, tolerance: flatteningTolerance) else {
                if geometryOverflow == nil { geometryOverflow = origin }
                return nil
            }
            flat = f
        } else {
            flat = path.flattened(transform: state.ctm)
        }
        let contours = flat.map(\.points).filter { $0.count >= 3 }
        guard !contours.isEmpty else { return nil }
        return DeviceShape(contours: contours, rule: rule)
    }
}
