// The composite pass: composite.comp over the op's region of the current
// target (or over the tiles GPU coverage listed, an indirect dispatch). It
// reads and writes the target in place through two image units (no copy of the destination: each pixel is
// read and written by its own invocation), computing per pixel coverage
// (geometry mask x clip mask), paint, blend and rounding; pixels with zero
// coverage are left as they were, as the CPU skips them. A barrier then
// makes the stores visible to whatever reads the target next: the next
// composite's image loads, a pass sampling it (a layer's composite, a
// backdrop blur, a filter) or the readback; another before it makes the
// stores wait for earlier passes' reads and writes of the same texture
// (without it, one scene in 500 of the differential fuzzer came out wrong
// on llvmpipe, and GLES does not promise that order either).
import CEGL
import PenumbraModel
import PenumbraCore

extension GPUFrame {
    /// `atlasRow`: the coverage's first row in its
    /// texture. `tileList`: GPU coverage's list of its occupied tiles (GPUCoverageMask), the
    /// only ones shaded. `coverageKind`: what the coverage texture holds (GPU coverage, a shadow
    /// plane, a layer's alpha).
    func composite(region: PixelRect, coverage: GLTexture?, atlasRow: Int = 0, coverageKind: CoverageKind = .gpuMask,
                   tileList: (header: Int, firstTile: Int, tilesPerRow: Int)? = nil,
                   clip: GLTexture?, paint: GPUPaint, plan: PaintPlan, alpha: UInt8, mode: BlendMode) throws {
        let frame = target.frame
        // Earlier passes' reads of the target (a fragment pass sampling it, the last composite's
        // loads) and writes into it (clears, fragment passes) complete before these stores.
        shared.counters.barrier()
        let program = try programs.composite(paint: paint.kind, mode: mode, coverage: coverageKind)
        glUseProgram(program.name)
        var block = CompositeBlock()
        block.origins = SIMD4(Int32(frame.x), Int32(frame.y), 0, 0)
        block.coverageRect = bindMask(coverage, unit: coverageKind.unit)
        block.clipRect = bindMask(clip, unit: .clip)
        block.info = SIMD4(coverage == nil ? 0 : 1, clip == nil ? 0 : 1, Int32(alpha), Int32(mode.shaderValue))
        block.packing.x = Int32(coverageKind.rawValue)
        block.tiles = SIMD4(Int32(tileList?.tilesPerRow ?? 0), Int32(tileList?.firstTile ?? 0), Int32(atlasRow), 0)
        paint.apply(plan, shared.uniforms)
        bindLookup()
        let texture = target.texture.name
        glBindImageTexture(GLuint(ImageUnit.target.rawValue), texture, 0, GLboolean(GL_FALSE), 0, glEnum(GL_READ_ONLY), glEnum(GL_RGBA8))
        glBindImageTexture(GLuint(ImageUnit.targetOut.rawValue), texture, 0, GLboolean(GL_FALSE), 0, glEnum(GL_WRITE_ONLY),
                           glEnum(GL_RGBA8))
        let side = GPUCoverage.tileSize
        block.origins.z = Int32(region.x - frame.x); block.origins.w = Int32(region.y - frame.y)
        block.packing.z = Int32(region.width); block.packing.w = Int32(region.height)
        shared.uniforms.write(block)
        shared.counters.frame.dispatches += 1
        shared.counters.frame.passes += 1
        if let tileList {
            glBindBuffer(glEnum(GL_DISPATCH_INDIRECT_BUFFER), shared.coverage.tileListBuffer)
            shared.counters.driver { glDispatchComputeIndirect(GLintptr(4 * tileList.header)) }
        } else {
            shared.counters.driver { glDispatchCompute(GLuint((region.width + side - 1) / side), GLuint((region.height + side - 1) / side), 1) }
        }
        shared.counters.barrier()
    }


    /// What a composite's coverage texture holds (`COVERAGE_<KIND>` in GLSL: compositepixel.glsl).
    enum CoverageKind: Int, CaseIterable {
        /// GPU coverage (resolve.comp): R32UI, four pixels a texel.
        case gpuMask = 0
        /// A blurred shadow plane (caster.frag, blur.frag): RGBA32F, four pixels a texel.
        case shadowPlane
        /// A layer (RGBA8) whose alpha is the coverage: a layer ended as a backdrop mask.
        case layerAlpha

        /// The texture unit the coverage is bound to.
        var unit: GPURenderer.Unit {
            switch self {
            case .gpuMask: return .coverage
            case .shadowPlane: return .packedCoverage
            case .layerAlpha: return .alphaCoverage
            }
        }
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
}
