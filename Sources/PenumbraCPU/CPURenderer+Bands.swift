// Compositing as the rasterizer resolves: a large shape's coverage arrives as
// its edges sorted by band (Core's ShapeBands), and each row is composited
// the moment it is resolved, from the rasterizer's own row buffers. No mask
// is built, copied or read back, and the cells are cleared as they are read.
// Ranges of bands go to the cores as rows do elsewhere (RowBands): each
// range finds the edges reaching it from above and accumulates on its own
// scratch, so the rows are the ones a walk from the top gives, and every
// pixel gets the composite it would get through a mask (SpanCompositor).
//
// Under a clip, the row's spans are multiplied by the clip's row's spans
// (ClippedSpans.swift): div255(coverage x clip) per pixel, constant where both
// are, with no dense row built.
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
                    // Under a clip: the row's spans times the clip's (ClippedSpans.swift).
                    row.collectSpans(into: &scratch.geometrySpans)
                    clip.withSpans(inRow: y, from: region.x, to: region.maxX, collectingInto: &scratch.clipSpans) {
                        pixels.composite(y: y, geometry: scratch.geometrySpans, clip: $0, originX: region.x, scratch)
                    }
                    return true
                }
            }
        }
    }
}
