// Shadows on the CPU, executing the shared ShadowPlan (DrawPlan.swift): the op's
// alpha (coverage times paint alpha, before the blend, without the context
// alpha, unclipped) is rendered as if its device geometry were translated by
// the offset, over a plane that reaches the target's frame plus the kernel
// radius (so casters outside the canvas still shadow into it); it is blurred
// by the shared Gaussian kernel, one horizontal and one vertical pass; then
// composited as a fill of the shadow colour times the context alpha, with
// coverage = blurred alpha x clip, in the op's blend mode.
import PenumbraCore

extension CPUFrame {
    mutating func drawShadow(_ plan: ShadowPlan, _ color: Color, _ shader: Shader, _ state: CompositeState,
                             clip: CoverageMask?) {
        let plane = plan.plane
        // Alpha = caster coverage x the paint's alpha, sampled with the paint moved by the offset.
        var alpha = [Float](repeating: 0, count: plane.area)
        var colors = [SIMD4<Float>](repeating: .zero, count: plane.width)
        var row = [Float](repeating: 1, count: plane.width)
        for y in plane.y..<plane.maxY {
            let any: Bool = row.withUnsafeMutableBufferPointer { rp in
                CPUFrame.coverageRow(y: y, x0: plane.x, width: plane.width, coverage: plan.casterCoverage, clip: nil, into: rp)
                return rp.contains { $0 > 0 }
            }
            guard any else { continue }
            colors.withUnsafeMutableBufferPointer { cp in
                row.withUnsafeMutableBufferPointer { rp in
                    shader.shade(y: y, x0: plane.x, count: plane.width, offset: plan.offset,
                                 colors: cp.baseAddress!, coverage: rp.baseAddress!)
                }
            }
            let base = (y - plane.y) * plane.width
            for i in 0..<plane.width where row[i] > 0 { alpha[base + i] = row[i] * colors[i].w }
        }

        let blurred = AlphaPlane(width: plane.width, height: plane.height, values: alpha).blurred(with: plan.kernel)
        let mask = CoverageMask(region: plane, values: blurred.values)
        composite(region: plan.compositeRegion, coverage: mask, clip: clip, shader: SolidShader(color), offset: .zero,
                  alpha: Float(state.alpha), mode: state.blendMode)
    }
}
