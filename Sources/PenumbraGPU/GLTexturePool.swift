// GLTexturePool: the renderer's textures and framebuffers, kept across ops
// and renders instead of created and deleted for each.
//
// A surface is a texture of one kind (an RGBA8 target, an R32UI coverage mask, an
// RGBA32F shadow plane, an RGBA32F stop table) with its immutable storage
// allocated once at a bucketed size (each side rounded up to a multiple of 64,
// of 256 above 1024, never beyond the GPU's limit), and for target kinds the
// framebuffer that draws into it (attached once). Users ask for at least
// `width x height` and use the top-left corner: every shader reads through a
// rect of logical size (texelFetch, bounds-checked), so what lies beyond it
// is never read. A render takes surfaces through a `GLLease`, which gives all
// of them back when the render ends, whichever way it leaves. Idle surfaces
// wait on free lists keyed by kind and bucket; after each render the least
// recently used are deleted until the idle ones fit `idleBudget` bytes.
import CEGL
import PenumbraModel
import PenumbraCore

/// One pooled texture, its allocated size, and its framebuffer (0 for kinds that are not targets).
final class GLSurface {
    enum Kind: Hashable {
        /// RGBA8 render target: the canvas or a layer.
        case color
        /// R32UI mask of U8 coverage, four pixels a texel, that resolve.comp writes as an image
        /// (immutable storage, which image units require).
        case coverage
        /// RGBA32F render target: a shadow plane, four pixels to a texel along x.
        case plane
        /// RGBA32F uploaded table (gradient stops).
        case table
    }

    let kind: Kind
    let name: GLuint
    let framebuffer: GLuint
    let width: Int, height: Int
    /// A counter value of the last time it was given back (for LRU trimming).
    var lastUse: UInt64 = 0

    init(kind: Kind, name: GLuint, framebuffer: GLuint, width: Int, height: Int) {
        self.kind = kind; self.name = name; self.framebuffer = framebuffer; self.width = width; self.height = height
    }

    var bytes: Int { width * height * kind.bytesPerTexel }
}

extension GLSurface.Kind {
    var bytesPerTexel: Int { self == .table || self == .plane ? 16 : 4 }
    var isTarget: Bool { self == .color || self == .plane }
    /// The sized internal format of glTexStorage2D.
    var internalFormat: Int32 {
        switch self {
        case .color: return GL_RGBA8
        case .coverage: return GL_R32UI
        case .table, .plane: return GL_RGBA32F
        }
    }
}

/// The idle and busy surfaces of one context.
final class GLTexturePool {
    private struct Bucket: Hashable { let kind: GLSurface.Kind; let width: Int; let height: Int }
    private var idle: [Bucket: [GLSurface]] = [:]
    private var clock: UInt64 = 0
    /// Surfaces alive (idle or in use).
    private(set) var surfaceCount = 0
    private(set) var framebufferCount = 0
    /// The largest texture side the context accepts.
    let maxSize: Int
    /// Idle surfaces beyond this many bytes are deleted after a render, least recently used first.
    var idleBudget: Int

    /// The renderer's frame counters (texture uploads).
    let counters: GPUCounters

    init(maxSize: Int, counters: GPUCounters, idleBudget: Int = 128 << 20) {
        self.counters = counters
        self.maxSize = maxSize; self.idleBudget = idleBudget
    }

    /// Throws `BackendUnavailable` when a surface of this size cannot exist on this GPU.
    func checkSize(_ width: Int, _ height: Int, _ what: String) throws {
        guard width <= maxSize, height <= maxSize else {
            throw BackendUnavailable("\(what) of \(width)x\(height) pixels exceeds the GPU's maximum texture size \(maxSize)")
        }
    }

    /// The allocated side for a requested one.
    func bucketed(_ side: Int) -> Int {
        let n = max(1, side)
        let step = n > 1024 ? 256 : 64
        return min(maxSize, (n + step - 1) / step * step)
    }

    /// An idle surface of the kind holding at least `width x height`, or a new one.
    func acquire(_ kind: GLSurface.Kind, width: Int, height: Int, _ what: String) throws -> GLSurface {
        try checkSize(width, height, what)
        let bucket = Bucket(kind: kind, width: bucketed(width), height: bucketed(height))
        if let surface = idle[bucket]?.popLast() { return surface }
        return try make(bucket, what)
    }

