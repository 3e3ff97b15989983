// GPURenderer+Filters: the renderer's entry points for filter graphs. A
// graph's region is lowered (FilterPlan) and its passes run on this
// renderer's own context and pool (GPUFilterEvaluator), read back once, or
// kept on the GPU for the scene that draws them: the same bytes as the
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
        try evaluate(node, in: region, maxPixels: maxPixels) { evaluator, image in try evaluator.read(image, in: region) }
    }

    /// The pixels of `node` over `region` as `renderFilter(_:in:maxPixels:)` computes them, kept
    /// on the GPU as an image texture and not read back (GLKeptImages.swift) when the result is a
    /// colour image covering the region: for a scene's filter chains, which the scene draws
    /// next. `portable` makes the same pixels anywhere (the CPU's evaluator).
    package func renderFilterKeeping(_ node: FilterNode, in region: PixelRect, maxPixels: Int,
                                     portable: @escaping @Sendable () throws -> Bitmap) throws -> ProducedPixels {
        try evaluate(node, in: region, maxPixels: maxPixels) { evaluator, image in
            if case .color = image.format, let surface = image.surface, image.rect.intersection(region) == region,
               let kept = images.kept.keep(copiedFrom: surface.name, origin: (region.x - image.rect.x, region.y - image.rect.y),
                                           width: region.width, height: region.height, renderer: self) {
                return .kept(kept, portable: portable)
            }
            return .bitmap(try evaluator.read(image, in: region))
        }
    }

    /// Runs the passes of `node` over `region` and hands the result to `finish` before the
    /// passes' surfaces go back to the pool.
    private func evaluate<T>(_ node: FilterNode, in region: PixelRect, maxPixels: Int,
                             finish: (GPUFilterEvaluator, GPUFilterImage) throws -> T) throws -> T {
        try makeCurrent()
        counters.begin()
        let lease = GLLease(pool: pool)
        defer {
            lease.end()
            pool.trim()
        }
        let evaluator = GPUFilterEvaluator(programs: programs, shared: shared, lease: lease, images: images)
        let image = try whileDrawing { try evaluator.execute(FilterPlan(node, in: region, maxPixels: maxPixels)) }
        counters.endHostTime()
        let result = try finish(evaluator, image)
        try GPURenderer.checkGLError("filters")
        return result
    }
}
