// The GPU's coverage masks read back, for the tests that compare them with the
// CPU's (GPUCoverageTests) or print them beside a parity failure (FuzzReproTests).
import CEGL
import PenumbraCPU
import PenumbraModel
@_spi(Stages) @testable import PenumbraModel
@testable import PenumbraCore
@testable import PenumbraGPU

extension GPUTestSupport {
    /// The GPU's coverage of the shapes, computed in one batch, each read back from its rows of
    /// the batch's atlas as bytes (row-major over its region).
    static func coverage(_ shapes: [(DeviceShape, PixelRect)], _ gpu: GPURenderer) throws -> [[UInt8]] {
        let lease = GLLease(pool: gpu.pool)
        defer { lease.end() }
        let masks = try gpu.shared.coverage.masks(shapes.map { Rasterizer.edges(of: $0.0, in: $0.1) }, programs: gpu.programs,
                                                  uniforms: gpu.shared.uniforms, lease: lease, listingTiles: true)
        var framebuffer: GLuint = 0
        glGenFramebuffers(1, &framebuffer)
        defer { glDeleteFramebuffers(1, &framebuffer) }
        glBindFramebuffer(glEnum(GL_FRAMEBUFFER), framebuffer)
        return try zip(shapes, masks).map { shape, mask in
            let region = shape.1
            glFramebufferTexture2D(glEnum(GL_FRAMEBUFFER), glEnum(GL_COLOR_ATTACHMENT0), glEnum(GL_TEXTURE_2D), mask.texture.name, 0)
            // Four pixels a texel, pixel 4k + j in byte j of texel k.
            let columns = (region.width + 3) / 4
            var texels = [UInt32](repeating: 0, count: columns * region.height * 4)
            glPixelStorei(glEnum(GL_PACK_ALIGNMENT), 4)
            glReadPixels(0, GLint(mask.atlasRow), GLsizei(columns), GLsizei(region.height), glEnum(GL_RGBA_INTEGER),
                         glEnum(GL_UNSIGNED_INT), &texels)
            try GPURenderer.checkGLError("reading a coverage mask")
            return (0..<region.width * region.height).map { i in
                let (x, y) = (i % region.width, i / region.width)
                return UInt8(truncatingIfNeeded: texels[(y * columns + x / 4) * 4] >> UInt32(8 * (x % 4)))
            }
        }
    }
}
