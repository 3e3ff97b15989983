// SliceAxis: one axis of an image draw's mapping from the destination
// rectangle (user space) to image pixels, for plain and nine-slice images
// (see ImageShader.swift for the sampling). Split out of ImageShader.swift
// unchanged; the plain case is also evaluated inline by ImageShader's fast
// path with the same expression (`d / destination * pixels`).
import PenumbraCore

/// One axis of an image draw: maps a distance into the destination rectangle (user space) to a
/// position in image pixels and the span of texels the sample is clamped to. A plain image is
/// one span scaled to the destination; a nine-slice image has three regions: caps at their
/// natural size (shrunk proportionally when the destination is smaller than both), and a middle
/// that is stretched or tiled from its top-left corner at the image's natural size.
struct SliceAxis {
    struct Sample {
        var position: Double
        var first: Int
        var last: Int
        func clamp(_ i: Int) -> Int { min(last, max(first, i)) }
    }
    let destination: Double
    let pixels: Int
    let scale: Double
    let sliced: Bool
    let mode: ResizingMode
    let leadingPixels: Double, trailingPixels: Double
    let leadingDest: Double, trailingDest: Double

    init(destination: Double, pixels: Int, scale: Double, leadingCap: Double, trailingCap: Double, mode: ResizingMode?) {
        self.destination = destination; self.pixels = pixels; self.scale = scale
        sliced = mode != nil
        self.mode = mode ?? .stretch
        let p = Double(pixels)
        let lp = min(p, max(0, leadingCap * scale)), tp = min(p - lp, max(0, trailingCap * scale))
        leadingPixels = lp; trailingPixels = tp
        var ld = lp / scale, td = tp / scale
        if ld + td > destination, ld + td > 0 {
            let k = destination / (ld + td); ld *= k; td *= k
        }
        leadingDest = ld; trailingDest = td
    }

    func sample(_ d: Double) -> Sample {
        let p = Double(pixels)
        guard sliced else {
            return Sample(position: d / destination * p, first: 0, last: pixels - 1)
        }
        if d < leadingDest {
            return region(d, destStart: 0, destLength: leadingDest, pixelStart: 0, pixelLength: leadingPixels, tile: false)
        }
        if d >= destination - trailingDest {
            return region(d, destStart: destination - trailingDest, destLength: trailingDest,
                          pixelStart: p - trailingPixels, pixelLength: trailingPixels, tile: false)
        }
        return region(d, destStart: leadingDest, destLength: destination - leadingDest - trailingDest,
                      pixelStart: leadingPixels, pixelLength: p - leadingPixels - trailingPixels, tile: mode == .tile)
    }

    private func region(_ d: Double, destStart: Double, destLength: Double, pixelStart: Double, pixelLength: Double,
                        tile: Bool) -> Sample {
        let first = Int(pixelStart.rounded(.down))
        let count = max(1, Int((pixelStart + pixelLength).rounded(.up)) - first)
        let last = min(pixels - 1, first + count - 1)
        guard pixelLength > 0, destLength > 0 else {
            return Sample(position: pixelStart, first: min(first, pixels - 1), last: max(0, last))
        }
        let local = d - destStart
        if tile {
            let tileLength = pixelLength / scale
            let within = local - (local / tileLength).rounded(.down) * tileLength
            return Sample(position: pixelStart + within * scale, first: first, last: last)
        }
        return Sample(position: pixelStart + local / destLength * pixelLength, first: first, last: last)
    }
}
