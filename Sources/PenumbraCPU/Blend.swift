// Blend: the 28 blend modes of the scene format on 8-bit premultiplied values,
// in exact integer arithmetic (docs/ARITHMETIC.md, "Blending"). The CPU
// renderer calls it a row at a time (Blend+Row.swift); Shaders/include/
// blend.glsl is its twin, formula for formula, so both renderers store the
// same bytes by construction.
//
// Values are U8 lanes in SIMD4<Int32> (r, g, b, a), premultiplied (c <= a).
// Every separable mode is the W3C Compositing and Blending Level 1 general form
// multiplied out by 255 x 255,
//     N = cs (255 - ab) + cb (255 - as) + T,   result = div255(N),
// where T is "as ab B(Cs, Cb)" in units of 1/255: the alpha lane's T is as ab,
// which makes the same expression give ao = as + ab - as ab / 255. Where
// as ab B has a closed premultiplied form (multiply, screen, overlay,
// hardLight, darken, lighten, difference, exclusion) T is that product of
// bytes. colorDodge and colorBurn divide once, exactly (floor), by a byte
// difference; softLight and the non-separable modes (Blend+NonSeparable.swift)
// un-premultiply to Q12 and compute B in Q12, then T = roundQ12(as ab B). The
// Porter-Duff modes are div255 of their (Fa, Fb) sums; plusLighter and
// plusDarker are the scene format's formulas on bytes.
//
// Every N is clamped to 0...255 x 255 before div255 and every result to a valid
// premultiplied colour (alpha 0...255, colour 0...alpha). For valid inputs the
// formulas stay inside those ranges except by the floor of a division, so the
// clamps only make the result well-defined.

import PenumbraModel
import PenumbraCore

extension BlendMode {
    /// The result of compositing premultiplied U8 `source` over premultiplied U8
    /// `destination` with full coverage, by this mode's formula (docs/ARITHMETIC.md).
    ///
    /// SCENE_FORMAT.md: "Formulas are those of the W3C Compositing and Blending Level 1
    /// specification for the separable and non-separable modes, and Porter-Duff for the
    /// rest." `plusLighter` is `co = min(1, cs + cb)`, `αo = min(1, αs + αb)`; `plusDarker` is
    /// `αo = min(1, αs + αb)`, `co = max(0, αo - ((αs - cs) + (αb - cb)))`.
    ///
    /// Inputs are valid premultiplied colours (lanes 0...255, colour <= alpha); so is the result.
    @inlinable
    package func blend(source s: SIMD4<Int32>, destination d: SIMD4<Int32>) -> SIMD4<Int32> {
        let r: SIMD4<Int32>
        switch self {
        case .normal: r = BlendKernel.normal(s, d)
        case .multiply: r = BlendKernel.multiply(s, d)
        case .screen: r = BlendKernel.screen(s, d)
        case .overlay: r = BlendKernel.overlay(s, d)
        case .darken: r = BlendKernel.darken(s, d)
        case .lighten: r = BlendKernel.lighten(s, d)
        case .colorDodge: r = BlendKernel.colorDodge(s, d)
        case .colorBurn: r = BlendKernel.colorBurn(s, d)
        case .softLight: r = BlendKernel.softLight(s, d)
        case .hardLight: r = BlendKernel.hardLight(s, d)
        case .difference: r = BlendKernel.difference(s, d)
        case .exclusion: r = BlendKernel.exclusion(s, d)
        case .hue: r = BlendKernel.hue(s, d)
        case .saturation: r = BlendKernel.saturation(s, d)
        case .color: r = BlendKernel.color(s, d)
        case .luminosity: r = BlendKernel.luminosity(s, d)
        case .clear: r = BlendKernel.clear(s, d)
        case .copy: r = BlendKernel.copy(s, d)
        case .sourceIn: r = BlendKernel.sourceIn(s, d)
        case .sourceOut: r = BlendKernel.sourceOut(s, d)
        case .sourceAtop: r = BlendKernel.sourceAtop(s, d)
        case .destinationOver: r = BlendKernel.destinationOver(s, d)
        case .destinationIn: r = BlendKernel.destinationIn(s, d)
        case .destinationOut: r = BlendKernel.destinationOut(s, d)
        case .destinationAtop: r = BlendKernel.destinationAtop(s, d)
        case .xor: r = BlendKernel.xor(s, d)
        case .plusDarker: r = BlendKernel.plusDarker(s, d)
        case .plusLighter: r = BlendKernel.plusLighter(s, d)
        }
        return BlendKernel.validPremultiplied(r)
    }

