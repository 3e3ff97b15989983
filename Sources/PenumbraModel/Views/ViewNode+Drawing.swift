// Drawing a view tree: each view lowered onto the context's own calls in the
// order Core Animation composites a layer tree (SCENE_FORMAT.md, "Views"):
//
//   save; concat(the view's placement and bounds origin)
//   alpha < 1:            setAlpha(alpha); beginTransparencyLayer      (group opacity, shadow included)
//   shadow, no path:      setShadow(...); beginTransparencyLayer       (cast by the composited view)
//   shadow with a path:   setShadow(...); fillShadow(shadowPath)       (only the shadow; the view casts none)
//   background:           fill(rounded bounds)
//   clipsToBounds:        save; clip(rounded bounds)
//   content:              `draw` (clipped to the bounds, in a fresh state) | image | text | blur
//   subviews, in order    (a vibrancy view draws them into its mask layer instead)
//   clipsToBounds:        restore
//   border:               fill(rounded bounds minus the inset shape, even-odd)
//   end the layers; restore
//
// With clipsToBounds a view casts no shadow (UIKit's behaviour). Offsets and
// blurs of shadows are in base space, as for every shadow. A `visible` device
// rectangle culls views whose drawing (shadows included) cannot reach it:
// skipping a view that changes no pixel of the window changes no byte there,
// which is what PenumbraUI's partial re-render relies on.

extension DrawViewOp {
    /// Draws the tree as `drawHierarchy(in:)` into the context: one transparency layer, so the
    /// context's alpha, blend mode, shadow and clip apply to the whole tree. Views that cannot
    /// reach `visible` (device space; the canvas when nil) are left out: they would change no
    /// pixel there.
    /// A recording context keeps the tree whole (its culling depends on the device).
    package func draw(into context: GraphicsContext, visible: Rect? = nil) {
        if context.recorded(.drawView(self)) { return }
        let window = visible ?? Rect(x: 0, y: 0, width: Double(context.pixelWidth), height: Double(context.pixelHeight))
        context.beginTransparencyLayer()
        root.draw(into: context, tint: ViewNode.defaultTint, direction: layoutDirection, visible: window)
        context.endTransparencyLayer()
    }
}

/// The blur and vibrancy constants of SCENE_FORMAT.md (Penumbra's values; UIKit's are not published).
extension VisualEffectStyle {
    /// The blur's radius in points.
    package static let blurRadius = 20.0
    /// The blur's saturation.
    package static let blurSaturation = 1.8
    /// The tint composited over the blurred backdrop.
    package var blurTint: Color {
        switch self {
        case .light: return Color(red: 1, green: 1, blue: 1, alpha: 0x4D / 255.0)
        case .extraLight: return Color(red: 1, green: 1, blue: 1, alpha: 0x99 / 255.0)
        case .dark: return Color(red: 0x1C / 255.0, green: 0x1C / 255.0, blue: 0x1C / 255.0, alpha: 0x99 / 255.0)
        }
    }
    /// Vibrancy's brightness (colorControls).
    package var vibrancyBrightness: Double { self == .dark ? 0.35 : 0.25 }
    /// Vibrancy's saturation (colorControls).
    package static let vibrancySaturation = 1.6
}

extension ViewNode {
    /// The direction of this view given its superview's.
    package func direction(inheriting inherited: LayoutDirection) -> LayoutDirection {
        semanticContentAttribute.direction(inheriting: inherited)
    }

    /// Draws this view and its subviews in the context's current user space, which is the
    /// superview's bounds coordinates. `tint` and `direction` are the superview's.
    package func draw(into c: GraphicsContext, tint inheritedTint: Color, direction inheritedDirection: LayoutDirection,
                      visible: Rect? = nil) {
        guard !isHidden, alpha > 0 else { return }
        let tint = tintColor ?? inheritedTint
        let direction = self.direction(inheriting: inheritedDirection)
        c.saveGState()
        defer { c.restoreGState() }
        c.concatenate(transformToSuperview)
        if let visible, !mayReach(visible, ctm: c.ctm, scale: c.scale) { return }

        let groupAlpha = alpha < 1
        if groupAlpha { c.setAlpha(alpha); c.beginTransparencyLayer() }
        let shadowLayer = castsShadow && layer.shadowPath == nil
        if castsShadow {
            c.setShadow(offset: layer.shadowOffset, blur: 2 * layer.shadowRadius, color: shadowColor)
            if let path = layer.shadowPath {
                c.fillShadow(path)
                c.clearShadow()
            } else {
                c.beginTransparencyLayer()
            }
        }

        if let backgroundColor {
            c.setFillColor(backgroundColor)
            c.fill(roundedBounds)
        }
        if clipsToBounds { c.saveGState(); c.clip(to: roundedBounds) }
        drawContent(into: c, tint: tint, direction: direction, visible: visible)
        if case .vibrancy = content {} else {
            for subview in subviews { subview.draw(into: c, tint: tint, direction: direction, visible: visible) }
        }
        if clipsToBounds { c.restoreGState() }
        if layer.borderWidth > 0 {
            c.setFillColor(layer.borderColor)
            c.fill(borderPath, using: .evenOdd)
        }

        if shadowLayer { c.endTransparencyLayer() }
        if groupAlpha { c.endTransparencyLayer() }
    }

