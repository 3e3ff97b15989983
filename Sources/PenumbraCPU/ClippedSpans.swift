// Clipped spans: a draw's coverage under a clip, composited as spans. The
// coverage of a pixel under a clip is div255(geometry x clip); both are
// sparse rows of spans (a shape's resolved row or mask row, the clip's mask
// row), so their product is too: where a constant span of one meets a
// constant span of the other the product is one constant, and where either
// is explicit the products are computed for that overlap only. Outside both
// there is nothing to composite. Every pixel gets the coverage of a dense row
// multiplied by the clip's (255 x g x c = g x c), and the composite is the
// same per pixel whatever the runs (SpanCompositor), so the bytes are those
// of the dense row's composite, without building the row.
//
// Which runs reach the compositor: a constant product stays a run of its own
// where the compositor does less with it than with values (a solid colour's
// constant run, a fill when opaque at 255; an opaque image's fully covered
// run, written straight from the sampler). For other paints (gradients,
// translucent images, layers) a shader call per run costs more than it
// saves, so neighbouring products (gaps of fewer than `joinGap` pixels
// filled with 0, which composites nothing) are joined into one run of values.
import PenumbraModel
import PenumbraCore

extension SpanCompositor {
    /// Gaps between two products, in pixels, below which they are composited as one run of
    /// values (the gap's coverage 0) rather than two shader calls.
    static let joinGap = 32

    /// Composites row `y` with the product of `geometry` and `clip` (each the row's spans, left to
    /// right, non-overlapping): div255(g x c) per pixel. Products are written to `scratch.clipped`
    /// at their column from `originX` (the region's first column, at or left of every span).
    func composite(y: Int, geometry: [RowSpan], clip: [RowSpan], originX: Int, _ scratch: Scratch) {
        let values = scratch.clipped - originX  // values[x]: the product at device column x
        var runStart = 0, runEnd = 0  // a run of values not yet composited, when runEnd > runStart
        func flush() {
            if runEnd > runStart { composite(y: y, x: runStart, count: runEnd - runStart, coverage: values + runStart, constant: 0, scratch) }
            runStart = 0; runEnd = 0
        }
        var i = 0, j = 0
        while i < geometry.count && j < clip.count {
            let g = geometry[i], c = clip[j]
            let gEnd = g.x + g.count, cEnd = c.x + c.count
            let start = max(g.x, c.x), end = min(gEnd, cEnd)
            if gEnd <= cEnd { i += 1 } else { j += 1 }
            guard start < end else { continue }
            // Both constant: one product for the whole overlap.
            let constant = g.values == nil && c.values == nil ? CoverageMask.product(g.constant, c.constant) : nil
            if let constant {
                if constant == 0 { continue }
                if solid != nil || (constant == 255 && opaqueImage != nil) {
                    flush()
                    composite(y: y, x: start, count: end - start, coverage: nil, constant: constant, scratch)
                    continue
                }
            }
            if runEnd > runStart && start - runEnd < SpanCompositor.joinGap {
                for x in runEnd..<start { values[x] = 0 }
            } else {
                flush()
                runStart = start
            }
            switch (g.values, c.values) {
            case (nil, nil):
                let value = constant ?? 0
                for x in start..<end { values[x] = value }
            case (let gv?, nil):
                for x in start..<end { values[x] = CoverageMask.product(gv[x - g.x], c.constant) }
            case (nil, let cv?):
                for x in start..<end { values[x] = CoverageMask.product(g.constant, cv[x - c.x]) }
            case (let gv?, let cv?):
                for x in start..<end { values[x] = CoverageMask.product(gv[x - g.x], cv[x - c.x]) }
            }
            runEnd = end
        }
        flush()
    }
}
