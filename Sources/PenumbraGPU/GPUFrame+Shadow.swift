// Shadows on the GPU, exactly as CPURenderer+Shadow.swift: the caster alpha
// (coverage of the geometry moved by the offset, from the shared Rasterizer,
// times the paint's alpha sampled with the paint moved by the offset) is
// rendered into an R32F plane over the shared ShadowPlan's rectangle (the
// caster's bounds grown by the kernel radius), blurred by a horizontal then
// a vertical pass of blur.frag (GaussianKernel's Float weights, summed in the
// CPU's order), and composited as a fill of the shadow colour with
// coverage = blurred alpha x clip. Both planes are the plan's rectangle with
// a border of `radius` zero texels around it (cleared, never drawn), so the
// blur reads outside the plane as 0 without a bounds check per tap; the
// border reads as coverage 0 in the composite, as outside a mask does.
import CEGL
import PenumbraCore

extension GPUFrame {
    func drawShadow(_ plan: ShadowPlan, _ color: Color, _ paint: GPUPaint, _ state: CompositeState,
                    clip: GPUClip?) throws {
        let plane = plan.plane, kernel = plan.kernel, offset = plan.offset, region = plan.compositeRegion
        let r = kernel.radius
        let padded = plane.grown(by: r)
        // The plane's pixels inside the padded texture.
        let inner = PixelRect(x: r, y: r, width: plane.width, height: plane.height)

        // 1. Caster alpha.
        let alpha = try lease.planeTarget(rect: padded, "shadow plane")
        let caster = try plan.casterCoverage.map { try lease.mask($0) }
        let program = try programs.caster(paint: paint.kindIndex)
        glBindFramebuffer(glEnum(GL_FRAMEBUFFER), alpha.framebuffer)
        glUseProgram(program.name)
        program.set("uPlaneOrigin", padded.x, padded.y)
        bindMask(program, "uHasCoverage", "uCoverageRect", caster, unit: .coverage)
        // The paint's map starts at the plane's corner, as it always has: another origin would
        // round the Float map differently.
        paint.apply(to: program, origin: (plane.x, plane.y), offset: offset)
        bindLookup()
        drawQuad(program, inner, targetWidth: padded.width, targetHeight: padded.height)
        if let caster { lease.giveBack(texture: caster.name) }

        // 2. Blur: horizontal into `middle`, vertical back into `alpha`.
        if r > 0 {
            let middle = try lease.planeTarget(rect: padded, "shadow blur plane")
            try shared.bindWeights(kernel)
            let blur = programs.blur
            glUseProgram(blur.name)
            blur.set("uRadius", r)
            for (input, output, direction) in [(alpha, middle, (1, 0)), (middle, alpha, (0, 1))] {
                glBindFramebuffer(glEnum(GL_FRAMEBUFFER), output.framebuffer)
                glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(GPURenderer.Unit.input.rawValue))
                glBindTexture(glEnum(GL_TEXTURE_2D), input.texture.name)
                blur.set("uDirection", direction.0, direction.1)
                drawQuad(blur, inner, targetWidth: padded.width, targetHeight: padded.height)
            }
            glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(GPURenderer.Unit.input.rawValue))
            glBindTexture(glEnum(GL_TEXTURE_2D), 0)
            lease.giveBack(middle)
        }
        #if DEBUG
        try GPURenderer.checkGLError("shadow caster and blur")
        #endif

        // 3. Composite the shadow colour with coverage = blurred alpha x clip.
        try composite(region: region, coverage: alpha.texture, clip: clip?.texture,
                      paint: .solid(SIMD4<Float>(color.premultiplied)), alpha: Float(state.alpha),
                      mode: state.blendMode)
        lease.giveBack(alpha)
    }
}
