// A verbatim copy of the image shader as it was before it was optimised (one
// SliceAxis.sample call, one bilinear call and a buffer-checked texel read per
// pixel): the reference ImageShaderIdentityTests hold the fast shader to, bit
// for bit. Only the names differ. Do not "improve" this file.
import PenumbraModel
import PenumbraCore

struct ReferenceImageShader {
    let draw: ImageDraw
    let inverse: AffineTransform
    let horizontal: ReferenceSliceAxis
    let vertical: ReferenceSliceAxis
    let tint: SIMD4<Float>?

    init(_ draw: ImageDraw) {
        self.draw = draw
        inverse = draw.transform.inverted() ?? .identity
        let s = draw.scale, bw = draw.bitmap.width, bh = draw.bitmap.height
        let insets = draw.slicing?.capInsets ?? .zero
        let mode = draw.slicing?.mode
        horizontal = ReferenceSliceAxis(destination: draw.rect.width, pixels: bw, scale: s,
                               leadingCap: insets.left, trailingCap: insets.right, mode: mode)
        vertical = ReferenceSliceAxis(destination: draw.rect.height, pixels: bh, scale: s,
                             leadingCap: insets.top, trailingCap: insets.bottom, mode: mode)
        tint = draw.tint.map { SIMD4<Float>($0.premultiplied) }
    }

    func shade(y: Int, x0: Int, count: Int, offset: Point,
               colors: UnsafeMutablePointer<SIMD4<Float>>, coverage: UnsafeMutablePointer<Float>) {
        let rect = draw.rect
        draw.bitmap.pixels.withUnsafeBufferPointer { px in
            for i in 0..<count where coverage[i] > 0 {
                let device = Point(Double(x0 + i) + 0.5 - offset.x, Double(y) + 0.5 - offset.y)
                let user = inverse.apply(device)
                var lx = user.x - rect.minX
                if draw.flippedHorizontally { lx = rect.width - lx }
                let sx = horizontal.sample(lx), sy = vertical.sample(user.y - rect.minY)
                let c = bilinear(px, sx, sy)
                colors[i] = tint.map { $0 * c.w } ?? c
            }
        }
    }

    /// Bilinear sample in float, clamped to the edge texels of each axis's span.
    private func bilinear(_ px: UnsafeBufferPointer<UInt8>, _ sx: ReferenceSliceAxis.Sample, _ sy: ReferenceSliceAxis.Sample) -> SIMD4<Float> {
        let fx = sx.position - 0.5, fy = sy.position - 0.5
        let ix = fx.rounded(.down), iy = fy.rounded(.down)
        let tx = Float(fx - ix), ty = Float(fy - iy)
        let x0 = sx.clamp(Int(ix)), x1 = sx.clamp(Int(ix) + 1)
        let y0 = sy.clamp(Int(iy)), y1 = sy.clamp(Int(iy) + 1)
        let w = draw.bitmap.width
        @inline(__always) func texel(_ x: Int, _ y: Int) -> SIMD4<Float> { unitTexel(px, at: (y * w + x) * 4) }
        let top = texel(x0, y0) * (1 - tx) + texel(x1, y0) * tx
        let bottom = texel(x0, y1) * (1 - tx) + texel(x1, y1) * tx
        return top * (1 - ty) + bottom * ty
    }
}

/// One axis of an image draw: maps a distance into the destination rectangle (user space) to a
/// position in image pixels and the span of texels the sample is clamped to. A plain image is
/// one span scaled to the destination; a nine-slice image has three regions: caps at their
/// natural size (shrunk proportionally when the destination is smaller than both), and a middle
/// that is stretched or tiled from its top-left corner at the image's natural size.
struct ReferenceSliceAxis {
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
