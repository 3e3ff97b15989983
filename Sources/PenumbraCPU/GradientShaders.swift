// Gradient shaders: linear and two-circle radial gradients, evaluated at
// pixel centres from their PaintPlans (Core). Colours are interpolated
// premultiplied between stops; the first and last stops pad the ends of
// [0, 1]; outside [0, 1] an extended side paints its end colour and a side
// that is not extended draws nothing (the shader zeroes the coverage there).
// Both kinds are integer arithmetic from Core's plans (GradientPlan.swift,
// RadialGradientPlan.swift: a linear gradient's Q24 parameter, a radial
// gradient's 64-bit solve of the canvas rule) and the Q16 ramp of U8 colours;
// paint.glsl evaluates the same integers (docs/ARITHMETIC.md).
import PenumbraModel
import PenumbraCore

/// A linear gradient: the Q24 parameter, then the ramp.
struct LinearGradientShader: Shader {
    let paint: LinearGradientPaint
    init(_ paint: LinearGradientPaint) { self.paint = paint }

    func shade(y: Int, x0: Int, count: Int,
               colors: UnsafeMutablePointer<SIMD4<UInt8>>, coverage: UnsafeMutablePointer<UInt8>) {
        guard let t = paint.parameter else { coverage.update(repeating: 0, count: count); return }
        let (extendStart, extendEnd) = (paint.extendStart, paint.extendEnd)
        for i in 0..<count where coverage[i] > 0 {
            let t24 = t.at(x0 &+ i, y)
            guard LinearGradientPlan.draws(t24, extendStart: extendStart, extendEnd: extendEnd) else { coverage[i] = 0; continue }
            colors[i] = SIMD4<UInt8>(truncatingIfNeeded: paint.ramp.color(atQ24: t24))
        }
    }
}

/// A two-circle radial gradient: the 64-bit solve, then the ramp.
struct RadialGradientShader: Shader {
    let paint: RadialGradientPaint
    init(_ paint: RadialGradientPaint) { self.paint = paint }

    func shade(y: Int, x0: Int, count: Int,
               colors: UnsafeMutablePointer<SIMD4<UInt8>>, coverage: UnsafeMutablePointer<UInt8>) {
        guard let plan = paint.solve else { coverage.update(repeating: 0, count: count); return }
        for i in 0..<count where coverage[i] > 0 {
            guard let t = plan.parameter(x0 &+ i, y) else { coverage[i] = 0; continue }
            colors[i] = SIMD4<UInt8>(truncatingIfNeeded: paint.ramp.color(atQ16: Int32(max(0, min(65536, t)))))
        }
    }
}
