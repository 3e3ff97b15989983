// The composite pass: one quad over the op's region of the current target,
// or, for a sparse mask, the rectangles of its occupied tiles (CoverageTiles).
// The destination pixels under them are first copied into an RGBA8 texture
// from the pool (glCopyTexSubImage2D; given back after the draw), placed as
// the region is, then composite.frag computes, per pixel,
// coverage (geometry mask x clip mask), paint, blend and rounding, and writes
// the result with blending disabled. Pixels with zero coverage are discarded
// (left as they were), as the CPU skips them.
import CEGL
import PenumbraCore

extension GPUFrame {
    /// `rects` (device grid, within the region): the only pixels where the coverage can be
    /// non-zero (nil: anywhere in the region). `packedCoverage`: the coverage is a shadow
    /// plane, four pixels to a texel.
    func composite(region: PixelRect, coverage: GLTexture?, packedCoverage: Bool = false, rects: [PixelRect]? = nil,
                   clip: GLTexture?, paint: GPUPaint, plan: PaintPlan, alpha: UInt8, mode: BlendMode) throws {
        let frame = target.frame
        let local = PixelRect(x: region.x - frame.x, y: region.y - frame.y, width: region.width, height: region.height)
        glBindFramebuffer(glEnum(GL_FRAMEBUFFER), target.framebuffer)
        let copy = try lease.acquire(.copy, width: region.width, height: region.height, "a destination copy")
        defer { lease.giveBack(copy) }
        glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(GPURenderer.Unit.destination.rawValue))
        glBindTexture(glEnum(GL_TEXTURE_2D), copy.name)
        for r in rects ?? [region] {
            shared.counters.frame.copyBytes += r.width * r.height * 4
            shared.counters.driver {
                glCopyTexSubImage2D(glEnum(GL_TEXTURE_2D), 0, GLint(r.x - region.x), GLint(r.y - region.y),
                                    GLint(r.x - frame.x), GLint(r.y - frame.y), GLsizei(r.width), GLsizei(r.height))
            }
        }

        let program = try programs.composite(paint: paint.kind, mode: mode, packedCoverage: packedCoverage)
        glUseProgram(program.name)
        var block = CompositeBlock()
        block.origins = SIMD4(Int32(frame.x), Int32(frame.y), Int32(local.x), Int32(local.y))
        block.coverageRect = bindMask(coverage, unit: packedCoverage ? .packedCoverage : .coverage)
        block.clipRect = bindMask(clip, unit: .clip)
        block.info = SIMD4(coverage == nil ? 0 : 1, clip == nil ? 0 : 1, Int32(alpha), Int32(mode.shaderValue))
        block.packing.x = packedCoverage ? 1 : 0
        shared.uniforms.write(block)
        paint.apply(plan, shared.uniforms)
        bindLookup()
        drawQuad(local, targetWidth: frame.width, targetHeight: frame.height,
                 tiles: rects.map { GPUFrame.shifted($0, by: (frame.x, frame.y)) })
    }

    /// Binds a mask texture (or none) to its unit; returns its rect for the pass's block.
    func bindMask(_ mask: GLTexture?, unit: GPURenderer.Unit) -> SIMD4<Int32> {
        glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(unit.rawValue))
        glBindTexture(glEnum(GL_TEXTURE_2D), mask?.name ?? 0)
        let r = mask?.rect ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
        return SIMD4(Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height))
    }

    func bindLookup() {
        glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(GPURenderer.Unit.lookup.rawValue))
        glBindTexture(glEnum(GL_TEXTURE_2D), shared.lookup)
    }

    /// Draws the quad over `rect` (target pixels) of a target of the given size, scissored to it;
    /// with `tiles` (target pixels, within `rect`), only those rectangles.
    func drawQuad(_ rect: PixelRect, targetWidth: Int, targetHeight: Int, tiles: [PixelRect]? = nil) {
        shared.uniforms.write(QuadBlock(quad: SIMD4<Float>(Float(rect.x), Float(rect.y), Float(rect.maxX), Float(rect.maxY)),
                                        target: SIMD4<Float>(Float(targetWidth), Float(targetHeight), tiles == nil ? 0 : 1, 0)))
        glViewport(0, 0, GLsizei(targetWidth), GLsizei(targetHeight))
        glEnable(glEnum(GL_SCISSOR_TEST))
        glScissor(GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height))
        glDisable(glEnum(GL_BLEND))
        shared.counters.frame.drawCalls += 1
        shared.counters.frame.passes += 1
        if let tiles {
            let count = shared.loadTiles(tiles)
            shared.counters.driver { glDrawArrays(glEnum(GL_TRIANGLES), 0, GLsizei(count)) }
            glDisableVertexAttribArray(0)
        } else {
            shared.counters.driver { glDrawArrays(glEnum(GL_TRIANGLE_STRIP), 0, 4) }
        }
    }

    /// The rectangles (device grid) of the occupied tiles within `region`, or nil (the whole
    /// region) when they cover `sparseLimit` of it or more (nothing much to skip).
    func occupied(_ tiles: CoverageTiles?, within region: PixelRect) -> [PixelRect]? {
        guard let tiles else { return nil }
        let rects = tiles.rects(within: region)
        let area = rects.reduce(0) { $0 + $1.area }
        return Double(area) < sparseLimit * Double(region.area) ? rects : nil
    }

    /// The rectangles moved so that `origin` becomes (0, 0): device grid to target pixels.
    static func shifted(_ rects: [PixelRect], by origin: (x: Int, y: Int)) -> [PixelRect] {
        rects.map { PixelRect(x: $0.x - origin.x, y: $0.y - origin.y, width: $0.width, height: $0.height) }
    }
}
