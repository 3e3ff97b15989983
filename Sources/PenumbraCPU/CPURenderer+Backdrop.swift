// The CPU's `blurBackdrop` (BackdropBlur.swift): the replacement is computed
// by Core's filter graph from the current target over the bounds the draw
// stream gives (the shape's pixels within the target; each output pixel
// reads only its kernel's reach, so a small glass panel blurs only its own
// neighbourhood). The stream's draw then places it 1:1 at those bounds and
// writes it with `copy` under the shape's coverage times the clip.
//
// A layer ended as a backdrop mask (BackdropMask.swift) goes the same way:
// the filtered backdrop over the draw's region (the layer's frame within the
// target and the clip), placed 1:1 there and written with `copy` through the
// composite's coverage x clip, its coverage the layer's alpha bytes over that
// region (a dense CoverageMask).

import PenumbraModel
import PenumbraCore

extension CPUFrame {
    /// The pixels of a backdrop's replacement (its passes over the current target).
    func backdropReplacement(_ replacement: FilterPlan) -> Bitmap {
        let frame = target.frame
        let whole = PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
        let evaluator = FilterEvaluator(services: .cpu, maxPixels: Int.max / 4)
        // Cannot fail but by cancellation (no display list is drawn for these filters, the
        // regions are within the target), which the render reports after the step.
        return (try? evaluator.execute(replacement, input: FilterEvaluator.Pixels(target.bitmap, rect: whole)))
            ?? Bitmap(width: replacement.region.width, height: replacement.region.height)
    }

    /// Writes the target's pixels through the mask's filter (`replacement`, over the draw's
    /// region) with the alpha of `layer` (just popped) as the coverage, times the draw's clip.
    mutating func maskBackdrop(_ replacement: FilterPlan, layer: RenderTarget, _ draw: LoweredDraw) {
        guard let plan = draw.op else { return }
        let region = plan.region
        let placed = backdropReplacement(replacement)
        let coverage = CoverageMask(region: region, values: CPUFrame.alpha(of: layer, over: region))
        composite(region: region, coverage: coverage, clip: draw.clip?.coverage.mask, shader: makeShader(draw.paint, placed: placed),
                  alpha: draw.alpha8, mode: draw.mode)
    }

    /// The alpha bytes of `layer` over `region` (device grid), row-major; 0 outside its frame.
    static func alpha(of layer: RenderTarget, over region: PixelRect) -> [UInt8] {
        var values = [UInt8](repeating: 0, count: region.area)
        let inside = region.intersection(layer.frame)
        guard !inside.isEmpty else { return values }
        let frame = layer.frame, pixels = layer.bitmap.pixels
        for y in inside.y..<inside.maxY {
            let source = ((y - frame.y) * frame.width - frame.x) * 4 + 3, out = (y - region.y) * region.width - region.x
            for x in inside.x..<inside.maxX { values[out + x] = pixels[source + x * 4] }
        }
        return values
    }
}
