// GLImageCache: image textures uploaded once and kept across ops and renders,
// keyed by content, so two draws or two scenes with the same pixels share one
// texture and an edited image gets a new one.
//
// The key is the bitmap's width, height and a 64-bit hash of its bytes. A
// hash match is confirmed by comparing the bytes themselves with the pixels
// the entry was uploaded from (the entry keeps that array; Swift arrays are
// copy-on-write, so an edit to the caller's bitmap makes a new buffer and
// never changes the kept one): a hash collision cannot serve wrong pixels.
// Hashing every draw would cost a pass over the image, so the kept array's
// buffer address is a second index: a draw of the very same buffer (the usual
// case: one decoded Image drawn again and again) is found without hashing,
// and the address cannot be reused by another array while the entry keeps
// the buffer alive. Entries beyond `budget` bytes of texture are deleted,
// least recently used first (the entries just used always stay). A mipmapped
// draw's atlas (levels built by the CPU, MipCache) is one more bitmap here.
// A bitmap the renderer itself drew and read back for a later draw (a kept
// image whose pixels were asked for) enters without an upload: its texture
// is copied on the GPU (`adopt`). The kept images themselves are textures
// by identity, not content (`kept`, GLKeptImages.swift).
import CEGL
import PenumbraModel
import PenumbraCore

/// Image textures (RGBA8UI, exact bytes) by content.
final class GLImageCache {
    private struct Key: Hashable { let width: Int; let height: Int; let hash: UInt64 }
    private final class Entry {
        let key: Key
        let pixels: [UInt8]
        let texture: GLuint
        var lastUse: UInt64 = 0
        init(key: Key, pixels: [UInt8], texture: GLuint) { self.key = key; self.pixels = pixels; self.texture = texture }
        var bytes: Int { pixels.count }
        var address: UnsafeRawPointer? { pixels.withUnsafeBytes { UnsafeRawPointer($0.baseAddress) } }
    }

    private var byKey: [Key: Entry] = [:]
    private var byAddress: [UnsafeRawPointer: Entry] = [:]
    /// The textures of images this renderer drew and keeps (GLKeptImages.swift).
    let kept = GLKeptTextures()
    private var clock: UInt64 = 0
    /// Texture bytes kept at most (the entry in use always stays).
    var budget: Int
    /// Uploads made, textures copied from render targets and draws served from the cache, for
    /// tests and reports.
    private(set) var uploads = 0, adopted = 0, hits = 0
    /// Bytes of filter sources copied from a cached texture instead of uploaded (GPUFilterEvaluator).
    var sourceCopyBytes = 0
    /// The content hash (a test may replace it, e.g. by one that makes every image collide).
    var contentHash: ([UInt8]) -> UInt64 = GLImageCache.hash

    init(budget: Int = 256 << 20) { self.budget = budget }

    /// Textures alive.
    var count: Int { byKey.count }
    /// Their names.
    var textureNames: [GLuint] { byKey.values.map(\.texture) }
    /// Texture bytes alive.
    var bytes: Int { byKey.values.reduce(0) { $0 + $1.bytes } }

    /// The texture holding `bitmap`'s pixels, uploaded now if no entry has the same bytes.
    func texture(for bitmap: Bitmap, pool: GLTexturePool) throws -> GLuint {
        let entry = try self.entry(for: bitmap, pool: pool)
        evict(keeping: [entry])
        return entry.texture
    }

    /// The textures of an image's pixels and of its draw's mip atlas (the image's again without
    /// one), neither evicted by the other's upload: the texture of an image this renderer keeps
    /// (GLKeptImages.swift) when the draw samples no mip levels, else those of the pixels' content.
    func textures(for pixels: ImagePixels, atlas: Bitmap?, pool: GLTexturePool) throws -> (image: GLuint, mipmaps: GLuint) {
        if atlas == nil, case .deferred(let deferred) = pixels, let image = deferred.kept as? GLKeptImage,
           let texture = kept.texture(of: image) {
            return (texture, texture)
        }
        let bitmap = pixels.bitmap
        let image = try entry(for: bitmap, pool: pool)
        guard let atlas else { evict(keeping: [image]); return (image.texture, image.texture) }
        let levels = try entry(for: atlas, pool: pool)
        evict(keeping: [image, levels])
        return (image.texture, levels.texture)
    }

    /// The texture of the very same bitmap (its buffer), if an entry holds it: no hashing, no
    /// upload.
    func cachedTexture(of bitmap: Bitmap) -> GLuint? {
        guard let entry = entry(ofBuffer: bitmap) else { return nil }
        clock += 1
        return use(entry).texture
    }

    /// The entry holding `bitmap`'s very buffer, if any.
    private func entry(ofBuffer bitmap: Bitmap) -> Entry? {
        guard let address = bitmap.pixels.withUnsafeBytes({ UnsafeRawPointer($0.baseAddress) }), let entry = byAddress[address],
              entry.key.width == bitmap.width, entry.key.height == bitmap.height, entry.pixels.count == bitmap.pixels.count else { return nil }
        return entry
    }

    private func entry(for bitmap: Bitmap, pool: GLTexturePool) throws -> Entry {
        try pool.checkSize(bitmap.width, bitmap.height, "an image")
        clock += 1
        if let entry = entry(ofBuffer: bitmap) { return use(entry) }
        let key = Key(width: bitmap.width, height: bitmap.height, hash: contentHash(bitmap.pixels))
        if let entry = existing(key, bitmap) { return use(entry) }
        uploads += 1
        return insert(key, bitmap, texture: GLImageCache.upload(bitmap, pool.counters))
    }

