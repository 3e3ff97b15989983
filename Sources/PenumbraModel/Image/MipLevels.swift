// MipLevels: the mip chain of `interpolation: high` / `default` (SCENE_FORMAT.md,
// "Drawing images: placement and sampling"; docs/ARITHMETIC.md, "Mipmaps").
//
// Level 0 is the image (or one nine-slice region of it); each next level halves
// the one above, sizes rounded up, each pixel the round-half-up average of the
// 2 x 2 premultiplied pixels above it, edge pixels repeated where the size is
// odd: per channel `(a + b + c + d + 2) >> 2`. The average of premultiplied
// pixels is premultiplied again (colour <= alpha survives the sum and the
// monotone rounding), so levels are ordinary Bitmaps. A level is
// `ceil(n / 2^L)` pixels along an axis of n.
//
// The level choice is made once in Core from the plan's Double steps (the
// device-to-image Jacobian of a region, determinant D = 1 / |det| of the
// image-to-device map): L = max(0, floor(log2(1 / s))) with s = sqrt(|det|) is
// the largest k >= 0 with D >= 4^k. 4^k is a power of two, so each comparison
// is exact on the Double D; levels past the one where the region is 1 x 1 are
// that same pixel, so L is clamped there.
//
// The reduction runs two source rows at a time over 64-bit words holding two
// pixels: the even bytes (R, B) and the odd bytes (G, A) are spread into 16-bit
// lanes, so a word sums two pixels' channels without carries (4 x 255 < 2^16),
// four words at a time in SIMD lanes. The bytes are read as little-endian words
// (every platform Swift runs Penumbra on).

import Dispatch

