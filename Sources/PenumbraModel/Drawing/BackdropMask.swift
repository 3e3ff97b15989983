// BackdropMask: a transparency layer ended as a mask on the backdrop (what
// UIVisualEffectView's vibrancy needs, SCENE_FORMAT.md "Views", the
// `visualEffect` vibrancy bullet). The layer is not composited: its alpha m
// (U8) times the coverage of the clip in force at its beginning is the
// coverage through which the pixels of the target below, within the layer's
// frame, are replaced by themselves through
// `colorControls(saturation: s, brightness: b, contrast: 1)`, written with `copy`:
//     target' = target (1 - m) + F(target) m      (per pixel, docs/ARITHMETIC.md)
// exactly as blurBackdrop writes its replacement: the composite pipeline's
// coverage x clip and `copy` at alpha 255. The context alpha, blend mode and
// shadow in force at the beginning do not apply; the layer's colours are
// ignored. The draw stream lowers F's filter graph (FilterPlan) over the
// layer's frame only, and both renderers execute those passes, so
// they share its arithmetic.

/// The filter a transparency layer's alpha masks onto the backdrop: `colorControls` with
/// contrast 1.
@usableFromInline package struct BackdropMaskFilter: Hashable, Sendable {
    /// colorControls' saturation (1: unchanged).
    @usableFromInline package var saturation: Double
    /// colorControls' brightness (0: unchanged), added to the un-premultiplied components.
    @usableFromInline package var brightness: Double

    @usableFromInline package init(saturation: Double, brightness: Double) {
        self.saturation = saturation; self.brightness = brightness
    }

    /// The filter graph of the replacement over a node standing for the backdrop (lowered over a
    /// pixel-less node of the target's extent: FilterPlan.backdrop).
    @usableFromInline package func replacement(over backdrop: FilterNode) -> FilterNode {
        .filtered(backdrop, .colorControls(saturation: saturation, brightness: brightness, contrast: 1))
    }
}

extension CompositeState {
    /// How a layer ended as a backdrop mask writes into the target below: alpha 1, `copy`, no
    /// shadow, the clip that was in force at its beginning (`clip`).
    @usableFromInline package var maskingBackdrop: CompositeState {
        CompositeState(alpha: 1, blendMode: .copy, shadow: nil, clip: clip)
    }
}
