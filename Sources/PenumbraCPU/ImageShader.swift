// ImageShader: drawImage's paint, and a layer's, in fixed point. Every device
// pixel's sample position comes from the shared ImageSamplingPlan (Core: the
// inverse transform, the destination rectangle, the nine-slice regions, the
// flip and the shadow offset folded into Q24 affine maps per axis), and the
// four texels around it are mixed with 8-bit bilinear weights and rounded once
// (bilinearMix): the same integers paint.glsl computes. Order: crop (already
// applied to the bitmap), then slice, then template, then flip. `none` reads
// one texel (a pair with weight 0); a mipmapped draw whose plan chose levels
// above 0 reads those pixels from the draw's mip atlas (MipCache: built once
// per image content, kept with the bitmap), the rest from the image.
//
// Template images paint the tint with the sampled alpha, `div255(tint x a)`.
// For shadows only the alpha is needed, and an opaque bitmap is not sampled
// at all: a mix of four alphas of 255 is 255. A plain plan's caster takes the
// row path (its alpha lanes are the per-pixel mix's); others mix per pixel.
import PenumbraModel
import PenumbraCore

struct ImageShader: Shader {
    let bitmap: Bitmap
    /// The mip levels the plan samples (ImageSamplingPlan.mipmaps), nil when none.
    let atlas: Bitmap?
    let plan: ImageSamplingPlan
    /// The template tint, premultiplied U8; nil draws the image's colours.
    let tint: SIMD4<Int32>?
    /// Texels outside the bitmap read as transparent (placed pixels); images clamp inside instead.
    let transparentOutside: Bool
    /// Set by ``preparedForAlpha()``: every texel's alpha is 255.
    private(set) var isKnownOpaque = false
    /// The branch-free row path, for plans of the plain kind (ImageRowSampler.swift).
    let rows: ImageRowSampler?

    /// A drawn image's paint; `rowPath` false keeps every row on the per-pixel path (tests).
    init(_ paint: ImagePaint, rowPath: Bool = true) {
        bitmap = paint.bitmap
        atlas = paint.atlas
        plan = paint.sampling
        tint = paint.tint8.map { SIMD4<Int32>(truncatingIfNeeded: $0) }
        transparentOutside = false
        rows = rowPath ? ImageRowSampler(plan, tinted: tint != nil) : nil
    }

    /// Pixels placed 1:1 on the device grid (a finished layer, a blurred backdrop).
    init(_ paint: PlacedPaint, pixels: Bitmap) {
        bitmap = pixels
        plan = paint.sampling
        atlas = nil
        tint = nil
        transparentOutside = true
        rows = nil
    }

    /// Whether ``shadeOpaqueRun(y:x0:count:into:)`` applies: the row path runs and every texel is
    /// opaque (one scan of the bitmap, made only when it is at most four times the `region` drawn).
    func shadesOpaqueRuns(over region: PixelRect) -> Bool {
        guard rows != nil, bitmap.width * bitmap.height <= 4 * region.area else { return false }
        return bitmap.isOpaque
    }

    /// The row path's colours for pixels `x0..<x0+count` of row `y`, written to `colors` (the
    /// target's pixels, for a fully covered run whose samples are all opaque).
    func shadeOpaqueRun(y: Int, x0: Int, count: Int, into colors: UnsafeMutablePointer<SIMD4<UInt8>>) {
        guard let rows, count > 0 else { return }
        bitmap.pixels.withUnsafeBufferPointer { px in
            rows.shade(y: y, x0: x0, count: count, texels: px.baseAddress!, width: bitmap.width, colors: colors)
        }
    }

    func shade(y: Int, x0: Int, count: Int,
               colors: UnsafeMutablePointer<SIMD4<UInt8>>, coverage: UnsafeMutablePointer<UInt8>) {
        guard count > 0, bitmap.width > 0, bitmap.height > 0 else { return }
        if let rows {
            bitmap.pixels.withUnsafeBufferPointer { px in
                rows.shade(y: y, x0: x0, count: count, texels: px.baseAddress!, width: bitmap.width, colors: colors)
            }
            return
        }
        withGrids { texels, levels in
            for i in 0..<count where coverage[i] > 0 {
                let s = plan.sample(x0 &+ i, y)
                let grid = s.inAtlas ? levels : texels
                if let tint {
                    let a = grid.mixAlpha(s.h, s.v)
                    colors[i] = SIMD4<UInt8>(truncatingIfNeeded: Fixed.div255(tint &* a))
                } else {
                    colors[i] = SIMD4<UInt8>(truncatingIfNeeded: grid.mix(s.h, s.v))
                }
            }
        }
    }

