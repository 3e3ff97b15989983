// FilterAlpha: the filter graph over one channel. A drop shadow is Core
// Image's recipe for one (the caster's alpha, blurred, then used as the
// coverage of a fill of the shadow colour), and its blur is the graph's
// gaussianBlur: the same node, extent and region-of-interest rules
// (FilterRegions.swift) as any filtered image, so a shadow clipped to a small
// region blurs only what that region reads. What differs is the pixel
// format: the caster is one alpha value a pixel, so carrying it as RGBA
// would blur four channels to keep one.
//
// The graph's source is a stand-in node (`FilterNode.standIn(extent:)`, a
// node of the caster's extent without pixels) for which the renderer hands
// over the plane it rendered the caster into. The graph is lowered once, when
// the shadow is planned (ShadowPlan.lowered: the caster's plane, its blur),
// and each renderer executes those passes on one channel (PenumbraCPU's
// FilterEvaluator.executeAlpha, GPUFilterEvaluator's packed-alpha passes on
// the GPU), the bytes fixed by
// the shared integer kernel (docs/ARITHMETIC.md, "Gaussian blur"). Only the
// filters that mean something on coverage run on one channel (gaussianBlur);
// any other is an internal error, never a silent approximation.

extension FilterNode {
    /// A node of `extent` without pixels of its own (transparent): what an evaluator replaces by
    /// pixels it already has (a shadow's caster plane, the GPU's target under a backdrop blur).
    package static func standIn(extent: PixelRect) -> FilterNode {
        FilterNode.generator(.constantColor(.clear))
            .cropped(to: Rect(x: Double(extent.x), y: Double(extent.y), width: Double(extent.width), height: Double(extent.height)))
    }
}
