// Shadows on the GPU, exactly as CPURenderer+Shadow.swift: the caster alpha
// (coverage of the geometry moved by the offset, computed on the GPU from its
// edges, or a clip's mask for a gradient's shadow,
// times the paint's alpha sampled with the paint moved by the offset) is
// rendered into a plane over the shared ShadowPlan's rectangle (the
// caster's bounds grown by the kernel radius), blurred by a horizontal then
// a vertical pass of blur.frag (GaussianKernel's integer weights, the
// integer passes of Blur.swift), and composited as a fill of the shadow colour with
// coverage = blurred U8 alpha x clip. Planes hold four horizontally adjacent
// pixels per RGBA32F texel, so the blur reads four pixels per fetch and
// writes four per fragment (blur.frag). Both planes are the plan's rectangle with
// a border of `radius` zero texels around it (cleared, never drawn), so the
// blur reads outside the plane as 0 without a bounds check per tap; the
// border reads as coverage 0 in the composite, as outside a mask does.
// With a clip's caster mask, each pass shades only the tiles that can be non-zero
// (CoverageTiles): the caster's, grown by the radius along x for the
// horizontal pass and along both axes for the vertical pass and the
// composite; everything else stays the cleared +0.
import CEGL
import PenumbraCore

extension GPUFrame {
    /// `paint`: the op's textures; the caster samples them with the shadow's `casterPaint`.
    func drawShadow(_ shadow: LoweredShadow, _ paint: GPUPaint, alpha8: UInt8, mode: BlendMode, clip: GPUClip?) throws {
        let plan = shadow.plan
        let plane = plan.plane, kernel = plan.kernel, region = plan.compositeRegion
        let r = kernel.radius
        let padded = plane.grown(by: r)
        let origin = (padded.x, padded.y)
        // Every pass shades the texels holding the plane's pixels (or the occupied ones of them).
        let texelWidth = GLLease.planeTexels(padded.width)
        let inner = GPUFrame.texels(PixelRect(x: r, y: r, width: plane.width, height: plane.height))
        func shade(_ tiles: CoverageTiles?) {
            drawQuad(inner, targetWidth: texelWidth, targetHeight: padded.height,
                     tiles: occupied(tiles, within: plane).map { GPUFrame.shifted($0, by: origin).map(GPUFrame.texels) })
        }

        // 1. Caster alpha.
        let alpha = try lease.planeTarget(rect: padded, "shadow plane")
        let casterTiles = plan.casterCoverage.map(CoverageTiles.init)
        // Whole: the caster shades whole texels, four pixels each, which may reach past a tile.
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
        shade(casterTiles)
        if let caster { lease.giveBack(texture: caster.name) }

        // 2. Blur: horizontal into `middle`, vertical back into `alpha`.
        if r > 0 {
            let middle = try lease.planeTarget(rect: padded, "shadow blur plane")
            try shared.bindWeights(kernel)
            shared.uniforms.write(BlurBlock(info: SIMD4(Int32(r), 0, 0, 0)))
            let passes = [(programs.blurX, alpha, middle, casterTiles?.dilated(dx: r, dy: 0)),
                          (programs.blurY, middle, alpha, casterTiles?.dilated(dx: r, dy: r))]
            for (blur, input, output, tiles) in passes {
                glUseProgram(blur.name)
                shared.counters.driver { glBindFramebuffer(glEnum(GL_FRAMEBUFFER), output.framebuffer) }
                glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(GPURenderer.Unit.input.rawValue))
                glBindTexture(glEnum(GL_TEXTURE_2D), input.texture.name)
                shade(tiles)
            }
            glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(GPURenderer.Unit.input.rawValue))
            glBindTexture(glEnum(GL_TEXTURE_2D), 0)
            lease.giveBack(middle)
        }
        #if DEBUG
        try GPURenderer.checkGLError("shadow caster and blur")
        #endif

        // 3. Composite the shadow colour with coverage = blurred alpha x clip.
        try composite(region: region, coverage: alpha.texture, packedCoverage: true,
                      rects: occupied(casterTiles?.dilated(dx: r, dy: r), within: region),
                      clip: clip?.texture, paint: GPUPaint(kind: .solid), plan: .solid(shadow.color8), alpha: alpha8,
                      mode: mode)
        lease.giveBack(alpha)
    }

    /// The texels (four pixels each along x) holding the pixels of `rect` (plane-local pixels).
    static func texels(_ rect: PixelRect) -> PixelRect {
        let first = rect.x >> 2, end = (rect.maxX + 3) >> 2
        return PixelRect(x: first, y: rect.y, width: end - first, height: rect.height)
    }
}
