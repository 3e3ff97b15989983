// Clips on the GPU: a clip chain's coverage computed here from the edges of
// its nodes (ClipPlan.edges; the planner rasterizes no clip for the GPU and
// nothing is uploaded but those edges). Each node's coverage is GPU coverage
// (GPUCoverage: accumulate and resolve over the node's own region), and a
// chain's is their product, taken from the outermost node in by
// clipproduct.comp: div255(own x outer) per pixel over the inner node's
// region, the CPU's CoverageMask.multiplied(by:) byte for byte. The result is
// one R32UI texture (four pixels a texel, row 0 at its top), which the
// composite reads as the clip (compositepixel.glsl) and the shadow caster as
// a gradient shadow's clip-shaped caster (caster.frag).
import CEGL
import PenumbraModel
import PenumbraCore

extension GPUFrame {
    /// The coverage of a clip chain (ClipPlan.edges: the node first, then its ancestors) as a
    /// texture from the lease, on the device grid over the node's region; the caller gives it back.
    func clipCoverage(_ chain: [CoverageEdges]) throws -> GLTexture {
        guard var product = try chain.last.map(coverageMask) else {
            throw RenderError("GPU: a clip chain without a node")
        }
        for edges in chain.dropLast().reversed() {
            let own = try coverageMask(edges)
            let next = try multiply(own, product)
            lease.giveBack(texture: own.name)
            lease.giveBack(texture: product.name)
            product = next
        }
        return product
    }

    /// div255(own x outer) over `own`'s rect, a new texture.
    private func multiply(_ own: GLTexture, _ outer: GLTexture) throws -> GLTexture {
        let rect = own.rect, texels = (rect.width + 3) / 4
        let surface = try lease.acquire(.coverage, width: max(1, texels), height: max(1, rect.height), "a clip's coverage")
        // The inputs' resolve passes (and an earlier reader of the pooled texture) come first.
        shared.counters.barrier()
        glUseProgram(try programs.clipProduct().name)
        func rectangle(_ r: PixelRect) -> SIMD4<Int32> { SIMD4(Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height)) }
        shared.uniforms.write(ClipProductBlock(ownRect: rectangle(rect), outerRect: rectangle(outer.rect)))
        _ = bindMask(own, unit: .coverage)
        _ = bindMask(outer, unit: .clip)
        glBindImageTexture(GLuint(ImageUnit.coverage.rawValue), surface.name, 0, GLboolean(GL_FALSE), 0,
                           glEnum(GL_WRITE_ONLY), glEnum(GL_R32UI))
        let side = GPUCoverage.tileSize
        shared.counters.frame.dispatches += 1
        shared.counters.frame.passes += 1
        shared.counters.driver { glDispatchCompute(GLuint((texels + side - 1) / side), GLuint((rect.height + side - 1) / side), 1) }
        shared.counters.barrier()
        glBindImageTexture(GLuint(ImageUnit.coverage.rawValue), 0, 0, GLboolean(GL_FALSE), 0, glEnum(GL_WRITE_ONLY), glEnum(GL_R32UI))
        return GLTexture(name: surface.name, rect: rect)
    }
}
