// Shaders: the paint of an op, evaluated a row at a time at pixel centres.
// A shader writes premultiplied colours (before the context alpha) and may
// multiply the row's coverage by a coverage of its own (a gradient side that
// is not extended draws nothing). `offset` shifts the paint with the
// geometry, for shadows: the paint is sampled at (centre - offset).
import PenumbraCore

/// The paint of one op.
protocol Shader {
    /// Shades pixels `x0..<x0+count` of row `y`: writes `colors`, may scale `coverage`.
    func shade(y: Int, x0: Int, count: Int, offset: Point,
               colors: UnsafeMutablePointer<SIMD4<Float>>, coverage: UnsafeMutablePointer<Float>)
}

/// A solid colour.
struct SolidShader: Shader {
    let color: SIMD4<Float>
    init(_ c: Color) { color = SIMD4<Float>(c.premultiplied) }
    init(premultiplied: SIMD4<Float>) { color = premultiplied }
    func shade(y: Int, x0: Int, count: Int, offset: Point,
               colors: UnsafeMutablePointer<SIMD4<Float>>, coverage: UnsafeMutablePointer<Float>) {
        for i in 0..<count { colors[i] = color }
    }
}
