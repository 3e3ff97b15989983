// Compositing as the rasterizer resolves: a large shape's coverage arrives as
// its edges sorted by band (Core's ShapeBands), and each row is composited
// the moment it is resolved, from the rasterizer's own row buffers. No mask
// is built, copied or read back, and the cells are cleared as they are read.
// Ranges of bands go to the cores as rows do elsewhere (RowBands): each
// range finds the edges reaching it from above and accumulates on its own
// scratch, so the rows are the ones a walk from the top gives, and every
// pixel gets the composite it would get through a mask (SpanCompositor).
//
// Under a clip, the row's coverage between its first and last span is
// multiplied by the clip's row in one pass and composited between its first
// and last nonzero value: div255(coverage x clip), the product the dense
// path computes (255 x g x c = g x c).
import PenumbraModel
import PenumbraCore

extension CPUFrame {
    /// Composites `shader` through the coverage of `bands` times `clip` over the bands' region
    /// (the plan's: the shape's pixels within the frame and the clip's region), resolving the
    /// bands on every core.
    mutating func composite(bands: ShapeBands, clip: CoverageMask?, shader: Shader, alpha: UInt8, mode: BlendMode) {
        let region = bands.region
        let frame = target.frame, cancellation = self.cancellation
        let workers = min(RowBands.threadCount, region.area / RowBands.parallelThreshold)
        target.bitmap.pixels.withUnsafeMutableBufferPointer { px in
            let pixels = SpanCompositor(pixels: px, frame: frame, shader: shader, alpha: alpha, mode: mode, region: region)
            RowBands.run(rows: 0..<bands.bandCount, bands: workers) { range in
                let scratch = SpanCompositor.Scratch(width: region.width)
                bands.resolve(bands: range) { row in
                    let y = row.y
                    if (y - region.y) % CPUFrame.cancellationRows == 0, cancellation?.isCancelled == true { return false }
                    guard let clip else {
                        pixels.composite(row: row, scratch)
                        return true
                    }
                    // Under a clip: the row's coverage from its first span to its last, densely
                    // (zeros between spans), times the clip's row in one pass, then composited
                    // between its first and last nonzero values, as the dense path does.
                    guard let extent = row.extent else { return true }
                    let cov = UnsafeMutableBufferPointer(start: scratch.clipped, count: extent.count)
                    cov.initialize(repeating: 0)
                    row.forEachSpan { x, count, values, constant in
                        let at = cov.baseAddress! + (x - extent.lowerBound)
                        if let values { at.update(from: values, count: count) } else { at.update(repeating: constant, count: count) }
                    }
                    clip.multiplyRow(y: y, x0: extent.lowerBound, into: cov)
                    var first = 0, last = cov.count
                    while first < last && cov[first] == 0 { first += 1 }
                    guard first < last else { return true }
                    while cov[last - 1] == 0 { last -= 1 }
                    pixels.composite(y: y, x: extent.lowerBound + first, count: last - first, coverage: cov.baseAddress! + first,
                                     constant: 0, scratch)
                    return true
                }
            }
        }
    }
}