    /// Gives a surface back for reuse.
    func recycle(_ surface: GLSurface) {
        clock += 1
        surface.lastUse = clock
        idle[Bucket(kind: surface.kind, width: surface.width, height: surface.height), default: []].append(surface)
    }

    /// Deletes idle surfaces, least recently used first, until the idle ones fit `budget` bytes.
    func trim(toBytes budget: Int? = nil) {
        let limit = budget ?? idleBudget
        var all = idle.values.flatMap { $0 }
        var total = all.reduce(0) { $0 + $1.bytes }
        guard total > limit else { return }
        all.sort { $0.lastUse < $1.lastUse }
        var doomed = Set<ObjectIdentifier>()
        for surface in all where total > limit {
            total -= surface.bytes
            doomed.insert(ObjectIdentifier(surface))
            delete(surface)
        }
        for key in Array(idle.keys) {
            idle[key]!.removeAll { doomed.contains(ObjectIdentifier($0)) }
            if idle[key]!.isEmpty { idle[key] = nil }
        }
    }

    /// Idle surfaces.
    var idleCount: Int { idle.values.reduce(0) { $0 + $1.count } }
    /// The texture names of the idle surfaces.
    var idleTextureNames: [GLuint] { idle.values.flatMap { $0.map(\.name) } }

    /// Bytes held by idle surfaces.
    var idleBytes: Int { idle.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.bytes } } }

    private func make(_ bucket: Bucket, _ what: String) throws -> GLSurface {
        var name: GLuint = 0
        glGenTextures(1, &name)
        glBindTexture(glEnum(GL_TEXTURE_2D), name)
        glTexParameteri(glEnum(GL_TEXTURE_2D), glEnum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(glEnum(GL_TEXTURE_2D), glEnum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glTexParameteri(glEnum(GL_TEXTURE_2D), glEnum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(glEnum(GL_TEXTURE_2D), glEnum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        // Immutable storage: what image units require (targets and GPU coverage are images).
        glTexStorage2D(glEnum(GL_TEXTURE_2D), 1, glEnum(bucket.kind.internalFormat), GLsizei(bucket.width), GLsizei(bucket.height))
        surfaceCount += 1
        var framebuffer: GLuint = 0
        if bucket.kind.isTarget {
            glGenFramebuffers(1, &framebuffer)
            framebufferCount += 1
            glBindFramebuffer(glEnum(GL_FRAMEBUFFER), framebuffer)
            glFramebufferTexture2D(glEnum(GL_FRAMEBUFFER), glEnum(GL_COLOR_ATTACHMENT0), glEnum(GL_TEXTURE_2D), name, 0)
            let status = glCheckFramebufferStatus(glEnum(GL_FRAMEBUFFER))
            guard status == glEnum(GL_FRAMEBUFFER_COMPLETE) else {
                delete(GLSurface(kind: bucket.kind, name: name, framebuffer: framebuffer, width: 0, height: 0))
                throw RenderError("GPU: the \(what) framebuffer is incomplete (status 0x\(String(status, radix: 16)))")
            }
        }
        return GLSurface(kind: bucket.kind, name: name, framebuffer: framebuffer, width: bucket.width, height: bucket.height)
    }

    private func delete(_ surface: GLSurface) {
        var name = surface.name, framebuffer = surface.framebuffer
        if framebuffer != 0 {
            glDeleteFramebuffers(1, &framebuffer)
            framebufferCount -= 1
        }
        glDeleteTextures(1, &name)
        surfaceCount -= 1
    }
}

/// The surfaces one render has taken; `end` gives back every one still out.
final class GLLease {
    let pool: GLTexturePool
    private var out: [GLuint: GLSurface] = [:]

    init(pool: GLTexturePool) { self.pool = pool }

    func acquire(_ kind: GLSurface.Kind, width: Int, height: Int, _ what: String) throws -> GLSurface {
        let surface = try pool.acquire(kind, width: width, height: height, what)
        out[surface.name] = surface
        return surface
    }

    /// Gives one surface back before the render ends (a finished intermediate).
    func giveBack(_ surface: GLSurface) { giveBack(texture: surface.name) }

    /// Gives back the surface of this texture name, if this lease has it out.
    func giveBack(texture name: GLuint) {
        guard let surface = out.removeValue(forKey: name) else { return }
        pool.recycle(surface)
    }

    /// Gives back everything still out.
    func end() {
        for surface in out.values { pool.recycle(surface) }
        out.removeAll()
    }

    /// Surfaces currently out.
    var count: Int { out.count }
}
