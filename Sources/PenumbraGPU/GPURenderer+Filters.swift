// GPURenderer+Filters: the renderer's entry points for filter graphs. A
// graph's region is lowered (FilterPlan) and its passes run on this
// renderer's own context and pool (GPUFilterEvaluator), read back once: the same bytes as the
// CPU's FilterEvaluator (the parity contract), so a scene decoded for the GPU
// backend, or a FilterContext made on this renderer, filters here without a
// context of its own.
import PenumbraModel
import PenumbraCore

extension GPURenderer: FilterGraphRendering {
    /// The pixels of `node` over `region` (transparent outside its extent), computed as GPU
    /// passes and read back once. Throws `FilterError` for a region over `maxPixels` and
    /// `BackendUnavailable` for one beyond the GPU's texture size.
    package func renderFilter(_ node: FilterNode, in region: PixelRect, maxPixels: Int) throws -> Bitmap {
        try renderFilter(node, in: region, maxPixels: maxPixels, keepingImage: false)
    }

    /// `renderFilter(_:in:maxPixels:)`; with `keepingImage`, the result is kept as an image
    /// texture too, copied on the GPU (GLImageCache.adopt), so a later list that draws it
    /// uploads nothing: for a scene's filter chains, which the scene draws next.
    package func renderFilter(_ node: FilterNode, in region: PixelRect, maxPixels: Int, keepingImage: Bool) throws -> Bitmap {
        try makeCurrent()
        counters.begin()
        let lease = GLLease(pool: pool)
        defer {
            lease.end()
            pool.trim()
        }
        let evaluator = GPUFilterEvaluator(programs: programs, shared: shared, lease: lease, images: images)
        let image = try evaluator.execute(FilterPlan(node, in: region, maxPixels: maxPixels))
        counters.endHostTime()
        let bitmap = try evaluator.read(image, in: region)
        try GPURenderer.checkGLError("filters")
        // The chain's pixels are drawn next by the scene: kept as a texture when they are the
        // result's texels as they lie (a colour image covering the region).
        if keepingImage, case .color = image.format, let surface = image.surface,
           image.rect.intersection(region) == region {
            images.adopt(bitmap, copiedFrom: surface.name, origin: (region.x - image.rect.x, region.y - image.rect.y), pool: pool)
        }
        return bitmap
    }
}
