// MipCache: the mip levels of a bitmap, built once per pixel content and kept
// with the bitmap, shared by every copy of it, every draw and every thread.
//
// A Bitmap carries one MipCache (a reference, not part of its value). The
// cache keeps the pixel array it built from; while it does, that array is not
// uniquely referenced, so any edit of a bitmap's pixels copies them to a new
// buffer first (copy-on-write) and no longer matches the kept buffer: a stale
// level is never served, and the next request starts over. Levels are built
// lazily, one region of the image at a time (a nine-slice region has its own
// chain), and only the levels asked for: the first draw that needs level 3
// computes it from the image through levels 1 and 2 without keeping them
// (MipLevels.reduce(_:_:levels:)), a later draw at level 4 starts from level 3.
//
// The atlas of a draw (ImageSamplingPlan.mipmaps: the distinct region levels
// it samples, side by side) is the bytes both renderers read: the CPU from
// memory, the GPU as one texture uploaded by content. An atlas of a single
// level is that level itself; composed atlases are kept too (a few per
// bitmap: one per distinct set of levels, dropped beyond 16).
import Synchronization

/// Mip levels derived from a bitmap's pixels (see the file comment).
@usableFromInline package final class MipCache: Sendable {
    private struct State {
        /// The pixel array the levels were built from (nil: nothing built).
        var source: [UInt8]?
        /// Per region of the image, the levels built so far (by level, >= 1).
        var chains: [PixelRect: [Int: Bitmap]] = [:]
        var atlases: [[MipAtlasEntry]: Bitmap] = [:]
    }
    private let state = Mutex(State())

    @usableFromInline package init() {}

    /// Level `level` (>= 1) of the chain of `region` (texels of `bitmap`), built as needed.
    @usableFromInline package func level(_ level: Int, of region: PixelRect, in bitmap: Bitmap) -> Bitmap {
        state.withLock { state in MipCache.level(level, of: region, in: bitmap, &state) }
    }

    /// The atlas of `layout`: its entries' levels placed at their origins.
    @usableFromInline package func atlas(_ layout: MipAtlasLayout, of bitmap: Bitmap) -> Bitmap {
        state.withLock { state in
            MipCache.validate(bitmap, &state)
            if layout.entries.count == 1, let e = layout.entries.first, e.originX == 0, e.originY == 0 {
                return MipCache.level(e.level, of: e.region, in: bitmap, &state)
            }
            if let kept = state.atlases[layout.entries] { return kept }
            var atlas = Bitmap(width: layout.width, height: layout.height)
            for e in layout.entries {
                let level = MipCache.level(e.level, of: e.region, in: bitmap, &state)
                atlas.pixels.withUnsafeMutableBytes { dst in
                    level.pixels.withUnsafeBytes { src in
                        for row in 0..<level.height {
                            let to = dst.baseAddress! + ((Int(e.originY) + row) * layout.width + Int(e.originX)) * 4
                            to.copyMemory(from: src.baseAddress! + row * level.width * 4, byteCount: level.width * 4)
                        }
                    }
                }
            }
            if state.atlases.count >= 16 { state.atlases = [:] }
            state.atlases[layout.entries] = atlas
            return atlas
        }
    }

    /// Forgets what was built from other pixels than `bitmap`'s.
    private static func validate(_ bitmap: Bitmap, _ state: inout State) {
        if let source = state.source, sameBuffer(source, bitmap.pixels) { return }
        state = State(source: bitmap.pixels)
    }

    private static func sameBuffer(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in pa.baseAddress == pb.baseAddress } }
    }

    private static func level(_ level: Int, of region: PixelRect, in bitmap: Bitmap, _ state: inout State) -> Bitmap {
        precondition(level >= 1)
        validate(bitmap, &state)
        var chain = state.chains[region] ?? [:]
        if let kept = chain[level] { return kept }
        // From the deepest level kept above it (or the region's texels), the levels in between
        // computed on the way and not kept.
        let above = chain.keys.filter { $0 < level }.max()
        let built: Bitmap
        if let above, let from = chain[above] {
            built = MipLevels.reduce(from, PixelRect(x: 0, y: 0, width: from.width, height: from.height), levels: level - above)
        } else {
            built = MipLevels.reduce(bitmap, region, levels: level)
        }
        chain[level] = built
        state.chains[region] = chain
        return built
    }
}

/// One region level in a draw's atlas.
@usableFromInline package struct MipAtlasEntry: Hashable, Sendable {
    /// The region's texels in the image (level 0).
    @usableFromInline package var region: PixelRect
    @usableFromInline package var level: Int
    /// Where the level's top-left texel lies in the atlas.
    @usableFromInline package var originX: Int32, originY: Int32
    @usableFromInline package init(region: PixelRect, level: Int, originX: Int32, originY: Int32) {
        self.region = region; self.level = level; self.originX = originX; self.originY = originY
    }
}

/// The distinct region levels a draw samples, laid side by side in one atlas.
@usableFromInline package struct MipAtlasLayout: Hashable, Sendable {
    @usableFromInline package var entries: [MipAtlasEntry]
    @usableFromInline package var width: Int, height: Int
    @usableFromInline package init(entries: [MipAtlasEntry], width: Int, height: Int) { self.entries = entries; self.width = width; self.height = height }
}

extension Bitmap {
    /// The atlas of a draw's mip levels (built once per pixel content and kept with the bitmap).
    @usableFromInline package func mipAtlas(_ layout: MipAtlasLayout) -> Bitmap { mipCache.atlas(layout, of: self) }
}
