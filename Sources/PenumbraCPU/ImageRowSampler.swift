// ImageRowSampler: the common image draw (no nine-slice, no tint, bilinear
// at level 0, clamped at the bitmap's edges) sampled a row at a time with no
// per-pixel decision. ImageSamplingPlan's Q24 positions are affine in the
// device pixel and wrap in 64 bits, so stepping them by stepX from the row's
// first pixel gives exactly `map.at(x, y)` at every pixel, with one addition
// instead of two products; the region choice, the mip level and the
// clamping bounds are the same for every pixel of such a plan, so they are
// decided once per draw. Every pixel of the row is shaded (the colours of
// pixels with no coverage are never read), so the loop has no branch. The
// bytes are those of ImageShader's per-pixel path by construction: the same
// integers, the same `FixedImageAxis.pair` clamp and `bilinearMix` (its
// multiply-saving form, an integer identity).
import PenumbraCore

struct ImageRowSampler {
    let horizontal: FixedAffine, vertical: FixedAffine
    let columns: (first: Int32, last: Int32), rows: (first: Int32, last: Int32)

    /// The sampler of an image's `plan`, nil unless the plan is the plain case (placed pixels,
    /// which read as transparent outside, never take it).
    init?(_ plan: ImageSamplingPlan, tinted: Bool) {
        guard !tinted, !plan.nearest, plan.levels[4].level == 0 else { return nil }
        let h = plan.horizontal, v = plan.vertical
        func plain(_ axis: FixedImageAxis) -> Bool {
            axis.leadingEnd == .min && axis.trailingStart == .max && axis.regions[1].tile == 0
        }
        guard plain(h), plain(v) else { return nil }
        horizontal = h.regions[1].map; vertical = v.regions[1].map
        columns = (h.regions[1].first, h.regions[1].last); rows = (v.regions[1].first, v.regions[1].last)
    }

    /// Shades pixels x0..<x0+count of row y from `texels` (RGBA8, `width` texels a row).
    @inline(__always)
    func shade(y: Int, x0: Int, count: Int, texels: UnsafePointer<UInt8>, width: Int,
               colors: UnsafeMutablePointer<SIMD4<UInt8>>) {
        var qx = horizontal.at(x0, y), qy = vertical.at(x0, y)
        let stepX = horizontal.stepX, stepY = vertical.stepX
        let stride = width &* 4
        for i in 0..<count {
            let h = FixedImageAxis.pair(qx, columns.first, columns.last)
            let v = FixedImageAxis.pair(qy, rows.first, rows.last)
            let top = texels + Int(v.x0) &* stride, bottom = texels + Int(v.x1) &* stride
            let x0 = Int(h.x0) &* 4, x1 = Int(h.x1) &* 4
            func texel(_ row: UnsafePointer<UInt8>, _ x: Int) -> SIMD4<Int32> {
                SIMD4<Int32>(truncatingIfNeeded: UnsafeRawPointer(row + x).loadUnaligned(as: SIMD4<UInt8>.self))
            }
            // bilinearMix rewritten as t00 (256 - w) + t10 w = 256 t00 + w (t10 - t00), per axis:
            // the same integers (no term leaves 32 bits) with half the multiplies.
            let t00 = texel(top, x0), t10 = texel(top, x1), t01 = texel(bottom, x0), t11 = texel(bottom, x1)
            let upper = t00 &<< 8 &+ (t10 &- t00) &* h.weight, lower = t01 &<< 8 &+ (t11 &- t01) &* h.weight
            colors[i] = SIMD4<UInt8>(truncatingIfNeeded: (upper &<< 8 &+ (lower &- upper) &* v.weight &+ 32768) &>> 16)
            qx &+= stepX; qy &+= stepY
        }
    }
}
