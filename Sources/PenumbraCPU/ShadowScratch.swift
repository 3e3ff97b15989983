// ShadowScratch: the buffers of a shadow (its U8 alpha plane and the blur's
// UInt32 intermediate plane), reused across shadows and renders.
//
// Each is a few MiB (a 1024 x 1024 canvas gives planes of about 1100 x 1100).
// Freshly allocated per shadow, they cost more than the work done in them:
// the allocator maps new pages for blocks that large, and faulting a page in
// costs about a microsecond each, or more than a millisecond per plane. Kept
// in a small pool instead, their pages stay mapped. Contents are stale when
// taken: the caster writes every value of its plane and the blur never reads
// its scratch before writing it.
//
// Each pool is behind a Mutex, so concurrent renders each get their own
// buffers (new ones when the pool is empty); very large buffers are freed
// instead of kept, as AccumulationScratch does for the rasterizer.

import Synchronization

/// A small pool of arrays of one element type.
final class ScratchPool<Element: BitwiseCopyable & Sendable & ExpressibleByIntegerLiteral>: Sendable {
    /// The largest buffer worth keeping, in bytes (16 MiB), so a pool holds at most 64 MiB.
    static var retainedBytes: Int { 1 << 24 }
    /// How many buffers the pool keeps.
    static var retainedCount: Int { 4 }

    private let pool = Mutex<[[Element]]>([])

    /// A buffer of exactly `count` values with unspecified contents.
    func take(count: Int) -> [Element] {
        var buffer: [Element] = pool.withLock { pool in
            // The smallest kept buffer that is large enough, else the largest (grown below).
            let fitting = pool.indices.filter { pool[$0].capacity >= count }
            let index = fitting.min { pool[$0].capacity < pool[$1].capacity }
                ?? pool.indices.max { pool[$0].capacity < pool[$1].capacity }
            return index.map { pool.remove(at: $0) } ?? []
        }
        if buffer.count > count {
            buffer.removeLast(buffer.count - count)
        } else if buffer.count < count {
            buffer.append(contentsOf: repeatElement(0, count: count - buffer.count))
        }
        return buffer
    }

    /// Hands a buffer back for a later `take`.
    func give(_ buffer: [Element]) {
        guard buffer.capacity * MemoryLayout<Element>.stride <= Self.retainedBytes, buffer.capacity > 0 else { return }
        pool.withLock { pool in if pool.count < Self.retainedCount { pool.append(buffer) } }
    }
}

enum ShadowScratch {
    /// Alpha planes.
    static let planes = ScratchPool<UInt8>()
}
