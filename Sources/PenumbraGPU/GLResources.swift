// GLResources: what a render draws with, on the device grid, taken from the
// renderer's pool (GLTexturePool) through the render's lease.
//
// Every texture is sampled with texelFetch only (NEAREST, no mipmaps, so it is
// complete). Coverage (shapes', clips', casters') is R32UI, four U8 values a
// texel, computed on the GPU (GPUCoverage); no CPU mask is uploaded. Shadow
// planes are Float values bit for bit, four pixels to an RGBA32F texel; images
// are RGBA8UI (exact bytes, GLImageCache); render targets (canvas, layers) are
// RGBA8 colour attachments. A surface may be larger than asked for: each
// texture carries the rect it stands for, and nothing reads beyond it.
import CEGL
import PenumbraModel
import PenumbraCore

/// A GL enum from a C macro (imported as Int32).
@inline(__always) func glEnum(_ value: Int32) -> GLenum { GLenum(bitPattern: value) }

/// A texture on the device grid: texel (0, 0) is device pixel `rect.x, rect.y`.
struct GLTexture {
    let name: GLuint
    /// Where its texels lie on the device grid (width or height 0: an empty mask, reads 0).
    let rect: PixelRect
}

/// A render target (the canvas, a layer, a shadow plane) and its framebuffer.
struct GLTarget {
    let surface: GLSurface
    let texture: GLTexture
    var framebuffer: GLuint { surface.framebuffer }
    var frame: PixelRect { texture.rect }
}

extension GLLease {
    /// An RGBA32F table of `width x rows` colours (gradient stops), texel (0, 0) at the origin.
    func table(_ values: [SIMD4<Float>], width: Int, rows: Int) throws -> GLTexture {
        let surface = try acquire(.table, width: width, height: rows, "a gradient stop table")
        values.withUnsafeBytes {
            upload(surface, width: width, height: rows, format: GL_RGBA, type: GL_FLOAT, $0.baseAddress)
        }
        return GLTexture(name: surface.name, rect: PixelRect(x: 0, y: 0, width: width, height: rows))
    }

    /// An RGBA8 target over `frame`, cleared to transparent (or to `clear`) over that frame.
    func colorTarget(frame: PixelRect, _ what: String, clear: SIMD4<Float> = .zero) throws -> GLTarget {
        let surface = try acquire(.color, width: frame.width, height: frame.height, what)
        return cleared(surface, frame, clear)
    }

    /// An RGBA8 target over `frame` holding `bitmap`'s premultiplied bytes (the same size).
    func colorTarget(frame: PixelRect, holding bitmap: Bitmap, _ what: String) throws -> GLTarget {
        let surface = try acquire(.color, width: frame.width, height: frame.height, what)
        bitmap.pixels.withUnsafeBytes {
            upload(surface, width: frame.width, height: frame.height, format: GL_RGBA, type: GL_UNSIGNED_BYTE, $0.baseAddress)
        }
        return GLTarget(surface: surface, texture: GLTexture(name: surface.name, rect: frame))
    }

    /// A shadow plane over `rect`, four pixels to an RGBA32F texel along x (`planeTexels`
    /// wide, one texel more than the pixels need, for the blur's reads past the edge), cleared
    /// to +0. The texture's rect is `rect` in pixels.
    func planeTarget(rect: PixelRect, _ what: String) throws -> GLTarget {
        let texels = GLLease.planeTexels(rect.width)
        let surface = try acquire(.plane, width: texels, height: rect.height, what)
        _ = cleared(surface, PixelRect(x: 0, y: 0, width: texels, height: rect.height), .zero)
        return GLTarget(surface: surface, texture: GLTexture(name: surface.name, rect: rect))
    }

    /// The texel width of a plane `pixels` wide.
    static func planeTexels(_ pixels: Int) -> Int { (pixels + 3) / 4 + 1 }

    /// Gives a finished target back before the render ends.
    func giveBack(_ target: GLTarget) { giveBack(target.surface) }

    private func cleared(_ surface: GLSurface, _ rect: PixelRect, _ color: SIMD4<Float>) -> GLTarget {
        // Binding a framebuffer is where a tiling or software driver runs the work queued for the
        // one bound before: driver time.
        pool.counters.driver { glBindFramebuffer(glEnum(GL_FRAMEBUFFER), surface.framebuffer) }
        glClearColor(color.x, color.y, color.z, color.w)
        glEnable(glEnum(GL_SCISSOR_TEST))
        glScissor(0, 0, GLsizei(max(1, rect.width)), GLsizei(max(1, rect.height)))
        pool.counters.driver { glClear(GLbitfield(GL_COLOR_BUFFER_BIT)) }
        return GLTarget(surface: surface, texture: GLTexture(name: surface.name, rect: rect))
    }

    private func upload(_ surface: GLSurface, width: Int, height: Int, format: Int32, type: Int32, _ data: UnsafeRawPointer?) {
        glBindTexture(glEnum(GL_TEXTURE_2D), surface.name)
        glPixelStorei(glEnum(GL_UNPACK_ALIGNMENT), 1)
        let texelBytes = (format == GL_RED_INTEGER ? 1 : 4) * (type == GL_FLOAT ? 4 : 1)
        pool.counters.upload(width * height * texelBytes) {
            glTexSubImage2D(glEnum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(width), GLsizei(height), glEnum(format), glEnum(type), data)
        }
    }
}
