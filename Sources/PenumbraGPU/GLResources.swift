// GLResources: textures and framebuffers of one render, on the device grid.
//
// Every texture is sampled with texelFetch only (NEAREST, no mipmaps, so it is
// complete). Coverage masks, shadow planes and blur weights are R32F holding
// the CPU's Float values bit for bit; images are RGBA8UI (exact bytes);
// render targets (canvas, layers) are RGBA8 colour attachments. `GLResourcePool`
// records every name it creates so that a render deletes all of them before it
// returns (resource hygiene), whatever path it leaves by.
import CEGL
import PenumbraCore

/// A GL enum from a C macro (imported as Int32).
@inline(__always) func glEnum(_ value: Int32) -> GLenum { GLenum(bitPattern: value) }

/// A texture on the device grid: texel (0, 0) is device pixel `rect.x, rect.y`.
struct GLTexture {
    let name: GLuint
    /// Where its texels lie on the device grid (width or height 0: an empty mask, reads 0).
    let rect: PixelRect
}

/// An RGBA8 render target (the canvas or a layer) and its framebuffer.
struct GLTarget {
    let texture: GLTexture
    let framebuffer: GLuint
    var frame: PixelRect { texture.rect }
}

/// The textures and framebuffers created during one render; `releaseAll` deletes them.
final class GLResourcePool {
    private var textures: [GLuint] = []
    private var framebuffers: [GLuint] = []
    /// The largest texture and renderbuffer side the context accepts.
    let maxSize: Int

    init(maxSize: Int) { self.maxSize = maxSize }

    /// Throws `BackendUnavailable` when a target of this size cannot exist on this GPU.
    func checkSize(_ width: Int, _ height: Int, _ what: String) throws {
        guard width <= maxSize, height <= maxSize else {
            throw BackendUnavailable("\(what) of \(width)x\(height) pixels exceeds the GPU's maximum texture size \(maxSize)")
        }
    }

    /// A new texture with storage and NEAREST filtering; `data` may be nil.
    func texture(width: Int, height: Int, internalFormat: Int32, format: Int32, type: Int32,
                 data: UnsafeRawPointer?) -> GLuint {
        var name: GLuint = 0
        glGenTextures(1, &name)
        textures.append(name)
        glBindTexture(glEnum(GL_TEXTURE_2D), name)
        glTexParameteri(glEnum(GL_TEXTURE_2D), glEnum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(glEnum(GL_TEXTURE_2D), glEnum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glTexParameteri(glEnum(GL_TEXTURE_2D), glEnum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(glEnum(GL_TEXTURE_2D), glEnum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        glPixelStorei(glEnum(GL_UNPACK_ALIGNMENT), 1)
        glTexImage2D(glEnum(GL_TEXTURE_2D), 0, internalFormat, GLsizei(max(1, width)), GLsizei(max(1, height)), 0,
                     glEnum(format), glEnum(type), data)
        return name
    }

    /// An R32F texture of Float values over `rect` (row-major, `rect.area` values).
    func floatTexture(_ values: [Float], rect: PixelRect) throws -> GLTexture {
        try checkSize(rect.width, rect.height, "a coverage mask")
        if rect.isEmpty {
            var zero: Float = 0
            return GLTexture(name: texture(width: 1, height: 1, internalFormat: GL_R32F, format: GL_RED, type: GL_FLOAT,
                                           data: &zero), rect: rect)
        }
        let name = values.withUnsafeBytes {
            texture(width: rect.width, height: rect.height, internalFormat: GL_R32F, format: GL_RED, type: GL_FLOAT,
                    data: $0.baseAddress)
        }
        return GLTexture(name: name, rect: rect)
    }

    /// A coverage mask as an R32F texture on the device grid.
    func mask(_ mask: CoverageMask) throws -> GLTexture { try floatTexture(mask.denseValues(), rect: mask.region) }

    /// An RGBA32F texture of `width x rows` colours (gradient stops).
    func colorTexture(_ values: [SIMD4<Float>], width: Int, rows: Int) -> GLuint {
        values.withUnsafeBytes {
            texture(width: width, height: rows, internalFormat: GL_RGBA32F, format: GL_RGBA, type: GL_FLOAT,
                    data: $0.baseAddress)
        }
    }

    /// A bitmap's bytes as an RGBA8UI texture (read as exact integers).
    func image(_ bitmap: Bitmap) throws -> GLuint {
        try checkSize(bitmap.width, bitmap.height, "an image")
        return bitmap.pixels.withUnsafeBytes {
            texture(width: bitmap.width, height: bitmap.height, internalFormat: GL_RGBA8UI, format: GL_RGBA_INTEGER,
                    type: GL_UNSIGNED_BYTE, data: $0.baseAddress)
        }
    }

    /// A framebuffer with `texture` as its only colour attachment; throws when incomplete.
    func framebuffer(for texture: GLuint, _ what: String) throws -> GLuint {
        var name: GLuint = 0
        glGenFramebuffers(1, &name)
        framebuffers.append(name)
        glBindFramebuffer(glEnum(GL_FRAMEBUFFER), name)
        glFramebufferTexture2D(glEnum(GL_FRAMEBUFFER), glEnum(GL_COLOR_ATTACHMENT0), glEnum(GL_TEXTURE_2D), texture, 0)
        let status = glCheckFramebufferStatus(glEnum(GL_FRAMEBUFFER))
        guard status == glEnum(GL_FRAMEBUFFER_COMPLETE) else {
            throw RenderError("GPU: the \(what) framebuffer is incomplete (status 0x\(String(status, radix: 16)))")
        }
        return name
    }

    /// A cleared RGBA8 target over `frame`.
    func rgbaTarget(frame: PixelRect, _ what: String) throws -> GLTarget {
        try checkSize(frame.width, frame.height, what)
        let name = texture(width: frame.width, height: frame.height, internalFormat: GL_RGBA8, format: GL_RGBA,
                           type: GL_UNSIGNED_BYTE, data: nil)
        let fbo = try framebuffer(for: name, what)
        glClearColor(0, 0, 0, 0)
        glDisable(glEnum(GL_SCISSOR_TEST))
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        return GLTarget(texture: GLTexture(name: name, rect: frame), framebuffer: fbo)
    }

    /// An R32F render target over `rect` (a shadow plane), contents undefined until drawn.
    func floatTarget(rect: PixelRect, _ what: String) throws -> GLTarget {
        try checkSize(rect.width, rect.height, what)
        let name = texture(width: rect.width, height: rect.height, internalFormat: GL_R32F, format: GL_RED,
                           type: GL_FLOAT, data: nil)
        return GLTarget(texture: GLTexture(name: name, rect: rect), framebuffer: try framebuffer(for: name, what))
    }

    /// Deletes one texture now (large intermediate planes) instead of at the end.
    func release(texture: GLuint) {
        var name = texture
        glDeleteTextures(1, &name)
        textures.removeAll { $0 == texture }
    }

    /// Deletes every texture and framebuffer this pool created.
    func releaseAll() {
        glBindFramebuffer(glEnum(GL_FRAMEBUFFER), 0)
        if !framebuffers.isEmpty { glDeleteFramebuffers(GLsizei(framebuffers.count), framebuffers) }
        if !textures.isEmpty { glDeleteTextures(GLsizei(textures.count), textures) }
        framebuffers.removeAll(); textures.removeAll()
    }

    /// Textures and framebuffers currently alive (for tests of resource hygiene).
    var liveCount: Int { textures.count + framebuffers.count }
}
