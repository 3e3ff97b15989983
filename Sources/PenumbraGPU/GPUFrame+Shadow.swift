// Shadows on the GPU, exactly as CPURenderer+Shadow.swift: the caster alpha
// (coverage of the geometry moved by the offset, computed on the GPU from its
// edges, or a clip's mask for a gradient's shadow, times the paint's alpha
// sampled with the paint moved by the offset) is rendered into a plane over
// the shared ShadowPlan's rectangle (the blur's region of interest), the
// shadow's filter graph is evaluated on it by the renderer's filter
// evaluator (the graph's gaussianBlur on a packed alpha plane,
// GPUFilterEvaluator+Alpha.swift, the integer passes of the CPU's blur), and
// the result composited as a fill of the shadow colour with coverage =
// blurred U8 alpha x clip. Planes hold four horizontally adjacent pixels per
// RGBA32F texel with a border of `radius` zero texels around them (cleared,
// never drawn), which reads as coverage 0 in the composite, as outside a mask
// does. With a clip's caster mask, the caster, the blur and the composite
// shade only the tiles that can be non-zero (CoverageTiles).
import CEGL
import PenumbraCore

extension GPUFrame {
    /// `paint`: the op's textures; the caster samples them with the shadow's `casterPaint`.
    func drawShadow(_ shadow: LoweredShadow, _ paint: GPUPaint, alpha8: UInt8, mode: BlendMode, clip: GPUClip?) throws {
        let plan = shadow.plan
        let plane = plan.plane, border = plan.kernel.radius
        let padded = plane.grown(by: border)

        // 1. Caster alpha.
        let alpha = try lease.planeTarget(rect: padded, "shadow plane")
        let casterTiles = plan.casterCoverage.map(CoverageTiles.init)
        // A clip's mask (uploaded, a byte a texel) or GPU coverage (four pixels a texel).
        let uploaded = try plan.casterCoverage.map { try lease.mask($0) }
        let computed = uploaded == nil ? try plan.casterEdges.map(coverageMask) : nil
        let caster = uploaded ?? computed
        let program = try programs.caster(paint: paint.kind)
        shared.counters.driver { glBindFramebuffer(glEnum(GL_FRAMEBUFFER), alpha.framebuffer) }
        glUseProgram(program.name)
        shared.uniforms.write(CasterBlock(origin: SIMD4(Int32(padded.x), Int32(padded.y), caster == nil ? 0 : 1, computed == nil ? 0 : 1),
                                          planeRect: SIMD4(Int32(plane.x), Int32(plane.y), Int32(plane.width), Int32(plane.height)),
                                          coverageRect: bindMask(caster, unit: .coverage)))
        paint.apply(shadow.casterPaint, shared.uniforms)
        bindLookup()
        // Whole texels: the caster shades four pixels each, which may reach past a tile.
        shared.shadePlane(plane, border: border, tiles: occupied(casterTiles, within: plane))
        if let caster { lease.giveBack(texture: caster.name) }

        // 2. The shadow's graph on the caster's plane: the blur (in place).
        let evaluator = GPUFilterEvaluator(programs: programs, shared: shared, lease: lease, images: images, sparseLimit: sparseLimit)
        let blurred = try evaluator.execute(plan.lowered, input: GPUFilterImage(surface: alpha.surface, rect: plane, owned: true,
                                                                                format: .packedAlpha(border: border, tiles: casterTiles)))
        guard case .packedAlpha(_, let tiles) = blurred.format, let surface = blurred.surface else {
            evaluator.release(blurred)
            throw RenderError("GPU: a shadow's graph gave no alpha plane")
        }

        // 3. Composite the shadow colour with coverage = blurred alpha x clip.
        let region = plan.compositeRegion
        try composite(region: region, coverage: GLTexture(name: surface.name, rect: padded), coverageKind: .shadowPlane,
                      rects: occupied(tiles, within: region), clip: clip?.texture, paint: GPUPaint(kind: .solid),
                      plan: .solid(shadow.color8), alpha: alpha8, mode: mode)
        evaluator.release(blurred)
    }

    /// The texels (four pixels each along x) holding the pixels of `rect` (plane-local pixels).
    static func texels(_ rect: PixelRect) -> PixelRect {
        let first = rect.x >> 2, end = (rect.maxX + 3) >> 2
        return PixelRect(x: first, y: rect.y, width: end - first, height: rect.height)
    }
}
