// Shadows on the GPU, exactly as CPURenderer+Shadow.swift: the caster alpha
// (coverage of the geometry moved by the offset, from the shared Rasterizer,
// times the paint's alpha sampled with the paint moved by the offset) is
// rendered into an R32F plane over the shared ShadowPlan's rectangle, blurred
// by a horizontal then a vertical pass of blur.frag (GaussianKernel's Float
// weights in an R32F texture, summed in the CPU's order), and composited as a
// fill of the shadow colour with coverage = blurred alpha x clip.
import CEGL
import PenumbraCore

extension GPUFrame {
    func drawShadow(_ plan: ShadowPlan, _ color: Color, _ paint: GPUPaint, _ state: CompositeState,
                    clip: GPUClip?) throws {
        let plane = plan.plane, kernel = plan.kernel, offset = plan.offset, region = plan.compositeRegion
        let casterMask = plan.casterCoverage

        // 1. Caster alpha.
        let alpha = try pool.floatTarget(rect: plane, "shadow plane")
        let caster = try casterMask.map { try pool.mask($0) }
        let program = try programs.caster(paint: paint.kindIndex)
        glBindFramebuffer(glEnum(GL_FRAMEBUFFER), alpha.framebuffer)
        glUseProgram(program.name)
        program.set("uPlaneOrigin", plane.x, plane.y)
        bindMask(program, "uHasCoverage", "uCoverageRect", caster, unit: .coverage)
        paint.apply(to: program, origin: (plane.x, plane.y), offset: offset)
        bindLookup()
        let whole = PixelRect(x: 0, y: 0, width: plane.width, height: plane.height)
        drawQuad(program, whole, targetWidth: plane.width, targetHeight: plane.height)
        if let caster { pool.release(texture: caster.name) }

        // 2. Blur: horizontal into `middle`, vertical back into `alpha`.
        if kernel.radius > 0 {
            let middle = try pool.floatTarget(rect: plane, "shadow blur plane")
            let weights = try pool.floatTexture(kernel.weights, rect: PixelRect(x: 0, y: 0, width: kernel.weights.count, height: 1))
            let blur = programs.blur
            glUseProgram(blur.name)
            blur.set("uRadius", kernel.radius)
            blur.set("uSize", plane.width, plane.height)
            glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(GPURenderer.Unit.weights.rawValue))
            glBindTexture(glEnum(GL_TEXTURE_2D), weights.name)
            for (input, output, direction) in [(alpha, middle, (1, 0)), (middle, alpha, (0, 1))] {
                glBindFramebuffer(glEnum(GL_FRAMEBUFFER), output.framebuffer)
                glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(GPURenderer.Unit.input.rawValue))
                glBindTexture(glEnum(GL_TEXTURE_2D), input.texture.name)
                blur.set("uDirection", direction.0, direction.1)
                drawQuad(blur, whole, targetWidth: plane.width, targetHeight: plane.height)
            }
            glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(GPURenderer.Unit.input.rawValue))
            glBindTexture(glEnum(GL_TEXTURE_2D), 0)
            pool.release(texture: middle.texture.name)
            pool.release(texture: weights.name)
        }
        #if DEBUG
        try GPURenderer.checkGLError("shadow caster and blur")
        #endif

        // 3. Composite the shadow colour with coverage = blurred alpha x clip.
        try composite(region: region, coverage: alpha.texture, clip: clip?.texture,
                      paint: .solid(SIMD4<Float>(color.premultiplied)), alpha: Float(state.alpha),
                      mode: state.blendMode)
        pool.release(texture: alpha.texture.name)
    }
}
