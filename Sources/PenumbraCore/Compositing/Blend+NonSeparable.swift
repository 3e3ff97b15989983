// Blend+NonSeparable: hue, saturation, color and luminosity, the W3C Compositing
// and Blending Level 1 non-separable modes, with Lum, ClipColor, SetLum, Sat and
// SetSat exactly as the spec's pseudo-code gives them, on SIMD4<Float> whose x, y, z
// lanes are red, green, blue (the alpha lane is carried along and ignored).
//
// SetSat is written without sorting: mapping every channel through
// (C - Cmin) * s / (Cmax - Cmin) sends Cmin to 0, Cmax to s and Cmid to the spec's
// ((Cmid - Cmin) * s) / (Cmax - Cmin), which is the spec's result for any ordering
// and for ties. The two divisions of ClipColor are guarded: their denominator is 0
// only for a grey colour, where the spec's expression is 0/0 and the colour is
// already its own luminosity, so it is kept. The blend result is clamped to 0...1
// (ClipColor leaves it there up to rounding) before the premultiplied general form.

extension BlendKernel {
    /// `Lum(C) = 0.3 R + 0.59 G + 0.11 B`.
    @inlinable @inline(__always)
    static func lum(_ c: SIMD4<Float>) -> Float { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }

    /// `Sat(C) = max(R, G, B) - min(R, G, B)`.
    @inlinable @inline(__always)
    static func sat(_ c: SIMD4<Float>) -> Float {
        Swift.max(c.x, c.y, c.z) - Swift.min(c.x, c.y, c.z)
    }

    /// W3C ClipColor:
    /// ```
    /// L = Lum(C); n = min(C); x = max(C)
    /// if n < 0: C = L + (((C - L) * L) / (L - n))
    /// if x > 1: C = L + (((C - L) * (1 - L)) / (x - L))
    /// ```
    @inlinable @inline(__always)
    static func clipColor(_ color: SIMD4<Float>) -> SIMD4<Float> {
        var c = color
        let l = lum(c)
        let n = Swift.min(c.x, c.y, c.z)
        let x = Swift.max(c.x, c.y, c.z)
        if n < 0, l - n > 0 {
            c = l + ((c - l) * l) / (l - n)
        }
        if x > 1, x - l > 0 {
            c = l + ((c - l) * (1 - l)) / (x - l)
        }
        return c
    }

    /// W3C SetLum: `d = l - Lum(C); C = C + d; return ClipColor(C)`.
    @inlinable @inline(__always)
    static func setLum(_ c: SIMD4<Float>, _ l: Float) -> SIMD4<Float> {
        clipColor(c + (l - lum(c)))
    }

    /// W3C SetSat: `if Cmax > Cmin: Cmid = ((Cmid - Cmin) * s) / (Cmax - Cmin); Cmax = s
    /// else: Cmid = Cmax = 0`; `Cmin = 0`.
    @inlinable @inline(__always)
    static func setSat(_ c: SIMD4<Float>, _ s: Float) -> SIMD4<Float> {
        let cMax = Swift.max(c.x, c.y, c.z)
        let cMin = Swift.min(c.x, c.y, c.z)
        guard cMax > cMin else { return .zero }
        return ((c - cMin) * s) / (cMax - cMin)
    }

    /// The premultiplied general form with a non-separable blend result.
    @inlinable @inline(__always)
    static func nonSeparable(_ s: SIMD4<Float>, _ d: SIMD4<Float>, blended b: SIMD4<Float>) -> SIMD4<Float> {
        general(s, d, blended: clamp(b, lower: .zero, upper: SIMD4(repeating: 1)))
    }

    /// `B(Cb, Cs) = SetLum(SetSat(Cs, Sat(Cb)), Lum(Cb))`.
    @inlinable @inline(__always)
    static func hue(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        let cs = unpremultiplied(s), cb = unpremultiplied(d)
        return nonSeparable(s, d, blended: setLum(setSat(cs, sat(cb)), lum(cb)))
    }

    /// `B(Cb, Cs) = SetLum(SetSat(Cb, Sat(Cs)), Lum(Cb))`.
    @inlinable @inline(__always)
    static func saturation(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        let cs = unpremultiplied(s), cb = unpremultiplied(d)
        return nonSeparable(s, d, blended: setLum(setSat(cb, sat(cs)), lum(cb)))
    }

    /// `B(Cb, Cs) = SetLum(Cs, Lum(Cb))`.
    @inlinable @inline(__always)
    static func color(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        let cs = unpremultiplied(s), cb = unpremultiplied(d)
        return nonSeparable(s, d, blended: setLum(cs, lum(cb)))
    }

    /// `B(Cb, Cs) = SetLum(Cb, Lum(Cs))`.
    @inlinable @inline(__always)
    static func luminosity(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        let cs = unpremultiplied(s), cb = unpremultiplied(d)
        return nonSeparable(s, d, blended: setLum(cb, lum(cs)))
    }
}
