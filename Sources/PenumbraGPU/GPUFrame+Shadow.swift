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
// With a caster mask, each pass shades only the tiles that can be non-zero
// (CoverageTiles): the caster's, grown by the radius along x for the
// horizontal pass and along both axes for the vertical pass and the
// composite; everything else stays the cleared +0.
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
        let casterTiles = plan.casterCoverage.map(CoverageTiles.init)
        let origin = (padded.x, padded.y)
        drawQuad(program, inner, targetWidth: padded.width, targetHeight: padded.height,
                 tiles: sparse(casterTiles, within: plane, origin: origin))
        if let caster { lease.giveBack(texture: caster.name) }

        // 2. Blur: horizontal into `middle`, vertical back into `alpha`.
        if r > 0 {
            let middle = try lease.planeTarget(rect: padded, "shadow blur plane")
            try shared.bindWeights(kernel)
            let blur = programs.blur
            glUseProgram(blur.name)
            blur.set("uRadius", r)
            let rowTiles = casterTiles?.dilated(dx: r, dy: 0), blurTiles = casterTiles?.dilated(dx: r, dy: r)
            for (input, output, direction, tiles) in [(alpha, middle, (1, 0), rowTiles), (middle, alpha, (0, 1), blurTiles)] {
                glBindFramebuffer(glEnum(GL_FRAMEBUFFER), output.framebuffer)
                glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(GPURenderer.Unit.input.rawValue))
                glBindTexture(glEnum(GL_TEXTURE_2D), input.texture.name)
                blur.set("uDirection", direction.0, direction.1)
                drawQuad(blur, inner, targetWidth: padded.width, targetHeight: padded.height,
                         tiles: sparse(tiles, within: plane, origin: origin))
            }
            glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(GPURenderer.Unit.input.rawValue))
            glBindTexture(glEnum(GL_TEXTURE_2D), 0)
            lease.giveBack(middle)
        }
        #if DEBUG
        try GPURenderer.checkGLError("shadow caster and blur")
        #endif

        // 3. Composite the shadow colour with coverage = blurred alpha x clip.
        try composite(region: region, coverage: alpha.texture, tiles: casterTiles?.dilated(dx: r, dy: r), clip: clip?.texture,
                      paint: .solid(SIMD4<Float>(color.premultiplied)), alpha: Float(state.alpha),
                      mode: state.blendMode)
        lease.giveBack(alpha)
    }
}
