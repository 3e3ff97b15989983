// Blend: the 28 blend modes of the scene format as one function on premultiplied
// SIMD4<Float> colours. The CPU renderer calls it once a pixel; the GPU shaders
// mirror it line by line (highp float), so both renderers share one definition.
//
// Approach. Every separable and non-separable mode is the W3C Compositing and
// Blending Level 1 general form written on premultiplied values,
//     co = cs (1 - αb) + cb (1 - αs) + αs αb B(Cs, Cb),   αo = αs + αb - αs αb,
// evaluated as one SIMD4 expression whose alpha lane carries B = 1, so the same
// expression yields αo. Where the blend term αs αb B(Cs, Cb) has a closed
// premultiplied form (multiply, screen, overlay, hardLight, darken, lighten,
// difference, exclusion) that form is used and no division by alpha happens.
// colorDodge, colorBurn, softLight and the non-separable modes (in
// Blend+NonSeparable.swift) un-premultiply first, Cs = cs / αs and Cb = cb / αb,
// guarded: a zero alpha gives C = 0 and the blend term vanishes (its αs αb is 0).
// The Porter-Duff modes are their premultiplied (Fa, Fb) forms; plusLighter and
// plusDarker are the scene format's formulas.
//
// Every result is finally clamped to a valid premultiplied colour: alpha to
// 0...1, colour to 0...alpha. For valid inputs the exact formulas never leave
// that range, so the clamp only removes float rounding (a few ulps) and can
// never produce a colour brighter than its alpha; the GPU shader clamps the same.
//
// Speed: everything is `@inlinable` SIMD4<Float> arithmetic with no generic standard
// library calls in the hot path (lane-wise min / max are written out, see below);
// Blend+Row.swift holds the row compositor that switches on the mode once per row.

/// Premultiplied RGBA in 0...1, Float (the GPU computes in highp float; the CPU matches it).
public typealias PremultipliedColor = SIMD4<Float>

extension BlendMode {
    /// The result of compositing premultiplied `source` over premultiplied `destination`
    /// with full coverage, by this mode's formula.
    ///
    /// SCENE_FORMAT.md: "Formulas are those of the W3C Compositing and Blending Level 1
    /// specification for the separable and non-separable modes, and Porter-Duff for the
    /// rest." `normal` is source-over. `plusLighter` is `co = min(1, cs + cb)`,
    /// `αo = min(1, αs + αb)`; `plusDarker` is `αo = min(1, αs + αb)`,
    /// `co = max(0, αo - ((αs - cs) + (αb - cb)))`.
    ///
    /// Inputs are valid premultiplied colours (each channel in 0...1, colour <= alpha).
    /// The result is one too: alpha is clamped to 0...1 and colour to 0...alpha, which
    /// for valid inputs changes nothing but float rounding. Zero alphas never produce NaN.
    @inlinable
    public func blend(source s: SIMD4<Float>, destination d: SIMD4<Float>) -> SIMD4<Float> {
        let r: SIMD4<Float>
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
    public var preservesDestinationWhereSourceIsClear: Bool {
        switch self {
        case .clear, .copy, .sourceIn, .sourceOut, .destinationIn, .destinationAtop: return false
        default: return true
        }
    }
}

/// The composite of the scene format: "Every blend mode, the Porter-Duff ones included,
/// acts only where the op has coverage: `result = dst + coverage * (blend(src, dst) - dst)`
/// per premultiplied channel."
///
/// `coverage` is in 0...1. Coverage 0 returns `destination` bit for bit, coverage 1
/// returns `mode.blend(source:destination:)` bit for bit; in between the result is
/// clamped to a valid premultiplied colour like `blend`'s.
@inlinable
public func composite(source: SIMD4<Float>, destination: SIMD4<Float>, coverage: Float,
                      mode: BlendMode) -> SIMD4<Float> {
    if !(coverage > 0) { return destination }
    let blended = mode.blend(source: source, destination: destination)
    if coverage >= 1 { return blended }
    return BlendKernel.validPremultiplied(destination + coverage * (blended - destination))
}

/// The per-mode formulas, before the final clamp. Internal; `@usableFromInline` so that
/// `blend` inlines into the renderers' loops.
@usableFromInline
enum BlendKernel {
    /// Clamps alpha to 0...1 and colour to 0...alpha.
    @inlinable @inline(__always)
    static func validPremultiplied(_ c: SIMD4<Float>) -> SIMD4<Float> {
        let alpha = Swift.min(Swift.max(c.w, 0), 1)
        return clamp(c, lower: .zero, upper: SIMD4(repeating: alpha))
    }

    // Lane-wise min, max and clamp written on scalars: the standard library's generic
    // `pointwiseMin`, `pointwiseMax` and `clamped` are not inlined and cost several times
    // the whole formula; these compile to a few inline vector instructions.

