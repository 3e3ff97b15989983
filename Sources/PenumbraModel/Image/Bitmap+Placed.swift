// Bitmap+Placed: one bitmap's pixels placed in the rectangle of another, the
// step filter evaluators take when a result covers less than what was asked
// (the CPU's FilterEvaluator, the GPU's readback of a filter image).

extension Bitmap {
    /// A bitmap covering `region`: these pixels (covering the rectangle `at`) where `at`
    /// overlaps it, transparent elsewhere; this bitmap itself when `at` is `region`.
    package func placed(at: PixelRect, into region: PixelRect) -> Bitmap {
        if at == region { return self }
        var out = Bitmap(width: region.width, height: region.height)
        let overlap = at.intersection(region)
        guard !overlap.isEmpty else { return out }
        out.pixels.withUnsafeMutableBufferPointer { dst in
            pixels.withUnsafeBufferPointer { src in
                let bytes = overlap.width * 4
                for y in overlap.y..<overlap.maxY {
                    let s = ((y - at.y) * at.width + (overlap.x - at.x)) * 4
                    let d = ((y - region.y) * region.width + (overlap.x - region.x)) * 4
                    (dst.baseAddress! + d).update(from: src.baseAddress! + s, count: bytes)
                }
            }
        }
        return out
    }
}
