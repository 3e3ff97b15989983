// RadialGradientPlan: the two-circle radial gradient's parameter in 64-bit
// integers (docs/ARITHMETIC.md, "Radial gradients"), the same steps in Swift
// (here) and GLSL (paint.glsl's radialT16), so both renderers pick the same t
// at every pixel.
//
// Geometry is measured in units of L, the power of two just above the
// gradient's largest dimension (max |c1 - c0| component, r0, r1), so every
// constant is at most 1 and fits Q16: cd = (c1 - c0) / L, r0, dr = r1 - r0
// (from the rounded r0 and r1), and A = cd.cd - dr^2, exact in Q32 and
// rounded once to Q24. The point q = (p - c0) / L is a Q24 affine map of the
// device pixel, like an image axis; a pixel more than 2^10 units away is
// pulled in along its direction (both coordinates shifted right by the same
// count), which only moves t far outside [0, 1]. With q in Q16 (|q| < 2^26):
//     B = q.cd + r0 dr (Q32), b = (B + 2^15) >> 16 (Q16)
//     C = q.q - r0^2 (Q32)
//     D = b^2 - ((A24 c + 2^7) >> 8) with c = (C + 2^15) >> 16 (Q32)
// no root where D < 0; else root = floor(sqrt(D)) (Q16, exact), s = b + root
// for b >= 0 and b - root otherwise (no cancellation), and the two roots are
//     ta = s 2^24 / A24 (when A24 != 0) and tc = C / s (when s != 0),
// both Q16, divisions truncated towards zero, clamped to +-2^40. The canvas
// rule: the larger root if its radius r0 + t dr is non-negative and the
// gradient draws at t, else the smaller one under the same test, else none.
// With A24 = 0 (the focus on the end circle) only tc exists: C / 2b.

import PenumbraModel

/// A radial gradient's parameter in fixed point.
@usableFromInline package struct RadialGradientPlan: Hashable, Sendable {
    /// q = (p - c0) / L at device pixel p, Q24.
    @usableFromInline package let qx: FixedAffine, qy: FixedAffine
    /// cd.x, cd.y, r0 and dr in Q16 units of L.
    @usableFromInline package let cdx: Int32, cdy: Int32, r0: Int32, dr: Int32
    /// A = cd.cd - dr^2 in Q24.
    @usableFromInline package let a24: Int32
    @usableFromInline package let extendStart: Bool, extendEnd: Bool

    /// The largest |t16| a root is clamped to.
    @usableFromInline package static let limit: Int64 = 1 << 40

    /// The plan of `gradient` (radial) with the paint moved by `offset` device pixels; nil when it
    /// draws nothing (both radii and the centre distance zero, or non-finite).
    @usableFromInline package init?(_ gradient: GradientDraw, offset: Point = .zero) {
        guard case .radial(let c0, let r0, let c1, let r1) = gradient.kind else { return nil }
        let cd = c1 - c0
        let largest = max(abs(cd.x), abs(cd.y), r0, r1)
        guard largest > 0, largest.isFinite, r0 >= 0, r1 >= 0 else { return nil }
        let unit = Double(sign: .plus, exponent: largest.exponent + 1, significand: 1)   // L
        func q16(_ v: Double) -> Int32 { Int32((v / unit * 65536).rounded()) }
        cdx = q16(cd.x); cdy = q16(cd.y)
        self.r0 = q16(r0)
        dr = q16(r1) - self.r0
        let a32 = Int64(cdx) * Int64(cdx) + Int64(cdy) * Int64(cdy) - Int64(dr) * Int64(dr)
        a24 = Int32((a32 + 128) >> 8)
        let inverse = gradient.transform.inverted() ?? .identity
        let user = inverse.apply(Point(x: 0.5 - offset.x, y: 0.5 - offset.y)) - c0
        qx = FixedAffine(value: user.x / unit, stepX: inverse.a / unit, stepY: inverse.c / unit)
        qy = FixedAffine(value: user.y / unit, stepX: inverse.b / unit, stepY: inverse.d / unit)
        extendStart = gradient.extendStart; extendEnd = gradient.extendEnd
    }

    /// t16 at device pixel (x, y), nil where the gradient draws nothing.
    @inlinable
    @usableFromInline package func parameter(_ x: Int, _ y: Int) -> Int64? {
        var px = qx.at(x, y), py = qy.at(x, y)
        let width = 64 - max(px.magnitude, py.magnitude).leadingZeroBitCount
        let shift = 8 + max(0, width - 34)
        px >>= Int64(shift); py >>= Int64(shift)
        let b = (px * Int64(cdx) + py * Int64(cdy) + Int64(r0) * Int64(dr) + (1 << 15)) >> 16
        let c = px * px + py * py - Int64(r0) * Int64(r0)
        let discriminant = b * b - ((Int64(a24) * ((c + (1 << 15)) >> 16) + 128) >> 8)
        guard discriminant >= 0 else { return nil }
        let root = Int64(Fixed.squareRoot(UInt64(discriminant)))
        let s = b >= 0 ? b + root : b - root
        let ta: Int64? = a24 != 0 ? RadialGradientPlan.clampedQuotient(s << 24, Int64(a24)) : nil
        let tc: Int64? = s != 0 ? RadialGradientPlan.clampedQuotient(c, s) : nil
        let (high, low): (Int64?, Int64?)
        if let ta, let tc { (high, low) = (max(ta, tc), min(ta, tc)) } else { (high, low) = (ta ?? tc, nil) }
        if let high, draws(high) { return high }
        if let low, draws(low) { return low }
        return nil
    }

    /// Whether t16 has a non-negative radius and lies where the gradient draws.
    @inlinable @inline(__always)
    @usableFromInline func draws(_ t: Int64) -> Bool {
        guard (Int64(r0) << 16) + t * Int64(dr) >= 0 else { return false }
        return t < 0 ? extendStart : (t > 65536 ? extendEnd : true)
    }

    /// n / d truncated towards zero (d != 0), clamped to +-limit.
    @inlinable @inline(__always)
    @usableFromInline static func clampedQuotient(_ n: Int64, _ d: Int64) -> Int64 {
        max(-limit, min(limit, n / d))
    }
}
