// Shadows on the GPU, exactly as CPURenderer+Shadow.swift: the caster alpha
// (coverage of the geometry moved by the offset, or of the clip for a
// gradient's shadow, computed on the GPU from edges, times the paint's alpha
// sampled with the paint moved by the offset) is rendered into a plane over
// the shared ShadowPlan's rectangle (the blur's region of interest), the
// shadow's filter graph is evaluated on it by the renderer's filter
// evaluator (the graph's gaussianBlur on a packed alpha plane,
// GPUFilterEvaluator+Alpha.swift, the integer passes of the CPU's blur), and
// the result composited as a fill of the shadow colour with coverage =
// blurred U8 alpha x clip. Planes hold four horizontally adjacent pixels per
// RGBA32F texel with a border of `radius` zero texels around them (cleared,
// never drawn), which reads as coverage 0 in the composite, as outside a mask
// does.
import CEGL
import PenumbraModel
import PenumbraCore

extension GPUFrame {
    /// `paint`: the op's textures; the caster samples them with the shadow's `casterPaint`.
    func drawShadow(_ shadow: LoweredShadow, _ paint: GPUPaint, alpha8: UInt8, mode: BlendMode, clip: GLTexture?) throws {
        let plan = shadow.plan
        let plane = plan.plane, border = plan.kernel.radius
        let padded = plane.grown(by: border)

        // 1. Caster alpha.
        let alpha = try lease.planeTarget(rect: padded, "shadow plane")
        // The caster's GPU coverage: a shape's, or a clip chain's (a gradient's shadow).
        precondition(plan.casterRasterized == nil, "the GPU's plans carry casters as edges, not rasterized coverage")
        let caster = try plan.casterEdges.map(coverageMask) ?? plan.casterClip.map(clipCoverage)
        let program = try programs.caster(paint: paint.kind)
        shared.counters.driver { glBindFramebuffer(glEnum(GL_FRAMEBUFFER), alpha.framebuffer) }
        glUseProgram(program.name)
        shared.uniforms.write(CasterBlock(origin: SIMD4(Int32(padded.x), Int32(padded.y), caster == nil ? 0 : 1, 0),
                                          planeRect: SIMD4(Int32(plane.x), Int32(plane.y), Int32(plane.width), Int32(plane.height)),
                                          coverageRect: bindMask(caster, unit: .coverage)))
        paint.apply(shadow.casterPaint, shared.uniforms)
        bindLookup()
        shared.shadePlane(plane, border: border)
        if let caster { lease.giveBack(texture: caster.name) }

        // 2. The shadow's graph on the caster's plane: the blur (in place).
        let evaluator = GPUFilterEvaluator(programs: programs, shared: shared, lease: lease, images: images)
        let blurred = try evaluator.execute(plan.lowered, input: GPUFilterImage(surface: alpha.surface, rect: plane, owned: true,
                                                                                format: .packedAlpha(border: border)))
        guard case .packedAlpha = blurred.format, let surface = blurred.surface else {
            evaluator.release(blurred)
            throw RenderError("GPU: a shadow's graph gave no alpha plane")
        }

        // 3. Composite the shadow colour with coverage = blurred alpha x clip.
        let region = plan.compositeRegion
        try composite(region: region, coverage: GLTexture(name: surface.name, rect: padded), coverageKind: .shadowPlane,
                      clip: clip, paint: GPUPaint(kind: .solid),
                      plan: .solid(shadow.color8), alpha: alpha8, mode: mode)
        evaluator.release(blurred)
    }

    /// The texels (four pixels each along x) holding the pixels of `rect` (plane-local pixels).
    static func texels(_ rect: PixelRect) -> PixelRect {
        let first = rect.x >> 2, end = (rect.maxX + 3) >> 2
        return PixelRect(x: first, y: rect.y, width: end - first, height: rect.height)
    }
}
