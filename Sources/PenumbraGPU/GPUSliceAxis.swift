// GPUSliceAxis: one axis of an image draw, resolved in Double exactly as the
// CPU's SliceAxis (PenumbraCPU/ImageShader.swift) into what paint.glsl needs:
// per region (leading cap, middle, trailing cap) its destination start and
// length, pixel start and length, the span of texels it clamps to, whether it
// tiles, and whether it is degenerate (sampled at its pixel start).
import PenumbraCore

struct GPUSliceAxis {
    /// One region: `floats` = (destStart, destLength, pixelStart, pixelLength),
    /// `ints` = (first, last, tile, degenerate).
    struct Region {
        var floats: SIMD4<Float>
        var ints: SIMD4<Int32>
    }
    let destination: Double
    let pixels: Int
    let sliced: Bool
    let leadingDest: Double, trailingDest: Double
    let regions: [Region]

    init(destination: Double, pixels: Int, scale: Double, leadingCap: Double, trailingCap: Double, mode: ResizingMode?) {
        self.destination = destination; self.pixels = pixels
        sliced = mode != nil
        let p = Double(pixels)
        let lp = min(p, max(0, leadingCap * scale)), tp = min(p - lp, max(0, trailingCap * scale))
        var ld = lp / scale, td = tp / scale
        if ld + td > destination, ld + td > 0 {
            let k = destination / (ld + td); ld *= k; td *= k
        }
        leadingDest = ld; trailingDest = td
        func region(destStart: Double, destLength: Double, pixelStart: Double, pixelLength: Double, tile: Bool) -> Region {
            let first = Int(pixelStart.rounded(.down))
            let count = max(1, Int((pixelStart + pixelLength).rounded(.up)) - first)
            let last = min(pixels - 1, first + count - 1)
            let floats = SIMD4<Float>(Float(destStart), Float(destLength), Float(pixelStart), Float(pixelLength))
            guard pixelLength > 0, destLength > 0 else {
                return Region(floats: floats, ints: SIMD4(Int32(min(first, pixels - 1)), Int32(max(0, last)), 0, 1))
            }
            return Region(floats: floats, ints: SIMD4(Int32(first), Int32(last), tile ? 1 : 0, 0))
        }
        regions = [
            region(destStart: 0, destLength: ld, pixelStart: 0, pixelLength: lp, tile: false),
            region(destStart: ld, destLength: destination - ld - td, pixelStart: lp, pixelLength: p - lp - tp,
                   tile: mode == .tile),
            region(destStart: destination - td, destLength: td, pixelStart: p - tp, pixelLength: tp, tile: false),
        ]
    }
}
