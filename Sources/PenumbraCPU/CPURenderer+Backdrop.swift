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

import PenumbraCore

extension CPUFrame {
    /// The replacement of the target's pixels within `bounds` (device grid, inside the target).
    func backdropReplacement(_ blur: BackdropBlur, _ bounds: PixelRect) -> Bitmap {
        replacement(blur.replacement(of: target.bitmap), bounds)
    }

    /// Writes the target's pixels through `filter` with the alpha of `layer` (just popped) as
    /// the coverage, times the draw's clip, over the draw's region.
    mutating func maskBackdrop(_ filter: BackdropMaskFilter, layer: RenderTarget, _ draw: LoweredDraw) {
        guard let plan = draw.op else { return }
        let region = plan.region
        let placed = replacement(filter.replacement(over: .bitmap(target.bitmap)), region)
        let coverage = CoverageMask(region: region, values: CPUFrame.alpha(of: layer, over: region))
        composite(region: region, coverage: coverage, clip: draw.clip?.mask, shader: makeShader(draw.paint, placed: placed),
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

    /// `graph` (over the target's bitmap) evaluated within `bounds` (device grid, inside the target).
    private func replacement(_ graph: FilterNode, _ bounds: PixelRect) -> Bitmap {
        let frame = target.frame
        let local = PixelRect(x: bounds.x - frame.x, y: bounds.y - frame.y, width: bounds.width, height: bounds.height)
        let evaluator = FilterEvaluator(services: .cpu, maxPixels: Int.max / 4)
        // Cannot fail: no display list is drawn for these filters and the region is within the target.
        return (try? evaluator.render(graph, in: local)) ?? Bitmap(width: bounds.width, height: bounds.height)
    }
}
