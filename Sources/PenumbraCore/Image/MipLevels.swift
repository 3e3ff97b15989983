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
public enum MipLevels {
    /// The level for a device-to-image Jacobian determinant `d` (image pixels² per device pixel²):
    /// the largest k in 0...maxLevel with |d| >= 4^k (0 for NaN).
    public static func level(jacobianDeterminant d: Double, maxLevel: Int) -> Int {
        let magnitude = abs(d)
        var level = 0
        while level < maxLevel, magnitude >= Double(sign: .plus, exponent: 2 * (level + 1), significand: 1) { level += 1 }
        return level
    }

    /// The first level at which an image of `width` x `height` is 1 x 1 (0 for a single pixel).
    public static func maxLevel(width: Int, height: Int) -> Int {
        var level = 0, w = max(1, width), h = max(1, height)
        while w > 1 || h > 1 { w = (w + 1) / 2; h = (h + 1) / 2; level += 1 }
        return level
    }

    /// `ceil(n / 2^level)`: an axis of n pixels at that level.
    @inlinable public static func size(_ n: Int, level: Int) -> Int {
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
    public static func reduce(_ source: Bitmap, _ rect: PixelRect) -> Bitmap {
        let w = rect.width, h = rect.height
        let ow = (w + 1) / 2, oh = (h + 1) / 2
        guard w > 0, h > 0 else { return Bitmap(width: 0, height: 0) }
        // Every byte is written below, so the array starts uninitialised (no 12 MB memset for a
        // 4000 x 3000 image's first level).
        let out = [UInt8](unsafeUninitializedCapacity: ow * oh * 4) { buffer, count in
            source.pixels.withUnsafeBytes { src in
                let dst = UnsafeMutableRawPointer(buffer.baseAddress!)
                LargeBuffers.adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
                let stride = source.width * 4
                func rows(_ range: Range<Int>) {
                    for j in range {
                        let top = src.baseAddress! + (rect.y + 2 * j) * stride + rect.x * 4
                        let bottom = 2 * j + 1 < h ? top + stride : top
                        reduceRow(top, bottom, dst + j * ow * 4, width: w)
                    }
                }
                // Output rows are independent: large levels are cut into bands, one per thread
                // (the same bytes for any thread count).
                let bands = min(Parallelism.maxThreads, oh, ow * oh / (64 * 1024))
                if bands > 1 {
                    DispatchQueue.concurrentPerform(iterations: bands) { b in rows(oh * b / bands..<oh * (b + 1) / bands) }
                } else {
                    rows(0..<oh)
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