    /// The entry with `key` holding `bitmap`'s bytes; one with the same hash and other bytes is
    /// deleted (to be replaced).
    private func existing(_ key: Key, _ bitmap: Bitmap) -> Entry? {
        guard let entry = byKey[key] else { return nil }
        if entry.pixels == bitmap.pixels { return entry }
        remove(entry)
        return nil
    }

    /// A new entry for `bitmap`'s pixels in `texture`, indexed by key and by buffer.
    private func insert(_ key: Key, _ bitmap: Bitmap, texture: GLuint) -> Entry {
        let entry = Entry(key: key, pixels: bitmap.pixels, texture: texture)
        entry.lastUse = clock
        byKey[key] = entry
        if let a = entry.address { byAddress[a] = entry }
        return entry
    }

    /// A new texture name, bound, sampled texel for texel.
    private static func newTexture() -> GLuint {
        var name: GLuint = 0
        glGenTextures(1, &name)
        glBindTexture(glEnum(GL_TEXTURE_2D), name)
        glTexParameteri(glEnum(GL_TEXTURE_2D), glEnum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(glEnum(GL_TEXTURE_2D), glEnum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        return name
    }

    /// Keeps `bitmap`, just read back from the RGBA8 texture `source` (its pixels at texel
    /// `origin`), as the texture of those pixels, made on the GPU: glCopyImageSubData copies the
    /// texels into an RGBA8UI texture (the two formats share a 32-bit texel, so the copy is of
    /// the bytes). Drawing the bitmap later (an offscreen image or a filter chain drawn by the
    /// scene that declared it) finds it by its buffer and uploads nothing. Where the driver
    /// refuses the copy, nothing is kept and the draw uploads the bitmap as any other.
    func adopt(_ bitmap: Bitmap, copiedFrom source: GLuint, origin: (x: Int, y: Int), pool: GLTexturePool) {
        guard bitmap.width > 0, bitmap.height > 0, (try? pool.checkSize(bitmap.width, bitmap.height, "an image")) != nil else { return }
        let key = Key(width: bitmap.width, height: bitmap.height, hash: contentHash(bitmap.pixels))
        if existing(key, bitmap) != nil { return } // drawn by its bytes, found by its hash
        guard let name = GLImageCache.copyTexture(from: source, origin: origin, width: bitmap.width, height: bitmap.height) else { return }
        clock += 1
        adopted += 1
        evict(keeping: [insert(key, bitmap, texture: name)])
    }

    /// A new RGBA8UI texture holding `width` x `height` texels of the 32-bit texture `source`
    /// from `origin`, copied on the GPU (the texel formats share 32 bits, so the copy is of the
    /// bytes); nil, and nothing made, where the driver refuses the copy.
    static func copyTexture(from source: GLuint, origin: (x: Int, y: Int), width: Int, height: Int) -> GLuint? {
        var name = GLImageCache.newTexture()
        glTexStorage2D(glEnum(GL_TEXTURE_2D), 1, glEnum(GL_RGBA8UI), GLsizei(width), GLsizei(height))
        glCopyImageSubData(source, glEnum(GL_TEXTURE_2D), 0, GLint(origin.x), GLint(origin.y), 0,
                           name, glEnum(GL_TEXTURE_2D), 0, 0, 0, 0, GLsizei(width), GLsizei(height), 1)
        guard glGetError() == glEnum(GL_NO_ERROR) else {
            for _ in 0..<8 where glGetError() == glEnum(GL_NO_ERROR) { break } // the other flags set, if any
            glDeleteTextures(1, &name)
            return nil
        }
        return name
    }

    /// Deletes every texture, the kept images' too.
    func purge() {
        kept.purge()
        for entry in Array(byKey.values) { remove(entry) }
    }

    private func use(_ entry: Entry) -> Entry {
        hits += 1
        entry.lastUse = clock
        return entry
    }

    private func evict(keeping kept: [Entry]) {
        var total = bytes
        guard total > budget else { return }
        for entry in byKey.values.sorted(by: { $0.lastUse < $1.lastUse })
        where total > budget && !kept.contains(where: { $0 === entry }) {
            total -= entry.bytes
            remove(entry)
        }
    }

    private func remove(_ entry: Entry) {
        byKey[entry.key] = nil
        if let a = entry.address, byAddress[a] === entry { byAddress[a] = nil }
        var name = entry.texture
        glDeleteTextures(1, &name)
    }

    private static func upload(_ bitmap: Bitmap, _ counters: GPUCounters) -> GLuint {
        let name = newTexture()
        glPixelStorei(glEnum(GL_UNPACK_ALIGNMENT), 1)
        bitmap.pixels.withUnsafeBytes { bytes in
            counters.upload(bytes.count) {
                glTexImage2D(glEnum(GL_TEXTURE_2D), 0, GL_RGBA8UI, GLsizei(max(1, bitmap.width)), GLsizei(max(1, bitmap.height)),
                             0, glEnum(GL_RGBA_INTEGER), glEnum(GL_UNSIGNED_BYTE), bitmap.width > 0 && bitmap.height > 0 ? bytes.baseAddress : nil)
            }
        }
        return name
    }

    /// A 64-bit hash of the bytes, eight at a time (a multiply-xorshift mix; not cryptographic:
    /// matches are confirmed by comparing the bytes).
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { raw -> UInt64 in
            var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(raw.count)
            let words = raw.count / 8
            for i in 0..<words {
                let w = raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)
                h = (h ^ w) &* 0xFF51_AFD7_ED55_8CCD
                h ^= h >> 32
            }
            for i in (words * 8)..<raw.count { h = (h ^ UInt64(raw[i])) &* 0x0100_0000_01B3 }
            h ^= h >> 29
            return h &* 0xC4CE_B9FE_1A85_EC53
        }
    }
}