/// The mip level rule and the 2 x 2 reduction.
@usableFromInline package enum MipLevels {
    /// The level for a device-to-image Jacobian determinant `d` (image pixels² per device pixel²):
    /// the largest k in 0...maxLevel with |d| >= 4^k (0 for NaN).
    @usableFromInline package static func level(jacobianDeterminant d: Double, maxLevel: Int) -> Int {
        let magnitude = abs(d)
        var level = 0
        while level < maxLevel, magnitude >= Double(sign: .plus, exponent: 2 * (level + 1), significand: 1) { level += 1 }
        return level
    }

    /// The first level at which an image of `width` x `height` is 1 x 1 (0 for a single pixel).
    @usableFromInline package static func maxLevel(width: Int, height: Int) -> Int {
        var level = 0, w = max(1, width), h = max(1, height)
        while w > 1 || h > 1 { w = (w + 1) / 2; h = (h + 1) / 2; level += 1 }
        return level
    }

    /// `ceil(n / 2^level)`: an axis of n pixels at that level.
    @inlinable package static func size(_ n: Int, level: Int) -> Int {
        level == 0 ? n : ((n - 1) >> level) + 1
    }

    /// Per lane, two horizontally adjacent pixels of the top row and of the bottom row (a 64-bit
    /// little-endian word each) to their round-half-up average, R G B A in the low 32 bits. The
    /// 16-bit lanes of `even` hold R0 B0 R1 B1 and those of `odd` G0 A0 G1 A1, top plus bottom;
    /// adding the upper half to the lower sums left and right (at most 4 x 255 + 2 < 2^10).
    @inline(__always)
    static func average(_ t: SIMD4<UInt64>, _ b: SIMD4<UInt64>) -> SIMD4<UInt64> {
        let spread = SIMD4<UInt64>(repeating: 0x00FF_00FF_00FF_00FF)
        let even = (t & spread) &+ (b & spread)
        let odd = ((t &>> 8) & spread) &+ ((b &>> 8) & spread)
        let two = SIMD4<UInt64>(repeating: 0x0002_0002), low = SIMD4<UInt64>(repeating: 0x00FF_00FF)
        let rb = ((even &+ (even &>> 32) &+ two) &>> 2) & low
        let ga = ((odd &+ (odd &>> 32) &+ two) &>> 2) & low
        return rb | (ga &<< 8)
    }

    /// The next level of the `rect` texels of `source`: ceil(w / 2) x ceil(h / 2), each pixel the
    /// round-half-up average of its 2 x 2 block, the last column or row repeated when odd.
    @usableFromInline package static func reduce(_ source: Bitmap, _ rect: PixelRect) -> Bitmap { reduce(source, rect, levels: 1) }

    /// The level `levels` (>= 1) below the `rect` texels of `source`, exactly as `levels`
    /// successive ``reduce(_:_:)`` calls, without keeping the levels in between: each strip of
    /// output rows is computed from its 2^levels source rows through small per-level scratch
    /// rows (a 4000 x 3000 photo's level 3 no longer allocates 15 MB of levels 1 and 2).
    /// Output rows are independent: large outputs are cut into bands, one per thread (the same
    /// bytes for any thread count).
    @usableFromInline package static func reduce(_ source: Bitmap, _ rect: PixelRect, levels k: Int) -> Bitmap {
        precondition(k >= 1)
        guard rect.width > 0, rect.height > 0 else { return Bitmap(width: 0, height: 0) }
        let widths = (0...k).map { size(rect.width, level: $0) }, heights = (0...k).map { size(rect.height, level: $0) }
        let ow = widths[k], oh = heights[k]
        let out = [UInt8](unsafeUninitializedCapacity: ow * oh * 4) { buffer, count in
            let dst = UnsafeMutableRawPointer(buffer.baseAddress!)
            LargeBuffers.adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
            source.pixels.withUnsafeBytes { src in
                let stride = source.width * 4
                let origin = UnsafeRawPointer(src.baseAddress!) + rect.y * stride + rect.x * 4
                // Per worker, one scratch allocation: 2^(k - m) rows of level m at offsets[m] (0 < m < k).
                var offsets = [Int](repeating: 0, count: k + 1)
                for m in 1..<k { offsets[m + 1] = offsets[m] + (1 << (k - m)) * widths[m] * 4 }
                let scratchBytes = max(1, offsets[k])
                func strips(_ range: Range<Int>) {
                    let scratch = UnsafeMutableRawPointer.allocate(byteCount: scratchBytes, alignment: 16)
                    defer { scratch.deallocate() }
                    for j in range {
                        for m in 1...k {
                            let first = j << (k - m), below = j << (k - m + 1)
                            for i in 0..<(1 << (k - m)) {
                                let r = min(first + i, heights[m] - 1)
                                let a = 2 * r, b = min(2 * r + 1, heights[m - 1] - 1)
                                // Level m - 1's rows: the source's, or this strip's scratch rows from `below` on.
                                func row(_ x: Int) -> UnsafeRawPointer {
                                    m == 1 ? origin + x * stride : UnsafeRawPointer(scratch + offsets[m - 1] + (x - below) * widths[m - 1] * 4)
                                }
                                let target = m == k ? dst + j * ow * 4 : scratch + offsets[m] + i * widths[m] * 4
                                reduceRow(row(a), row(b), target, width: widths[m - 1])
                            }
                        }
                    }
                }
                let bands = min(Parallelism.maxThreads, oh, rect.width * rect.height / (256 * 1024))
                if bands > 1 {
                    let work = DisjointWrites(strips)
                    DispatchQueue.concurrentPerform(iterations: bands) { b in work.value(oh * b / bands..<oh * (b + 1) / bands) }
                } else {
                    strips(0..<oh)
                }
            }
            count = ow * oh * 4
        }
        return Bitmap(width: ow, height: oh, pixels: out)
    }

    /// One output row from two source rows of `width` pixels.
    @inline(__always)
    static func reduceRow(_ top: UnsafeRawPointer, _ bottom: UnsafeRawPointer, _ out: UnsafeMutableRawPointer, width: Int) {
        let pairs = width / 2
        var i = 0
        // Four output pixels at a time (the same word arithmetic in four lanes, which the compiler
        // vectorises), then one at a time.
        while i + 4 <= pairs {
            let t = top.loadUnaligned(fromByteOffset: i * 8, as: SIMD4<UInt64>.self)
            let b = bottom.loadUnaligned(fromByteOffset: i * 8, as: SIMD4<UInt64>.self)
            let packed = average(t, b)
            out.storeBytes(of: SIMD4<UInt32>(truncatingIfNeeded: packed), toByteOffset: i * 4, as: SIMD4<UInt32>.self)
            i += 4
        }
        while i < pairs {
            let t = SIMD4<UInt64>(repeating: top.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
            let b = SIMD4<UInt64>(repeating: bottom.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
            out.storeBytes(of: UInt32(truncatingIfNeeded: average(t, b)[0]), toByteOffset: i * 4, as: UInt32.self)
            i += 1
        }
        if width & 1 == 1 {
            // The last column repeated: (2 top + 2 bottom + 2) >> 2.
            let o = (width - 1) * 4
            for c in 0..<4 {
                let s = 2 * Int(top.load(fromByteOffset: o + c, as: UInt8.self)) + 2 * Int(bottom.load(fromByteOffset: o + c, as: UInt8.self))
                out.storeBytes(of: UInt8((s + 2) >> 2), toByteOffset: pairs * 4 + c, as: UInt8.self)
            }
        }
    }
}
