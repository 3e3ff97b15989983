// Shadows on the CPU, exactly as SCENE_FORMAT.md defines them: the op's
// alpha (coverage times paint alpha, before the blend, without the context
// alpha, unclipped) is rendered as if its device geometry were translated by
// the offset, over a plane that reaches the target's frame plus the kernel
// radius (so casters outside the canvas still shadow into it); it is blurred
// by the shared Gaussian kernel, one horizontal and one vertical pass; then
// composited as a fill of the shadow colour times the context alpha, with
// coverage = blurred alpha x clip, in the op's blend mode.
import PenumbraCore

extension CPUFrame {
    mutating func drawShadow(_ shadow: DeviceShadow, of geometry: Geometry, _ shader: Shader,
                             _ state: CompositeState, clip: CoverageMask?) {
        let kernel = GaussianKernel(sigma: shadow.sigma)
        let frame = target.frame
        let reach = frame.grown(by: kernel.radius)
        let offset = shadow.offset

        // The caster's coverage over `plane` (nil: coverage 1 over the whole plane).
        var plane = reach
        var casterCoverage: CoverageMask?
        switch geometry {
        case .shape(let shape):
            let moved = shape.offsetBy(offset)
            guard let region = Rasterizer.region(of: moved, within: reach) else { return }
            plane = region.grown(by: kernel.radius).intersection(reach)
            casterCoverage = Rasterizer.coverage(of: moved, in: plane)
        case .clipArea(let clipIndex):
            if let clipIndex {
                guard let m = CPUFrame.coverage(ofClip: clipIndex, in: list.clips, offset: offset, within: reach) else { return }
                plane = m.region.grown(by: kernel.radius).intersection(reach)
                casterCoverage = CoverageMask(region: plane, constant: 1).multiplied(by: m)
            }
        case .plane:
            break
        }

        // Alpha = coverage x the paint's alpha, sampled with the paint moved by the offset.
        var alpha = [Float](repeating: 0, count: plane.area)
        var colors = [SIMD4<Float>](repeating: .zero, count: plane.width)
        var row = [Float](repeating: 0, count: plane.width)
        for y in plane.y..<plane.maxY {
            let base = (y - plane.y) * plane.width
            var any = false
            for i in 0..<plane.width {
                let c = casterCoverage.map { $0.values[base + i] } ?? 1
                row[i] = c
                any = any || c > 0
            }
            guard any else { continue }
            colors.withUnsafeMutableBufferPointer { cp in
                row.withUnsafeMutableBufferPointer { rp in
                    shader.shade(y: y, x0: plane.x, count: plane.width, offset: offset,
                                 colors: cp.baseAddress!, coverage: rp.baseAddress!)
                }
            }
            for i in 0..<plane.width where row[i] > 0 { alpha[base + i] = row[i] * colors[i].w }
        }

        let blurred = AlphaPlane(width: plane.width, height: plane.height, values: alpha).blurred(with: kernel)
        let mask = CoverageMask(region: plane, values: blurred.values)
        var region = plane.intersection(frame)
        if let clip { region = region.intersection(clip.region) }
        guard !region.isEmpty else { return }
        composite(region: region, coverage: mask, clip: clip, shader: SolidShader(shadow.color), offset: .zero,
                  alpha: Float(state.alpha), mode: state.blendMode)
    }
}
