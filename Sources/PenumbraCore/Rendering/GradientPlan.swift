// GradientPlan: a gradient's parameter and colour ramp in fixed point
// (docs/ARITHMETIC.md, "Gradients"), computed once in Core for both renderers.
//
// The ramp: stop offsets in Q16 (round(offset x 65536)) and stop colours
// premultiplied U8. At a parameter t clamped to [0, 1] and rounded to Q16
// (t16 = (t24 + 2^7) >> 8), the colour is the first stop's before its offset,
// the last stop's from its offset on, and between stops i and i + 1
// (o_i <= t16 < o_i+1)
//     f = ((t16 - o_i) << 16) / (o_i+1 - o_i)          (UInt32, floor)
//     c = (c_i (65536 - f) + c_i+1 f + 2^15) >> 16.
// A linear gradient's parameter is affine in the device pixel: a FixedAffine
// in Q24 (t24), evaluated in 64-bit integers, exactly as image positions are;
// t24 < 0 draws only where the start extends and t24 > 2^24 only where the
// end extends. A radial gradient solves its quadratic in 64-bit integers
// (RadialGradientPlan, below) and gives t16 directly.

import PenumbraModel

/// A gradient's stops in fixed point.
@usableFromInline package struct GradientRamp: Hashable, Sendable {
    /// Q16 offsets, non-decreasing.
    @usableFromInline package let offsets: [Int32]
    /// Premultiplied U8 colours.
    @usableFromInline package let colors: [SIMD4<Int32>]

    @usableFromInline package init(_ stops: [GradientStop]) {
        offsets = stops.map { Int32(max(0, min(65536, ($0.offset * 65536).rounded()))) }
        colors = stops.map { SIMD4<Int32>(truncatingIfNeeded: $0.color.premultiplied8) }
    }

    /// The colour at t24 (Q24, clamped to [0, 2^24] here).
    @inlinable
    @usableFromInline package func color(atQ24 t24: Int64) -> SIMD4<Int32> {
        color(atQ16: Int32(truncatingIfNeeded: (max(0, min(1 << 24, t24)) + 128) >> 8))
    }

    /// The colour at t16 (Q16, in [0, 65536]).
    @inlinable
    @usableFromInline package func color(atQ16 t16: Int32) -> SIMD4<Int32> {
        guard let first = offsets.first, let last = offsets.last else { return .zero }
        if t16 < first { return colors[0] }
        if t16 >= last { return colors[colors.count - 1] }
        var i = 0
        while i + 1 < offsets.count, offsets[i + 1] <= t16 { i += 1 }
        let span = UInt32(offsets[i + 1] - offsets[i])
        let f = Int32((UInt32(t16 - offsets[i]) << 16) / span)
        return (colors[i] &* (65536 &- f) &+ colors[i + 1] &* f &+ 32768) &>> 16
    }
}

/// A linear gradient's parameter in fixed point.
@usableFromInline package struct LinearGradientPlan: Hashable, Sendable {
    /// t24 at device pixel (x, y); nil when the gradient draws nothing (start == end).
    @usableFromInline package let parameter: FixedAffine?

    /// The plan of `gradient` (linear) with the paint moved by `offset`, device pixels.
    @usableFromInline package init(_ gradient: GradientDraw, offset: Point = .zero) {
        guard case .linear(let start, let end) = gradient.kind else { parameter = nil; return }
        let d = end - start
        let len2 = d.dot(d)
        guard len2 > 0 else { parameter = nil; return }
        let inverse = gradient.transform.inverted() ?? .identity
        let user = inverse.apply(Point(x: 0.5 - offset.x, y: 0.5 - offset.y))
        parameter = FixedAffine(value: (user - start).dot(d) / len2,
                                stepX: Point(x: inverse.a, y: inverse.b).dot(d) / len2,
                                stepY: Point(x: inverse.c, y: inverse.d).dot(d) / len2)
    }

    /// Whether a gradient with these extensions draws at t24.
    @inlinable @inline(__always)
    @usableFromInline package static func draws(_ t24: Int64, extendStart: Bool, extendEnd: Bool) -> Bool {
        t24 < 0 ? extendStart : (t24 > 1 << 24 ? extendEnd : true)
    }
}
