// The graph's gaussianBlur on a shadow's packed alpha plane (FilterAlpha.swift;
// GPUFilterImage.Format.packedAlpha): a horizontal then a vertical pass of
// blur.frag (GaussianKernel's integer weights, the CPU's integer passes),
// four pixels a texel. The plane carries a border of at least the kernel's
// radius of zero texels (cleared, never drawn), so the passes read outside
// the plane as 0 without a bounds check per tap. An owned plane is blurred in place (the vertical pass
// writes back into it), so a shadow costs one extra plane, the middle one.
import CEGL
import PenumbraModel
import PenumbraCore

extension GPUFilterEvaluator {
    /// `source` blurred by `kernel` over its plane, which covers `read` (the blur's region of
    /// interest), as a packed alpha image of the same geometry.
    func blurAlpha(_ source: GPUFilterImage, _ kernel: GaussianKernel, _ read: PixelRect) throws -> GPUFilterImage {
        guard case .packedAlpha(let border) = source.format, let surface = source.surface,
              border >= kernel.radius, source.rect.intersection(read) == read else {
            throw FilterError("internal: a packed alpha plane over \(source.rect) cannot be blurred by radius \(kernel.radius) for \(read)")
        }
        let r = kernel.radius, plane = source.rect
        guard r > 0 else { return source }
        let padded = plane.grown(by: border)
        let output = source.owned ? surface : try lease.planeTarget(rect: padded, "shadow plane").surface
        let middle = try lease.planeTarget(rect: padded, "shadow blur plane")
        try shared.bindWeights(kernel)
        shared.uniforms.write(BlurBlock(info: SIMD4(Int32(r), 0, 0, 0)))
        for (blur, input, target) in [(programs.blurX, surface, middle.surface), (programs.blurY, middle.surface, output)] {
            glUseProgram(blur.name)
            shared.counters.driver { glBindFramebuffer(glEnum(GL_FRAMEBUFFER), target.framebuffer) }
            glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(GPURenderer.Unit.input.rawValue))
            glBindTexture(glEnum(GL_TEXTURE_2D), input.name)
            shared.shadePlane(plane, border: border)
        }
        glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(GPURenderer.Unit.input.rawValue))
        glBindTexture(glEnum(GL_TEXTURE_2D), 0)
        lease.giveBack(middle)
        #if DEBUG
        try GPURenderer.checkGLError("shadow blur")
        #endif
        return GPUFilterImage(surface: output, rect: plane, owned: true, format: .packedAlpha(border: border))
    }
}

extension GPUSharedObjects {
    /// One pass over the texels holding `plane`'s pixels in a packed plane of `plane` grown by
    /// `border` (four pixels a texel).
    func shadePlane(_ plane: PixelRect, border: Int) {
        let padded = plane.grown(by: border)
        let inner = GPUFrame.texels(PixelRect(x: border, y: border, width: plane.width, height: plane.height))
        drawQuad(inner, targetWidth: GLLease.planeTexels(padded.width), targetHeight: padded.height)
    }

    /// Draws the quad over `rect` (target pixels) of a target of the given size, scissored to it.
    func drawQuad(_ rect: PixelRect, targetWidth: Int, targetHeight: Int) {
        uniforms.write(QuadBlock(quad: SIMD4<Float>(Float(rect.x), Float(rect.y), Float(rect.maxX), Float(rect.maxY)),
                                 target: SIMD4<Float>(Float(targetWidth), Float(targetHeight), 0, 0)))
        glViewport(0, 0, GLsizei(targetWidth), GLsizei(targetHeight))
        glEnable(glEnum(GL_SCISSOR_TEST))
        glScissor(GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height))
        glDisable(glEnum(GL_BLEND))
        counters.frame.drawCalls += 1
        counters.frame.passes += 1
        counters.driver { glDrawArrays(glEnum(GL_TRIANGLE_STRIP), 0, 4) }
    }
}
