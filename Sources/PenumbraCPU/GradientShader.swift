// GradientShader: linear and two-circle radial gradients, evaluated at
// pixel centres mapped back into user space. Colours are interpolated
// premultiplied between stops; the first and last stops pad the ends of
// [0, 1]; outside [0, 1] an extended side paints its end colour and a side
// that is not extended draws nothing (the shader zeroes the coverage there).
// A linear gradient is fixed point throughout (GradientPlan: its parameter in
// Q24, its ramp in Q16 with U8 colours); a radial gradient's parameter and
// colour are still Float, stored as U8 by Fixed.unit8 (paint.glsl does the
// same; docs/ARITHMETIC.md).
// The radial parameter is the largest t whose circle has a non-negative
// radius and passes through the point (the canvas rule), among the t the
// gradient draws: [0, 1] plus each extended side. When both sides extend
// this is the canvas rule exactly; when a side does not, a point whose
// largest root lies on that side takes its other root if that one is drawn,
// as Quartz paints the circles of the drawn range in order (later on top).
import PenumbraCore

struct GradientShader: Shader {
    let gradient: GradientDraw
    let inverse: AffineTransform
    let stops: [(offset: Double, color: SIMD4<Float>)]
    let ramp: GradientRamp
    /// The fixed-point parameter of a linear gradient (nil for a radial one).
    let linear: LinearGradientPlan?

    init(_ g: GradientDraw) {
        gradient = g
        inverse = g.transform.inverted() ?? .identity
        stops = g.stops.map { ($0.offset, SIMD4<Float>($0.color.premultiplied)) }
        ramp = GradientRamp(g.stops)
        if case .linear = g.kind { linear = LinearGradientPlan(g) } else { linear = nil }
    }

    func shade(y: Int, x0: Int, count: Int, offset: Point,
               colors: UnsafeMutablePointer<SIMD4<UInt8>>, coverage: UnsafeMutablePointer<UInt8>) {
        if let linear {
            let plan = offset == .zero ? linear : LinearGradientPlan(gradient, offset: offset)
            guard let t = plan.parameter else { coverage.update(repeating: 0, count: count); return }
            let (extendStart, extendEnd) = (gradient.extendStart, gradient.extendEnd)
            for i in 0..<count where coverage[i] > 0 {
                let t24 = t.at(x0 &+ i, y)
                guard LinearGradientPlan.draws(t24, extendStart: extendStart, extendEnd: extendEnd) else { coverage[i] = 0; continue }
                colors[i] = SIMD4<UInt8>(truncatingIfNeeded: ramp.color(atQ24: t24))
            }
            return
        }
        for i in 0..<count where coverage[i] > 0 {
            let user = inverse.apply(Point(Double(x0 + i) + 0.5 - offset.x, Double(y) + 0.5 - offset.y))
            guard let t = parameter(at: user) else { coverage[i] = 0; continue }
            let c = color(at: min(1, max(0, t)))
            colors[i] = SIMD4(Fixed.unit8(c.x), Fixed.unit8(c.y), Fixed.unit8(c.z), Fixed.unit8(c.w))
        }
    }

    /// True when the gradient draws at parameter t (inside [0, 1] or on an extended side).
    func draws(_ t: Double) -> Bool {
        t < 0 ? gradient.extendStart : (t > 1 ? gradient.extendEnd : true)
    }

    /// The gradient parameter at a user-space point, nil where the gradient draws nothing.
    func parameter(at p: Point) -> Double? {
        switch gradient.kind {
        case .linear(let start, let end):
            let d = end - start
            let len2 = d.dot(d)
            guard len2 > 0 else { return nil }
            let t = (p - start).dot(d) / len2
            return draws(t) ? t : nil
        case .radial(let c0, let r0, let c1, let r1):
            let cd = c1 - c0, pd = p - c0, dr = r1 - r0
            let a = cd.dot(cd) - dr * dr
            let b = pd.dot(cd) + r0 * dr
            let c = pd.dot(pd) - r0 * r0
            if abs(a) < 1e-12 * max(1, cd.dot(cd) + dr * dr) {
                guard b != 0 else { return nil }
                let t = c / (2 * b)
                return r0 + t * dr >= 0 && draws(t) ? t : nil
            }
            let disc = b * b - a * c
            guard disc >= 0 else { return nil }
            let root = disc.squareRoot()
            let t1 = (b + root) / a, t2 = (b - root) / a
            let (hi, lo) = t1 > t2 ? (t1, t2) : (t2, t1)
            if r0 + hi * dr >= 0 && draws(hi) { return hi }
            if r0 + lo * dr >= 0 && draws(lo) { return lo }
            return nil
        }
    }

    /// The premultiplied colour at t in [0, 1].
    func color(at t: Double) -> SIMD4<Float> {
        guard let first = stops.first, let last = stops.last else { return .zero }
        if t < first.offset { return first.color }
        if t >= last.offset { return last.color }
        var i = 0
        while i + 1 < stops.count, stops[i + 1].offset <= t { i += 1 }
        let a = stops[i], b = stops[i + 1]
        let span = b.offset - a.offset
        guard span > 0 else { return b.color }
        let f = Float((t - a.offset) / span)
        return a.color + (b.color - a.color) * f
    }
}
