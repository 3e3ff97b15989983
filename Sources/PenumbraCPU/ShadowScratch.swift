// ShadowScratch: the Float buffers of a shadow (its alpha plane and the blur's
// intermediate plane), reused across shadows and renders.
//
// Each is a few MiB (a 1024 x 1024 canvas gives planes of about 1100 x 1100).
// Freshly allocated per shadow, they cost more than the work done in them:
// the allocator maps new pages for blocks that large, and faulting a page in
// costs about a microsecond each, or more than a millisecond per plane. Kept
// in a small pool instead, their pages stay mapped. Contents are stale when
// taken: the caster writes every value of its plane and the blur never reads
// its scratch before writing it.
//
// The pool is guarded by a lock, so concurrent renders each get their own
// buffers (new ones when the pool is empty); very large buffers are freed
// instead of kept, as AccumulationScratch does for the rasterizer.

import Foundation

enum ShadowScratch {
    /// The largest buffer worth keeping (4 Mi floats, 16 MiB: a 2048 x 2048 plane), so the pool
    /// holds at most 64 MiB.
    static let retainedLimit = 1 << 22
    /// How many buffers the pool keeps.
    static let retainedCount = 4

    private static let lock = NSLock()
    nonisolated(unsafe) private static var pool: [[Float]] = []

    /// A buffer of exactly `count` values with unspecified contents.
    static func take(count: Int) -> [Float] {
        lock.lock()
        // The smallest kept buffer that is large enough, else the largest (grown below).
        let fitting = pool.indices.filter { pool[$0].capacity >= count }
        let index = fitting.min { pool[$0].capacity < pool[$1].capacity } ?? pool.indices.max { pool[$0].capacity < pool[$1].capacity }
        var buffer = index.map { pool.remove(at: $0) } ?? []
        lock.unlock()
        if buffer.count > count {
            buffer.removeLast(buffer.count - count)
        } else if buffer.count < count {
            buffer.append(contentsOf: repeatElement(0, count: count - buffer.count))
        }
        return buffer
    }

    /// Hands a buffer back for a later `take`.
    static func give(_ buffer: [Float]) {
        guard buffer.capacity <= retainedLimit, buffer.capacity > 0 else { return }
        lock.lock()
        if pool.count < retainedCount { pool.append(buffer) }
        lock.unlock()
    }
}