    /// Lane-wise minimum.
    @inlinable @inline(__always)
    static func minimum(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(Swift.min(a.x, b.x), Swift.min(a.y, b.y), Swift.min(a.z, b.z), Swift.min(a.w, b.w))
    }

    /// Lane-wise maximum.
    @inlinable @inline(__always)
    static func maximum(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(Swift.max(a.x, b.x), Swift.max(a.y, b.y), Swift.max(a.z, b.z), Swift.max(a.w, b.w))
    }

    /// Lane-wise `min(max(v, lower), upper)`.
    @inlinable @inline(__always)
    static func clamp(_ v: SIMD4<Float>, lower: SIMD4<Float>, upper: SIMD4<Float>) -> SIMD4<Float> {
        minimum(maximum(v, lower), upper)
    }

    /// The W3C general form `cs (1 - αb) + cb (1 - αs) + term`, where `term` is
    /// αs αb B(Cs, Cb) with αs αb in its alpha lane (so the alpha lane is αo).
    @inlinable @inline(__always)
    static func general(_ s: SIMD4<Float>, _ d: SIMD4<Float>, term: SIMD4<Float>) -> SIMD4<Float> {
        let sourceOnly = s * (1 - d.w)
        let destinationOnly = d * (1 - s.w)
        return sourceOnly + destinationOnly + term
    }

    /// The general form with the un-premultiplied blend result `b` (its alpha lane is
    /// ignored and taken as 1).
    @inlinable @inline(__always)
    static func general(_ s: SIMD4<Float>, _ d: SIMD4<Float>, blended b: SIMD4<Float>) -> SIMD4<Float> {
        var b = b
        b.w = 1
        return general(s, d, term: (s.w * d.w) * b)
    }

    /// Un-premultiplies: `c / α` with each channel at most 1, and zero when α is 0.
    @inlinable @inline(__always)
    static func unpremultiplied(_ c: SIMD4<Float>) -> SIMD4<Float> {
        guard c.w > 0 else { return .zero }
        return minimum(c / c.w, SIMD4(repeating: 1))
    }

    // MARK: Separable modes (W3C), premultiplied