    /// The border's region: the rounded bounds minus the same shape inset by the border width
    /// (inner radius max(0, cornerRadius - borderWidth)); the whole rounded bounds when the
    /// border is wider than half the bounds.
    package var borderPath: Path {
        var path = roundedBounds
        let w = layer.borderWidth
        let inner = Rect(x: bounds.minX + w, y: bounds.minY + w, width: bounds.width - 2 * w, height: bounds.height - 2 * w)
        if inner.size.width > 0, inner.size.height > 0 {
            path.addRoundedRect(in: inner, cornerRadius: max(0, layer.cornerRadius - w))
        }
        return path
    }

    /// The view's own content, between its background and its subviews.
    private func drawContent(into c: GraphicsContext, tint: Color, direction: LayoutDirection, visible: Rect?) {
        switch content {
        case .none:
            break
        case .ops(let ops):
            drawFresh(into: c) { for op in ops { op.replay(into: c) } }
        case .procedure(let procedure):
            drawFresh(into: c) { procedure.body(bounds, c) }
        case .recording(let recording):
            drawFresh(into: c) { recording.replay(into: c) }
        case .image(let shown):
            var image = shown.image
            if shown.isTemplate { image = image.withRenderingMode(.template, tint: tint) }
            if shown.flipsForRightToLeft, direction == .rightToLeft { image = image.flippedHorizontally() }
            c.draw(image, in: shown.contentMode.placedRect(imageSize: image.size, in: bounds))
        case .label(let text):
            c.draw(text.drawing)
        case .blur(let style):
            c.blurBackdrop(roundedBounds, radius: VisualEffectStyle.blurRadius, saturation: VisualEffectStyle.blurSaturation,
                           tint: style.blurTint)
        case .vibrancy(let style):
            c.saveGState()
            c.clip(to: roundedBounds)
            c.beginTransparencyLayer()
            for subview in subviews { subview.draw(into: c, tint: tint, direction: direction, visible: visible) }
            c.endTransparencyLayer(maskingBackdropWith: BackdropMaskFilter(
                saturation: VisualEffectStyle.vibrancySaturation, brightness: style.vibrancyBrightness))
            c.restoreGState()
        }
    }

    /// Runs a `draw(_:)` body as UIKit does: clipped to the bounds, in a graphics state of its
    /// own (black paint, default line style, no shadow), whatever it leaves open closed after it.
    private func drawFresh(into c: GraphicsContext, _ body: () -> Void) {
        c.saveGState()
        c.clip(to: Path(rect: bounds))
        c.setFillColor(.black); c.setStrokeColor(.black)
        c.setLineWidth(1); c.setLineCap(.butt); c.setLineJoin(.miter); c.setMiterLimit(10)
        c.setLineDash(phase: 0, lengths: [])
        c.setAlpha(1); c.setBlendMode(.normal); c.clearShadow()
        let depth = c.saveDepth
        body()
        c.unwind(toDepth: depth)
        c.restoreGState()
    }
}

extension ViewNode {
    /// The tree with every Swift drawing body run once into a recording context of its bounds
    /// and kept as its calls: a tree that stays what it is now when the views change or go away,
    /// and draws the same calls (a body that reads the context's device state, its CTM or pixel
    /// size, reads a recording context's base space instead).
    package func recordingProcedures() -> ViewNode {
        var node = self
        if case .procedure(let procedure) = content {
            let bounds = self.bounds
            node.content = .recording(Recording(size: bounds.size) { procedure.body(bounds, $0) })
        }
        node.subviews = subviews.map { $0.recordingProcedures() }
        return node
    }
}