    /// True for the modes that are the identity where the source is transparent (a
    /// renderer may skip pixels with zero source alpha for them), false for `clear`,
    /// `copy`, `sourceIn`, `sourceOut`, `destinationIn` and `destinationAtop`, which
    /// change the destination where the source is transparent.
    package var preservesDestinationWhereSourceIsClear: Bool {
        switch self {
        case .clear, .copy, .sourceIn, .sourceOut, .destinationIn, .destinationAtop: return false
        default: return true
        }
    }
}

/// The composite of the scene format, "result = dst + coverage * (blend(src, dst) - dst)",
/// on U8 values: `div255(dst (255 - t) + blend t)` per channel, t the U8 coverage.
/// Coverage 0 returns `destination`, coverage 255 `mode.blend(source:destination:)`.
@inlinable
package func composite(source: SIMD4<Int32>, destination: SIMD4<Int32>, coverage t: Int32,
                      mode: BlendMode) -> SIMD4<Int32> {
    if t <= 0 { return destination }
    let blended = mode.blend(source: source, destination: destination)
    if t >= 255 { return blended }
    return BlendKernel.mix(destination, blended, t)
}

/// The per-mode formulas, before the final clamp. `@usableFromInline` so that `blend`
/// inlines into the renderers' loops.
@usableFromInline
enum BlendKernel {
    @usableFromInline static let full: Int32 = 255 * 255

    /// Alpha clamped to 0...255 and colour to 0...alpha.
    @inlinable @inline(__always)
    static func validPremultiplied(_ c: SIMD4<Int32>) -> SIMD4<Int32> {
        let alpha = Swift.min(Swift.max(c.w, 0), 255)
        return clamp(c, lower: .zero, upper: SIMD4(repeating: alpha))
    }

    /// `div255(dst (255 - t) + src t)`: the bounded composite's mix, t in 0...255.
    @inlinable @inline(__always)
    static func mix(_ d: SIMD4<Int32>, _ b: SIMD4<Int32>, _ t: Int32) -> SIMD4<Int32> {
        Fixed.div255(d &* (255 &- t) &+ b &* t)
    }

    // Lane-wise min, max and clamp written on scalars: the standard library's generic
    // `pointwiseMin` and `pointwiseMax` are not inlined.

    @inlinable @inline(__always)
    static func minimum(_ a: SIMD4<Int32>, _ b: SIMD4<Int32>) -> SIMD4<Int32> {
        SIMD4(Swift.min(a.x, b.x), Swift.min(a.y, b.y), Swift.min(a.z, b.z), Swift.min(a.w, b.w))
    }

    @inlinable @inline(__always)
    static func maximum(_ a: SIMD4<Int32>, _ b: SIMD4<Int32>) -> SIMD4<Int32> {
        SIMD4(Swift.max(a.x, b.x), Swift.max(a.y, b.y), Swift.max(a.z, b.z), Swift.max(a.w, b.w))
    }

    @inlinable @inline(__always)
    static func clamp(_ v: SIMD4<Int32>, lower: SIMD4<Int32>, upper: SIMD4<Int32>) -> SIMD4<Int32> {
        minimum(maximum(v, lower), upper)
    }

    /// `div255` of a numerator clamped to 0...255 x 255.
    @inlinable @inline(__always)
    static func store(_ n: SIMD4<Int32>) -> SIMD4<Int32> {
        Fixed.div255(clamp(n, lower: .zero, upper: SIMD4(repeating: full)))
    }

    /// The W3C general form `cs (255 - ab) + cb (255 - as) + T`, T's alpha lane being as ab.
    @inlinable @inline(__always)
    static func general(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>, term: SIMD4<Int32>) -> SIMD4<Int32> {
        store(s &* (255 &- d.w) &+ d &* (255 &- s.w) &+ term)
    }

