// Shaders: the paint of an op, evaluated a row at a time at pixel centres.
// A shader writes premultiplied colours (before the context alpha) and may
// multiply the row's coverage by a coverage of its own (a gradient side that
// is not extended draws nothing). `offset` shifts the paint with the
// geometry, for shadows: the paint is sampled at (centre - offset).
//
// A shadow needs only the paint's alpha: `shadeAlpha` has a default that
// shades the colours and keeps their alpha (the definition); a shader may
// compute the alpha alone instead, and must give the same bits. Shaders are
// values read concurrently by the threads that share a shadow's rows.
import PenumbraCore

/// The paint of one op.
protocol Shader {
    /// Shades pixels `x0..<x0+count` of row `y`: writes `colors`, may scale `coverage`.
    func shade(y: Int, x0: Int, count: Int, offset: Point,
               colors: UnsafeMutablePointer<SIMD4<Float>>, coverage: UnsafeMutablePointer<Float>)

    /// For pixels `x0..<x0+count` of row `y` whose coverage is above 0: writes
    /// `alpha[i] = coverage[i] * (the paint's premultiplied alpha)`, with the coverage as
    /// `shade` leaves it; other pixels' `alpha` is left as it is. `scratch` holds `count`
    /// colours of working space.
    func shadeAlpha(y: Int, x0: Int, count: Int, offset: Point, coverage: UnsafeMutablePointer<Float>,
                    alpha: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<SIMD4<Float>>)

    /// The shader to call `shadeAlpha` on for many rows: self, or a copy that has done once
    /// what it can do once (an image scans its bitmap for opacity).
    func preparedForAlpha() -> Shader
}

extension Shader {
    func shadeAlpha(y: Int, x0: Int, count: Int, offset: Point, coverage: UnsafeMutablePointer<Float>,
                    alpha: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<SIMD4<Float>>) {
        shade(y: y, x0: x0, count: count, offset: offset, colors: scratch, coverage: coverage)
        for i in 0..<count where coverage[i] > 0 { alpha[i] = coverage[i] * scratch[i].w }
    }

    func preparedForAlpha() -> Shader { self }
}

/// A solid colour.
struct SolidShader: Shader {
    /// The colour as the composite stores it: premultiplied U8.
    let color8: SIMD4<UInt8>
    /// The same colour as Floats (k / 255 of each byte), for the shadow caster's alpha.
    let color: SIMD4<Float>
    init(_ c: Color) { self.init(premultiplied8: c.premultiplied8) }
    init(premultiplied8: SIMD4<UInt8>) {
        color8 = premultiplied8
        color = SIMD4(Fixed.unitFloats[Int(color8.x)], Fixed.unitFloats[Int(color8.y)],
                      Fixed.unitFloats[Int(color8.z)], Fixed.unitFloats[Int(color8.w)])
    }
    func shade(y: Int, x0: Int, count: Int, offset: Point,
               colors: UnsafeMutablePointer<SIMD4<Float>>, coverage: UnsafeMutablePointer<Float>) {
        for i in 0..<count { colors[i] = color }
    }
    func shadeAlpha(y: Int, x0: Int, count: Int, offset: Point, coverage: UnsafeMutablePointer<Float>,
                    alpha: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<SIMD4<Float>>) {
        let a = color.w
        for i in 0..<count where coverage[i] > 0 { alpha[i] = coverage[i] * a }
    }
}
