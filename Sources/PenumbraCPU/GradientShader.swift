// GradientShader: linear and two-circle radial gradients, evaluated at
// pixel centres mapped back into user space. Colours are interpolated
// premultiplied between stops; the first and last stops pad the ends of
// [0, 1]; outside [0, 1] an extended side paints its end colour and a side
// that is not extended draws nothing (the shader zeroes the coverage there).
// Both kinds are integer arithmetic from Core's plans (GradientPlan.swift,
// RadialGradientPlan.swift: a linear gradient's Q24 parameter, a radial
// gradient's 64-bit solve of the canvas rule) and the Q16 ramp of U8 colours;
// paint.glsl evaluates the same integers (docs/ARITHMETIC.md).
import PenumbraCore

struct GradientShader: Shader {
    let gradient: GradientDraw
    let ramp: GradientRamp
    /// The fixed-point parameter of a linear gradient (nil for a radial one).
    let linear: LinearGradientPlan?
    /// The fixed-point solve of a radial gradient (nil for a linear one or one that draws nothing).
    let radial: RadialGradientPlan?

    init(_ g: GradientDraw) {
        gradient = g
        ramp = GradientRamp(g.stops)
        if case .linear = g.kind { linear = LinearGradientPlan(g); radial = nil } else { linear = nil; radial = RadialGradientPlan(g) }
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
        guard let plan = offset == .zero ? radial : RadialGradientPlan(gradient, offset: offset) else {
            coverage.update(repeating: 0, count: count); return
        }
        for i in 0..<count where coverage[i] > 0 {
            guard let t = plan.parameter(x0 &+ i, y) else { coverage[i] = 0; continue }
            colors[i] = SIMD4<UInt8>(truncatingIfNeeded: ramp.color(atQ16: Int32(max(0, min(65536, t)))))
        }
    }
}