    /// Source-over: `s + d (1 - αs)`.
    @inlinable @inline(__always)
    static func normal(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> { s + d * (1 - s.w) }

    /// B = Cs Cb, so αs αb B = cs cb.
    @inlinable @inline(__always)
    static func multiply(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        general(s, d, term: s * d)
    }

    /// B = Cs + Cb - Cs Cb, which simplifies to `cs + cb - cs cb` (alpha lane included).
    @inlinable @inline(__always)
    static func screen(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> { s + d - s * d }

    /// HardLight(Cb, Cs) with the roles swapped: Cb <= 0.5 (2 cb <= αb) gives 2 cs cb,
    /// else αs αb - 2 (αb - cb)(αs - cs). The alpha lane comes out as αs αb.
    @inlinable @inline(__always)
    static func overlay(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        let multiplied = 2 * s * d
        let screened = s.w * d.w - 2 * (d.w - d) * (s.w - s)
        return general(s, d, term: screened.replacing(with: multiplied, where: 2 * d .<= d.w))
    }

    /// Cs <= 0.5 (2 cs <= αs): Multiply(Cb, 2 Cs), premultiplied 2 cs cb; else
    /// Screen(Cb, 2 Cs - 1), premultiplied αs αb - 2 (αb - cb)(αs - cs).
    @inlinable @inline(__always)
    static func hardLight(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        let multiplied = 2 * s * d
        let screened = s.w * d.w - 2 * (d.w - d) * (s.w - s)
        return general(s, d, term: screened.replacing(with: multiplied, where: 2 * s .<= s.w))
    }

    /// B = min(Cs, Cb), so αs αb B = min(cs αb, cb αs).
    @inlinable @inline(__always)
    static func darken(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        general(s, d, term: minimum(s * d.w, d * s.w))
    }

    /// B = max(Cs, Cb), so αs αb B = max(cs αb, cb αs).
    @inlinable @inline(__always)
    static func lighten(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        general(s, d, term: maximum(s * d.w, d * s.w))
    }

    /// W3C: `if Cb == 0: 0; else if Cs == 1: 1; else min(1, Cb / (1 - Cs))`.
    @inlinable @inline(__always)
    static func colorDodge(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        let cs = unpremultiplied(s), cb = unpremultiplied(d)
        let one = SIMD4<Float>(repeating: 1)
        let sourceIsOne = cs .== 1
        // Where Cs == 1 the division is replaced by 1 before it happens: no inf, no NaN.
        let quotient = cb / (one - cs).replacing(with: one, where: sourceIsOne)
        var b = minimum(quotient, one)
        b.replace(with: 1, where: sourceIsOne)
        b.replace(with: 0, where: cb .== 0)
        return general(s, d, blended: b)
    }

    /// W3C: `if Cb == 1: 1; else if Cs == 0: 0; else 1 - min(1, (1 - Cb) / Cs)`.
    @inlinable @inline(__always)
    static func colorBurn(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        let cs = unpremultiplied(s), cb = unpremultiplied(d)
        let one = SIMD4<Float>(repeating: 1)
        let sourceIsZero = cs .== 0
        let quotient = (one - cb) / cs.replacing(with: one, where: sourceIsZero)
        var b = one - minimum(quotient, one)
        b.replace(with: 0, where: sourceIsZero)
        b.replace(with: 1, where: cb .== 1)
        return general(s, d, blended: b)
    }

    /// W3C: `if Cs <= 0.5: Cb - (1 - 2 Cs) Cb (1 - Cb); else Cb + (2 Cs - 1)(D(Cb) - Cb)`
    /// with `D(Cb) = Cb <= 0.25 ? ((16 Cb - 12) Cb + 4) Cb : sqrt(Cb)`.
    @inlinable @inline(__always)
    static func softLight(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        let cs = unpremultiplied(s), cb = unpremultiplied(d)
        let polynomial = ((16 * cb - 12) * cb + 4) * cb
        let dOfCb = cb.squareRoot().replacing(with: polynomial, where: cb .<= 0.25)
        let darkened = cb - (1 - 2 * cs) * cb * (1 - cb)
        let lightened = cb + (2 * cs - 1) * (dOfCb - cb)
        return general(s, d, blended: lightened.replacing(with: darkened, where: cs .<= 0.5))
    }

    /// B = |Cs - Cb|, so αs αb B = |cs αb - cb αs| and co = cs + cb - 2 min(cs αb, cb αs).
    @inlinable @inline(__always)
    static func difference(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        var r = s + d - 2 * minimum(s * d.w, d * s.w)
        r.w = s.w + d.w - s.w * d.w
        return r
    }

    /// B = Cs + Cb - 2 Cs Cb, so co = cs + cb - 2 cs cb.
    @inlinable @inline(__always)
    static func exclusion(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        var r = s + d - 2 * s * d
        r.w = s.w + d.w - s.w * d.w
        return r
    }

    // MARK: Porter-Duff, premultiplied: result = s Fa + d Fb

    /// Fa = 0, Fb = 0.
    @inlinable @inline(__always)
    static func clear(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> { .zero }
    /// Fa = 1, Fb = 0.
    @inlinable @inline(__always)
    static func copy(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> { s }
    /// Fa = αb, Fb = 0.
    @inlinable @inline(__always)
    static func sourceIn(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> { s * d.w }
    /// Fa = 1 - αb, Fb = 0.
    @inlinable @inline(__always)
    static func sourceOut(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> { s * (1 - d.w) }
    /// Fa = αb, Fb = 1 - αs.
    @inlinable @inline(__always)
    static func sourceAtop(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        s * d.w + d * (1 - s.w)
    }
    /// Fa = 1 - αb, Fb = 1.
    @inlinable @inline(__always)
    static func destinationOver(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        s * (1 - d.w) + d
    }
    /// Fa = 0, Fb = αs.
    @inlinable @inline(__always)
    static func destinationIn(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> { d * s.w }
    /// Fa = 0, Fb = 1 - αs.
    @inlinable @inline(__always)
    static func destinationOut(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> { d * (1 - s.w) }
    /// Fa = 1 - αb, Fb = αs.
    @inlinable @inline(__always)
    static func destinationAtop(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        s * (1 - d.w) + d * s.w
    }
    /// Fa = 1 - αb, Fb = 1 - αs.
    @inlinable @inline(__always)
    static func xor(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        s * (1 - d.w) + d * (1 - s.w)
    }

    // MARK: Plus modes (SCENE_FORMAT.md)

    /// `co = min(1, cs + cb)`, `αo = min(1, αs + αb)`. Since cs <= αs and cb <= αb the
    /// colour never exceeds the alpha.
    @inlinable @inline(__always)
    static func plusLighter(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        minimum(s + d, SIMD4(repeating: 1))
    }

    /// `αo = min(1, αs + αb)`, `co = max(0, αo - ((αs - cs) + (αb - cb)))`; on the alpha
    /// lane the subtracted sum is 0, so the same expression yields αo.
    @inlinable @inline(__always)
    static func plusDarker(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        let alpha = Swift.min(1, s.w + d.w)
        let darkness = (SIMD4(repeating: s.w) - s) + (SIMD4(repeating: d.w) - d)
        return maximum(SIMD4(repeating: alpha) - darkness, .zero)
    }
}
