// Fixed: the integer primitives of Penumbra's arithmetic (docs/ARITHMETIC.md).
// Every stored value is an 8-bit premultiplied channel, and every formula that
// produces one is written with these few operations on 32-bit integers. Each
// has a GLSL twin of the same name in Shaders/include/fixed.glsl, written from
// the same definition; integer arithmetic is exact in Swift and in GLSL ES 3
// (highp int is 32-bit two's complement, `>>` on a signed value extends the
// sign), so the two renderers cannot disagree by a bit whatever the SIMD width,
// the thread count or the GPU's evaluation order.
//
// Formats:
// - U8: a channel or a coverage, 0...255 (255 is 1).
// - Q12: an un-premultiplied colour channel or a blend term's factor, 0...4096
//   (4096 is 1), signed where an intermediate can leave that range.

import PenumbraModel

/// The integer operations the compositing formulas are written with.
@usableFromInline package enum Fixed {
    /// `round(x / 255)` (halves cannot occur) for 0 <= x <= 65_535 + 127: the product of two
    /// U8 values, or a sum of such products already clamped to 255 x 255.
    /// `(t + (t >> 8)) >> 8` with `t = x + 128` (exact on that range; FixedTests checks
    /// every value against `(x + 127) / 255`).
    @inlinable @inline(__always)
    @usableFromInline package static func div255(_ x: Int32) -> Int32 {
        let t = x &+ 128
        return (t &+ (t &>> 8)) &>> 8
    }

    /// Lane-wise `div255`.
    @inlinable @inline(__always)
    @usableFromInline package static func div255(_ x: SIMD4<Int32>) -> SIMD4<Int32> {
        let t = x &+ 128
        return (t &+ (t &>> 8)) &>> 8
    }

    /// Rounds a Q12 product down to Q12, halves up: `(x + 2048) >> 12` (an arithmetic shift,
    /// so negative values round the same way: floor((x + 2048) / 4096)).
    @inlinable @inline(__always)
    @usableFromInline package static func roundQ12(_ x: Int32) -> Int32 { (x &+ 2048) &>> 12 }

    /// Lane-wise `roundQ12`.
    @inlinable @inline(__always)
    @usableFromInline package static func roundQ12(_ x: SIMD4<Int32>) -> SIMD4<Int32> { (x &+ 2048) &>> 12 }

    /// `a / b` truncated towards zero, for b > 0, written on magnitudes so that it means the
    /// same in GLSL (whose `/` on negative operands is not to be relied on).
    @inlinable @inline(__always)
    @usableFromInline package static func divideTruncating(_ a: Int32, _ b: Int32) -> Int32 {
        a >= 0 ? a / b : -((-a) / b)
    }

    /// `floor(sqrt(n))`, bit by bit (the method every integer square root of this kind uses:
    /// 16 steps of compare and subtract), exact for every 32-bit n.
    @inlinable
    @usableFromInline package static func squareRoot(_ n: UInt32) -> UInt32 {
        var remainder = n, root: UInt32 = 0, bit: UInt32 = 1 << 30
        for _ in 0..<16 {
            if remainder >= root &+ bit {
                remainder &-= root &+ bit
                root = (root >> 1) &+ bit
            } else {
                root >>= 1
            }
            bit >>= 2
        }
        return root
    }

    /// `floor(sqrt(n))` for a 64-bit n, exact: a Double estimate corrected by integer
    /// comparisons (the floor is unique, so any exact method gives these bits; GLSL's
    /// squareRoot64 decides each bit of the root instead).
    @inlinable
    @usableFromInline package static func squareRoot(_ n: UInt64) -> UInt64 {
        var r = UInt64(Double(n).squareRoot())
        while r > 0, r.multipliedReportingOverflow(by: r).overflow || r * r > n { r -= 1 }
        while case let (next, false) = (r + 1).multipliedReportingOverflow(by: r + 1), next <= n { r += 1 }
        return r
    }

    /// A U8 channel of `alpha` un-premultiplied to Q12: `(c x 4096 + a / 2) / a`, at most 4096;
    /// 0 when a is 0.
    @inlinable @inline(__always)
    @usableFromInline package static func unpremultipliedQ12(_ c: Int32, alpha a: Int32) -> Int32 {
        guard a > 0 else { return 0 }
        return Swift.min(4096, (c &* 4096 &+ (a >> 1)) / a)
    }

    /// A value in 0...1 as U8, rounded half up: `floor(v x 255 + 0.5)` in Double, clamped. Used
    /// where shared Swift code (one evaluation, never a GPU's) turns a number given in a scene
    /// (a colour, an alpha) into a stored value.
    @inlinable
    @usableFromInline package static func unit8(_ v: Double) -> UInt8 {
        let x = v * 255 + 0.5
        if !(x > 0) { return 0 }
        if x >= 255 { return 255 }
        return UInt8(x.rounded(.down))
    }
}

extension Color {
    /// The colour premultiplied and stored as U8 lanes (r, g, b, a): each `unit8` of the
    /// premultiplied Double components.
    @usableFromInline package var premultiplied8: SIMD4<UInt8> {
        let p = premultiplied
        return SIMD4(Fixed.unit8(p[0]), Fixed.unit8(p[1]), Fixed.unit8(p[2]), Fixed.unit8(p[3]))
    }
}