    /// The general form with B in Q12 (its alpha lane ignored): T = roundQ12(as ab B).
    @inlinable @inline(__always)
    static func general(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>, blendedQ12 b: SIMD4<Int32>) -> SIMD4<Int32> {
        let both = s.w &* d.w
        var term = Fixed.roundQ12(clamp(b, lower: .zero, upper: SIMD4(repeating: 4096)) &* both)
        term.w = both
        return general(s, d, term: term)
    }

    // MARK: Separable modes (W3C), premultiplied

    /// Source-over: `255 cs + cb (255 - as)`.
    @inlinable @inline(__always)
    static func normal(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        store(s &* 255 &+ d &* (255 &- s.w))
    }

    /// T = cs cb.
    @inlinable @inline(__always)
    static func multiply(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> { general(s, d, term: s &* d) }

    /// `255 (cs + cb) - cs cb` (alpha lane included).
    @inlinable @inline(__always)
    static func screen(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        store((s &+ d) &* 255 &- s &* d)
    }

    /// HardLight with the roles swapped: 2 cb <= ab gives T = 2 cs cb, else
    /// as ab - 2 (ab - cb)(as - cs). The alpha lane comes out as as ab.
    @inlinable @inline(__always)
    static func overlay(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        let multiplied = 2 &* s &* d
        let screened = SIMD4(repeating: s.w &* d.w) &- 2 &* (SIMD4(repeating: d.w) &- d) &* (SIMD4(repeating: s.w) &- s)
        return general(s, d, term: screened.replacing(with: multiplied, where: 2 &* d .<= SIMD4(repeating: d.w)))
    }

    /// 2 cs <= as: T = 2 cs cb; else as ab - 2 (ab - cb)(as - cs).
    @inlinable @inline(__always)
    static func hardLight(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        let multiplied = 2 &* s &* d
        let screened = SIMD4(repeating: s.w &* d.w) &- 2 &* (SIMD4(repeating: d.w) &- d) &* (SIMD4(repeating: s.w) &- s)
        return general(s, d, term: screened.replacing(with: multiplied, where: 2 &* s .<= SIMD4(repeating: s.w)))
    }

    /// T = min(cs ab, cb as).
    @inlinable @inline(__always)
    static func darken(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        general(s, d, term: minimum(s &* d.w, d &* s.w))
    }

    /// T = max(cs ab, cb as).
    @inlinable @inline(__always)
    static func lighten(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        general(s, d, term: maximum(s &* d.w, d &* s.w))
    }

    /// W3C `if Cb == 0: 0; elif Cs == 1: 1; else min(1, Cb / (1 - Cs))`, times as ab:
    /// T = 0, as ab, or min(as ab, floor(as^2 cb / (as - cs))).
    @inlinable @inline(__always)
    static func colorDodge(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        let both = s.w &* d.w
        var term = SIMD4<Int32>(repeating: both)
        for i in 0..<3 { term[i] = dodgeTerm(s[i], d[i], s.w, both) }
        return general(s, d, term: term)
    }

    @inlinable @inline(__always)
    static func dodgeTerm(_ cs: Int32, _ cb: Int32, _ sa: Int32, _ both: Int32) -> Int32 {
        if cb == 0 { return 0 }
        if cs >= sa { return both }
        return Swift.min(both, (sa &* sa &* cb) / (sa &- cs))
    }

    /// W3C `if Cb == 1: 1; elif Cs == 0: 0; else 1 - min(1, (1 - Cb) / Cs)`, times as ab:
    /// T = as ab, 0, or as ab - min(as ab, floor(as^2 (ab - cb) / cs)).
    @inlinable @inline(__always)
    static func colorBurn(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        let both = s.w &* d.w
        var term = SIMD4<Int32>(repeating: both)
        for i in 0..<3 { term[i] = burnTerm(s[i], d[i], s.w, d.w, both) }
        return general(s, d, term: term)
    }

    @inlinable @inline(__always)
    static func burnTerm(_ cs: Int32, _ cb: Int32, _ sa: Int32, _ da: Int32, _ both: Int32) -> Int32 {
        if cb >= da { return both }
        if cs == 0 { return 0 }
        return both &- Swift.min(both, (sa &* sa &* (da &- cb)) / cs)
    }

    /// W3C softLight in Q12 on un-premultiplied channels:
    /// Cs <= 1/2: B = Cb - (1 - 2 Cs) Cb (1 - Cb); else B = Cb + (2 Cs - 1)(D(Cb) - Cb), with
    /// D(Cb) = ((16 Cb - 12) Cb + 4) Cb for Cb <= 1/4, else sqrt(Cb) (an integer square root).
    @inlinable @inline(__always)
    static func softLight(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        var b = SIMD4<Int32>.zero
        for i in 0..<3 {
            b[i] = softLightQ12(Fixed.unpremultipliedQ12(s[i], alpha: s.w), Fixed.unpremultipliedQ12(d[i], alpha: d.w))
        }
        return general(s, d, blendedQ12: b)
    }

    @inlinable @inline(__always)
    static func softLightQ12(_ cs: Int32, _ cb: Int32) -> Int32 {
        if 2 &* cs <= 4096 {
            return cb &- Fixed.roundQ12((4096 &- 2 &* cs) &* Fixed.roundQ12(cb &* (4096 &- cb)))
        }
        let dOfCb: Int32
        if cb <= 1024 {
            let q = Fixed.roundQ12((16 &* cb &- 12 &* 4096) &* cb) &+ 4 &* 4096
            dOfCb = Fixed.roundQ12(q &* cb)
        } else {
            dOfCb = Int32(Fixed.squareRoot(UInt32(cb) << 12))
        }
        return cb &+ Fixed.roundQ12((2 &* cs &- 4096) &* (dOfCb &- cb))
    }

    /// B = |Cs - Cb|: `255 (cs + cb) - 2 min(cs ab, cb as)`; alpha by the general form.
    @inlinable @inline(__always)
    static func difference(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        var n = (s &+ d) &* 255 &- 2 &* minimum(s &* d.w, d &* s.w)
        n.w = (s.w &+ d.w) &* 255 &- s.w &* d.w
        return store(n)
    }

    /// B = Cs + Cb - 2 Cs Cb: `255 (cs + cb) - 2 cs cb`; alpha by the general form.
    @inlinable @inline(__always)
    static func exclusion(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        var n = (s &+ d) &* 255 &- 2 &* s &* d
        n.w = (s.w &+ d.w) &* 255 &- s.w &* d.w
        return store(n)
    }

    // MARK: Porter-Duff, premultiplied: result = div255(s Fa + d Fb), factors in U8

    @inlinable @inline(__always)
    static func clear(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> { .zero }
    @inlinable @inline(__always)
    static func copy(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> { s }
    @inlinable @inline(__always)
    static func sourceIn(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> { store(s &* d.w) }
    @inlinable @inline(__always)
    static func sourceOut(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> { store(s &* (255 &- d.w)) }
    @inlinable @inline(__always)
    static func sourceAtop(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        store(s &* d.w &+ d &* (255 &- s.w))
    }
    @inlinable @inline(__always)
    static func destinationOver(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        store(s &* (255 &- d.w) &+ d &* 255)
    }
    @inlinable @inline(__always)
    static func destinationIn(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> { store(d &* s.w) }
    @inlinable @inline(__always)
    static func destinationOut(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> { store(d &* (255 &- s.w)) }
    @inlinable @inline(__always)
    static func destinationAtop(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        store(s &* (255 &- d.w) &+ d &* s.w)
    }
    @inlinable @inline(__always)
    static func xor(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        store(s &* (255 &- d.w) &+ d &* (255 &- s.w))
    }

    // MARK: Plus modes (SCENE_FORMAT.md)

    /// `min(255, cs + cb)` on every lane.
    @inlinable @inline(__always)
    static func plusLighter(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        minimum(s &+ d, SIMD4(repeating: 255))
    }

    /// `ao = min(255, as + ab)`, `co = max(0, ao - ((as - cs) + (ab - cb)))`; on the alpha lane
    /// the subtracted sum is 0.
    @inlinable @inline(__always)
    static func plusDarker(_ s: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
        let alpha = Swift.min(255, s.w &+ d.w)
        let darkness = (SIMD4(repeating: s.w) &- s) &+ (SIMD4(repeating: d.w) &- d)
        return maximum(SIMD4(repeating: alpha) &- darkness, .zero)
    }
}