    /// The image's texels and the atlas's (the image's again when there is no atlas).
    @inline(__always)
    private func withGrids<R>(_ body: (TexelGrid, TexelGrid) -> R) -> R {
        bitmap.pixels.withUnsafeBufferPointer { px in
            let texels = TexelGrid(base: px.baseAddress!, width: bitmap.width, height: bitmap.height,
                                   transparentOutside: transparentOutside)
            guard let atlas else { return body(texels, texels) }
            return atlas.pixels.withUnsafeBufferPointer { ap in
                body(texels, TexelGrid(base: ap.baseAddress!, width: atlas.width, height: atlas.height, transparentOutside: false))
            }
        }
    }

    /// This shader with ``isKnownOpaque`` set from one scan of the bitmap.
    func preparedForAlpha() -> Shader {
        var copy = self
        copy.isKnownOpaque = !transparentOutside && bitmap.isOpaque
        return copy
    }

    func shadeAlpha(y: Int, x0: Int, count: Int, coverage: UnsafeMutablePointer<UInt8>,
                    alpha: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<SIMD4<UInt8>>) {
        guard count > 0, bitmap.width > 0, bitmap.height > 0 else { return }
        // The paint's alpha: div255(tint alpha x sampled alpha), or the sampled alpha alone.
        let tintAlpha = tint?.w ?? 255
        if isKnownOpaque {
            for i in 0..<count where coverage[i] > 0 { alpha[i] = CoverageMask.product(coverage[i], UInt8(tintAlpha)) }
            return
        }
        if let rows {
            // The plain plan (no tint): the row path's colours, whose alpha lanes are the
            // per-pixel mixes' (ImageRowKernelTests), then the product with the coverage.
            bitmap.pixels.withUnsafeBufferPointer { px in
                rows.shade(y: y, x0: x0, count: count, texels: px.baseAddress!, width: bitmap.width, colors: scratch)
            }
            for i in 0..<count where coverage[i] > 0 { alpha[i] = CoverageMask.product(coverage[i], scratch[i].w) }
            return
        }
        withGrids { texels, levels in
            for i in 0..<count where coverage[i] > 0 {
                let s = plan.sample(x0 &+ i, y)
                let a = (s.inAtlas ? levels : texels).mixAlpha(s.h, s.v)
                let paint = tint == nil ? a : Fixed.div255(tintAlpha &* a)
                alpha[i] = CoverageMask.product(coverage[i], UInt8(truncatingIfNeeded: paint))
            }
        }
    }
}

/// An RGBA8 bitmap's texels read through a raw pointer, mixed bilinearly in fixed point.
struct TexelGrid {
    let base: UnsafePointer<UInt8>
    let width: Int, height: Int
    let transparentOutside: Bool

    /// The texel at (x, y) as U8 lanes; 0 outside the bitmap when `transparentOutside`.
    @inline(__always)
    func texel(_ x: Int32, _ y: Int32) -> SIMD4<Int32> {
        if transparentOutside, x < 0 || y < 0 || Int(x) >= width || Int(y) >= height { return .zero }
        let bytes = UnsafeRawPointer(base + (Int(y) &* width &+ Int(x)) &* 4).loadUnaligned(as: SIMD4<UInt8>.self)
        return SIMD4<Int32>(truncatingIfNeeded: bytes)
    }

    /// The bilinear mix of the texel pairs `h` (columns) and `v` (rows).
    @inline(__always)
    func mix(_ h: (x0: Int32, x1: Int32, weight: Int32), _ v: (x0: Int32, x1: Int32, weight: Int32)) -> SIMD4<Int32> {
        bilinearMix(texel(h.x0, v.x0), texel(h.x1, v.x0), texel(h.x0, v.x1), texel(h.x1, v.x1), h.weight, v.weight)
    }

    /// The alpha lane of ``mix(_:_:)``.
    @inline(__always)
    func mixAlpha(_ h: (x0: Int32, x1: Int32, weight: Int32), _ v: (x0: Int32, x1: Int32, weight: Int32)) -> Int32 {
        mix(h, v).w
    }
}
