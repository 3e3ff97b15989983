// Blend+NonSeparable: hue, saturation, color and luminosity, the W3C Compositing
// and Blending Level 1 non-separable modes, with Lum, ClipColor, SetLum, Sat and
// SetSat as the spec's pseudo-code gives them, in Q12 integers on the x, y, z
// lanes (red, green, blue) of un-premultiplied colours (docs/ARITHMETIC.md):
//   Lum(C) = (19661 R + 38666 G + 7209 B + 32768) >> 16 (the weights 0.3, 0.59,
//   0.11 in 65536ths, 19660.8, 38666.24 and 7208.96 rounded, summing to 65536);
//   ClipColor's and SetSat's quotients are divisions truncated towards zero.
// SetSat maps every channel through (C - Cmin) s / (Cmax - Cmin), which sends
// Cmin to 0, Cmax to s and Cmid to the spec's value for any order and for ties.
// The two divisions of ClipColor are guarded: their denominator is 0 only for
// a grey colour, which is already its own luminosity and is kept.

import PenumbraModel
import PenumbraCore

extension BlendKernel {
    @inlinable @inline(__always)
    static func lum(_ c: SIMD4<Int32>) -> Int32 { (19661 &* c.x &+ 38666 &* c.y &+ 7209 &* c.z &+ 32768) &>> 16 }

    @inlinable @inline(__always)
    static func sat(_ c: SIMD4<Int32>) -> Int32 { Swift.max(c.x, c.y, c.z) &- Swift.min(c.x, c.y, c.z) }

    /// W3C ClipColor in Q12: `if n < 0: C = L + (C - L) L / (L - n)`;
    /// `if x > 1: C = L + (C - L)(1 - L) / (x - L)`.
    @inlinable @inline(__always)
    static func clipColor(_ color: SIMD4<Int32>) -> SIMD4<Int32> {
        var c = color
        let l = lum(c)
        let n = Swift.min(c.x, c.y, c.z)
        let x = Swift.max(c.x, c.y, c.z)
        if n < 0, l - n > 0 {
            for i in 0..<3 { c[i] = l &+ Fixed.divideTruncating((c[i] &- l) &* l, l &- n) }
        }
        if x > 4096, x - l > 0 {
            for i in 0..<3 { c[i] = l &+ Fixed.divideTruncating((c[i] &- l) &* (4096 &- l), x &- l) }
        }
        return c
    }

    /// W3C SetLum: `C + (l - Lum(C))`, then ClipColor.
    @inlinable @inline(__always)
    static func setLum(_ c: SIMD4<Int32>, _ l: Int32) -> SIMD4<Int32> {
        clipColor(c &+ SIMD4(repeating: l &- lum(c)))
    }

    /// W3C SetSat: `(C - Cmin) s / (Cmax - Cmin)` (floor; all terms non-negative), 0 for grey.
    @inlinable @inline(__always)
    static func setSat(_ c: SIMD4<Int32>, _ s: Int32) -> SIMD4<Int32> {
        let cMax = Swift.max(c.x, c.y, c.z), cMin = Swift.min(c.x, c.y, c.z)
        guard cMax > cMin else { return .zero }
        let range = cMax &- cMin
        return SIMD4(((c.x &- cMin) &* s) / range, ((c.y &- cMin) &* s) / range, ((c.z &- cMin) &* s) / range, 0)
    }

    /// The un-premultiplied Q12 colour of a U8 premultiplied pixel (alpha lane 0).
    @inlinable @inline(__always)
    static func unpremultipliedQ12(_ p: SIMD4<Int32>) -> SIMD4<Int32> {
        SIMD4(Fixed.unpremultipliedQ12(p.x, alpha: p.w), Fixed.unpremultipliedQ12(p.y, alpha: p.w),
              Fixed.unpremultipliedQ12(p.z, alpha: p.w), 0)
    }

    /// `B = SetLum(SetSat(Cs, Sat(Cb)), Lum(Cb))`.
    @inlinable @inline(__always)
    static func hue(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        let cs = unpremultipliedQ12(s), cb = unpremultipliedQ12(d)
        return general(s, d, blendedQ12: setLum(setSat(cs, sat(cb)), lum(cb)))
    }

    /// `B = SetLum(SetSat(Cb, Sat(Cs)), Lum(Cb))`.
    @inlinable @inline(__always)
    static func saturation(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        let cs = unpremultipliedQ12(s), cb = unpremultipliedQ12(d)
        return general(s, d, blendedQ12: setLum(setSat(cb, sat(cs)), lum(cb)))
    }

    /// `B = SetLum(Cs, Lum(Cb))`.
    @inlinable @inline(__always)
    static func color(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        let cs = unpremultipliedQ12(s), cb = unpremultipliedQ12(d)
        return general(s, d, blendedQ12: setLum(cs, lum(cb)))
    }

    /// `B = SetLum(Cb, Lum(Cs))`.
    @inlinable @inline(__always)
    static func luminosity(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        let cs = unpremultipliedQ12(s), cb = unpremultipliedQ12(d)
        return general(s, d, blendedQ12: setLum(cb, lum(cs)))
    }
}
