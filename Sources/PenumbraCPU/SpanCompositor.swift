// SpanCompositor: composites one op's paint into a run of pixels of one row
// of the target, given the run's coverage (one value per pixel, or one for
// the whole run). A solid paint goes straight to the blend mode's row
// compositor (a constant run of an opaque colour becomes a fill); any other
// paint is shaded into per-thread scratch first, then scaled by the context
// alpha. Every pixel gets exactly
//     result = dst + coverage * (blend(src * alpha, dst) - dst)
// as the row compositor computes it, whatever the run boundaries.
import PenumbraCore

struct SpanCompositor {
    /// Per-thread buffers, sized for the widest run of the op.
    final class Scratch {
        let colors: UnsafeMutablePointer<SIMD4<Float>>
        let coverage: UnsafeMutablePointer<Float>

        init(width: Int) {
            colors = .allocate(capacity: max(1, width)); coverage = .allocate(capacity: max(1, width))
        }
        deinit { colors.deallocate(); coverage.deallocate() }
    }

    let pixels: UnsafeMutableBufferPointer<UInt8>
    let frame: PixelRect
    let shader: Shader
    let offset: Point
    let alpha: Float
    let mode: BlendMode
    /// The paint's colour times the context alpha, when the paint is solid.
    let solid: SIMD4<Float>?

    init(pixels: UnsafeMutableBufferPointer<UInt8>, frame: PixelRect, shader: Shader, offset: Point, alpha: Float,
         mode: BlendMode) {
        self.pixels = pixels; self.frame = frame; self.shader = shader; self.offset = offset
        self.alpha = alpha; self.mode = mode
        solid = (shader as? SolidShader).map { $0.color * alpha }
    }

    /// Composites pixels `x..<x+count` of row `y` (device coordinates, inside the frame), with
    /// coverage `coverage[0..<count]`, or `constant` for all of them when `coverage` is nil.
    func composite(y: Int, x: Int, count: Int, coverage: UnsafePointer<Float>?, constant: Float, _ scratch: Scratch) {
        let rowStart = ((y - frame.y) * frame.width + x - frame.x) * 4
        let destination = UnsafeMutableBufferPointer(rebasing: pixels[rowStart..<(rowStart + count * 4)])
        if let solid {
            if let coverage {
                mode.blendRow(source: solid, coverage: UnsafeBufferPointer(start: coverage, count: count), destination: destination)
            } else {
                mode.blendRow(source: solid, coverage: constant, count: count, destination: destination)
            }
            return
        }
        // The shader may scale coverage (a gradient side that is not extended), so it gets a copy.
        let cov = scratch.coverage
        if let coverage { cov.update(from: coverage, count: count) } else { cov.update(repeating: constant, count: count) }
        let colors = scratch.colors
        shader.shade(y: y, x0: x, count: count, offset: offset, colors: colors, coverage: cov)
        if alpha != 1 { for i in 0..<count { colors[i] *= alpha } }
        mode.blendRow(sources: UnsafeBufferPointer(start: colors, count: count),
                      coverage: UnsafeBufferPointer(start: cov, count: count), destination: destination)
    }
}
