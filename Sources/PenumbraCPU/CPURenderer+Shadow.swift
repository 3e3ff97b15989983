// Shadows on the CPU, executing the shared ShadowPlan (DrawPlan.swift): the op's
// alpha (coverage times paint alpha, before the blend, without the context
// alpha, unclipped) is rendered as if its device geometry were translated by
// the offset, over the plan's plane (the blur's region of interest for the
// pixels the shadow may change); the shadow's filter graph is evaluated on it
// by the FilterEvaluator (FilterEvaluator+Alpha.swift: the graph's gaussianBlur, one
// horizontal and one vertical pass of the shared integer kernel, in place);
// then composited as a fill of the shadow colour times the context alpha,
// with coverage = blurred alpha x clip, in the op's blend mode.
//
// The caster's alpha is computed by the shader's alpha-only path
// (Shader.shadeAlpha), only between each row's first and last covered pixel.
// Rows are independent: on a large plane they are split in bands over the
// cores (RowBands), each with its own scratch rows, and every value is
// computed by the same code whichever thread runs it, so the plane is
// identical. The planes come from ShadowScratch (pages already mapped); the
// caster writes every value of its plane, zeroing each row just before
// filling it.
import PenumbraModel
import PenumbraCore

extension CPUFrame {
    /// `shader`: the op's paint moved by the shadow's offset.
    mutating func drawShadow(_ shadow: LoweredShadow, _ shader: Shader, alpha8: UInt8, mode: BlendMode, clip: CoverageMask?) {
        let plan = shadow.plan, plane = plan.plane
        var values = ShadowScratch.planes.take(count: plane.area)
        let cancellation = self.cancellation
        values.withUnsafeMutableBufferPointer { values in
            CasterAlpha(plan: plan, shader: shader.preparedForAlpha(), values: values.baseAddress!, cancellation: cancellation).run()
        }
        guard cancellation?.isCancelled != true else { return ShadowScratch.planes.give(values) }
        var services = FilterServices.cpu
        services.blurAlpha = { plane, width, height, kernel in
            if cancellation?.isCancelled != true { kernel.blurPlane(plane, width: width, height: height) }
        }
        let evaluator = FilterEvaluator(services: services, maxPixels: Int.max / 4)
        // Cannot fail: the graph is a blur of its source, which covers the region it reads.
        guard let alpha = try? evaluator.executeAlpha(plan.lowered, input: AlphaImage(rect: plane, values: values)) else {
            return assertionFailure("a shadow's graph failed on the CPU")
        }
        if cancellation?.isCancelled != true {
            let mask = CoverageMask(region: alpha.rect, values: alpha.values)
            composite(region: plan.compositeRegion, coverage: mask, clip: clip, shader: SolidShader(premultiplied8: shadow.color8),
                      alpha: alpha8, mode: mode)
        }
        ShadowScratch.planes.give(alpha.values)
    }
}

/// Renders a shadow caster's alpha (coverage x paint alpha, paint moved by the offset) into a
/// U8 plane of `plan.plane`'s size, row by row, writing every value (zero where nothing is
/// cast): `div255(coverage x paint alpha)`, the shader's alpha path.
struct CasterAlpha {
    let plan: ShadowPlan
    let shader: Shader
    let values: UnsafeMutablePointer<UInt8>
    /// Looked at every `CPUFrame.cancellationRows` rows; once set, the remaining rows are left.
    var cancellation: RenderCancellation? = nil
    /// Bands of rows to split the plane into, one thread each; nil lets RowBands choose by size.
    var threads: Int? = nil

    func run() {
        let plane = plan.plane
        if let threads {
            RowBands.run(rows: 0..<plane.height, bands: threads) { self.rows($0) }
        } else {
            RowBands.run(rows: 0..<plane.height, pixels: plane.area) { self.rows($0) }
        }
    }

    /// Rows `rows` of the plane (relative to its top).
    private func rows(_ rows: Range<Int>) {
        let plane = plan.plane, width = plane.width, caster = plan.casterCoverage
        let coverage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: width)
        let scratch = UnsafeMutablePointer<SIMD4<UInt8>>.allocate(capacity: width)
        defer { coverage.deallocate(); scratch.deallocate() }
        for row in rows {
            if (row - rows.lowerBound) % CPUFrame.cancellationRows == 0, cancellation?.isCancelled == true { return }
            let y = plane.y + row, output = values + row * width
            output.initialize(repeating: 0, count: width)
            CPUFrame.coverageRow(y: y, x0: plane.x, width: width, coverage: caster, into: coverage)
            var lo = 0, hi = width
            while lo < hi && coverage[lo] == 0 { lo += 1 }
            guard lo < hi else { continue }
            while coverage[hi - 1] == 0 { hi -= 1 }
            shader.shadeAlpha(y: y, x0: plane.x + lo, count: hi - lo,
                              coverage: coverage.baseAddress! + lo, alpha: output + lo, scratch: scratch)
        }
    }
}
