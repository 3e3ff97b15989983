// BackdropBlur: the `blurBackdrop` op (SCENE_FORMAT.md, "Backdrop blur") as the
// display list carries it: what is already drawn under a device shape
// (its coverage times the clip) is replaced by that destination blurred
// (sigma = radius x scale pixels, transparent outside the target), its
// saturation adjusted as colorControls does, and a tint composited over it
// with `normal`, stored once. The context alpha and blend mode do not apply
// and it casts no shadow: its CompositeState has alpha 1, `copy` and only the
// clip. The draw stream lowers the replacement's filter graph over the
// shape's bounds (FilterPlan), and both renderers execute those passes.

/// A backdrop blur resolved into device pixels.
@usableFromInline package struct BackdropBlur: Hashable, Sendable {
    /// The region, in device pixels.
    @usableFromInline package var shape: DeviceShape
    /// Gaussian sigma in pixels (`radius` x scale).
    @usableFromInline package var sigma: Double
    /// colorControls' saturation (1: unchanged).
    @usableFromInline package var saturation: Double
    /// Composited over the blurred backdrop with `normal`; nil for none.
    @usableFromInline package var tint: Color?

    @usableFromInline package init(shape: DeviceShape, sigma: Double, saturation: Double = 1, tint: Color? = nil) {
        self.shape = shape; self.sigma = sigma; self.saturation = saturation; self.tint = tint
    }

    /// The filter graph of the replacement over a node standing for the backdrop (renderers
    /// lower it over a pixel-less node of the target's extent, and hand their target's pixels
    /// over for it: FilterPlan.backdrop).
    @usableFromInline package func replacement(over backdrop: FilterNode) -> FilterNode {
        var node = FilterNode.filtered(backdrop, .gaussianBlur(radius: sigma))
        if saturation != 1 { node = .filtered(node, .colorControls(saturation: saturation, brightness: 0, contrast: 1)) }
        if let tint { node = .filtered(.generator(.constantColor(tint)), .composite(mode: .normal, background: node)) }
        return node
    }
}

extension GraphicsContext {
    /// Replaces what is drawn under `path` (times the clip) by it blurred with sigma `radius`
    /// points, its saturation adjusted and `tint` composited over it (UIVisualEffectView's blur,
    /// CSS backdrop-filter). Ignores the context alpha and blend mode; casts no shadow.
    public func blurBackdrop(_ path: Path, radius: Double, saturation: Double = 1, tint: Color? = nil) {
        if recorded(.blurBackdrop(path, radius: radius, saturation: saturation, tint: tint)) { return }
        guard let shape = deviceShape(filling: path, rule: .nonzero) else { return }
        let blur = BackdropBlur(shape: shape, sigma: radius * list.scale, saturation: saturation, tint: tint)
        record(.blurBackdrop(blur, CompositeState(alpha: 1, blendMode: .copy, shadow: nil, clip: state.clip)))
    }
}
