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
        return bitmap
    }
}
