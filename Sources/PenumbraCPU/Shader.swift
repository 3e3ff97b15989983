// Shaders: the CPU's execution of a PaintPlan (Core: every constant already
// resolved there), evaluated a row at a time at pixel centres, as U8
// premultiplied colours (docs/ARITHMETIC.md, "Paint"). A shader may zero the
// row's U8 coverage where it paints nothing (a gradient side that is not
// extended). A shadow's caster is shaded from the plan resolved at the
// shadow's offset (LoweredShadow.casterPaint), so no shader moves its paint.
//
// A shadow needs only the paint's alpha: `shadeAlpha` has a default that
// shades the colours and takes `div255(coverage x alpha)` (the definition); a
// shader may compute the alpha alone instead, and must give the same bytes.
// Shaders are values read concurrently by the threads that share a shadow's
// rows.
import PenumbraModel
import PenumbraCore

/// The paint of one op.
protocol Shader {
    /// Shades pixels `x0..<x0+count` of row `y`: writes `colors`, may zero `coverage`.
    func shade(y: Int, x0: Int, count: Int,
               colors: UnsafeMutablePointer<SIMD4<UInt8>>, coverage: UnsafeMutablePointer<UInt8>)

    /// For pixels `x0..<x0+count` of row `y` whose coverage is above 0: writes
    /// `alpha[i] = div255(coverage[i] x the paint's alpha)`, with the coverage as `shade`
    /// leaves it; other pixels' `alpha` is left as it is. `scratch` holds `count` colours.
    func shadeAlpha(y: Int, x0: Int, count: Int, coverage: UnsafeMutablePointer<UInt8>,
                    alpha: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<SIMD4<UInt8>>)

    /// The shader to call `shadeAlpha` on for many rows: self, or a copy that has done once
    /// what it can do once (an image scans its bitmap for opacity).
    func preparedForAlpha() -> Shader
}

extension Shader {
    func shadeAlpha(y: Int, x0: Int, count: Int, coverage: UnsafeMutablePointer<UInt8>,
                    alpha: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<SIMD4<UInt8>>) {
        shade(y: y, x0: x0, count: count, colors: scratch, coverage: coverage)
        for i in 0..<count where coverage[i] > 0 { alpha[i] = CoverageMask.product(coverage[i], scratch[i].w) }
    }

    func preparedForAlpha() -> Shader { self }
}

/// The shader executing a paint plan; `placed` supplies the pixels of a `placed` paint.
func makeShader(_ paint: PaintPlan, placed: Bitmap? = nil) -> Shader {
    switch paint {
    case .solid(let color8): return SolidShader(premultiplied8: color8)
    case .image(let image): return ImageShader(image)
    case .placed(let p):
        guard let placed else { preconditionFailure("a placed paint without its pixels") }
        let shader = ImageShader(p, pixels: placed)
        return p.luminanceToAlpha ? LuminanceShader(base: shader) : shader
    case .linearGradient(let g): return LinearGradientShader(g)
    case .radialGradient(let g): return RadialGradientShader(g)
    }
}

/// A solid colour.
struct SolidShader: Shader {
    /// The colour as the composite stores it: premultiplied U8.
    let color8: SIMD4<UInt8>
    init(premultiplied8: SIMD4<UInt8>) { color8 = premultiplied8 }
    func shade(y: Int, x0: Int, count: Int,
               colors: UnsafeMutablePointer<SIMD4<UInt8>>, coverage: UnsafeMutablePointer<UInt8>) {
        colors.update(repeating: color8, count: count)
    }
    func shadeAlpha(y: Int, x0: Int, count: Int, coverage: UnsafeMutablePointer<UInt8>,
                    alpha: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<SIMD4<UInt8>>) {
        let a = color8.w
        for i in 0..<count where coverage[i] > 0 { alpha[i] = CoverageMask.product(coverage[i], a) }
    }
}

/// A layer composited as a luminance mask (LuminanceMask.swift): the layer's colours, each read
/// as (0, 0, 0, Fixed.luminanceAlpha), as paint.glsl reads them after its sample.
struct LuminanceShader: Shader {
    let base: ImageShader
    func shade(y: Int, x0: Int, count: Int,
               colors: UnsafeMutablePointer<SIMD4<UInt8>>, coverage: UnsafeMutablePointer<UInt8>) {
        base.shade(y: y, x0: x0, count: count, colors: colors, coverage: coverage)
        for i in 0..<count where coverage[i] > 0 {
            colors[i] = SIMD4<UInt8>(0, 0, 0, Fixed.luminanceAlpha(colors[i]))
        }
    }
}
