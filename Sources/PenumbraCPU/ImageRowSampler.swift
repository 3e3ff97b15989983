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
//
// Where the CPU runs AVX2, whole groups of eight pixels go to CSampleKernels'
// 256-bit kernel (penumbra_sample.c: the same integers, each texel pair made
// adjacent so one load reads it), the rest of the row to the Swift loop;
// `PENUMBRA_IMAGE_ROWS=portable` keeps every pixel on the Swift loop (to time
// both in one binary), and ImageRowKernelTests compares the two.
import CSampleKernels
import PenumbraModel
import PenumbraCore

extension VectorCode {
    /// The code of the row sampler's groups of eight pixels (CSampleKernels' for AVX2), decided
    /// once per process; `PENUMBRA_IMAGE_ROWS=portable` picks the Swift loop.
    static let imageRows = fastest(unless: "PENUMBRA_IMAGE_ROWS")
}

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

    /// A sampler of the given maps and clamping bounds (tests).
    init(horizontal: FixedAffine, vertical: FixedAffine, columns: (first: Int32, last: Int32), rows: (first: Int32, last: Int32)) {
        self.horizontal = horizontal; self.vertical = vertical; self.columns = columns; self.rows = rows
    }

    /// Shades pixels x0..<x0+count of row y from `texels` (RGBA8, `width` texels a row).
    @inline(__always)
    func shade(y: Int, x0: Int, count: Int, texels: UnsafePointer<UInt8>, width: Int,
               colors: UnsafeMutablePointer<SIMD4<UInt8>>, code: VectorCode = .imageRows) {
        var qx = horizontal.at(x0, y), qy = vertical.at(x0, y)
        let stepX = horizontal.stepX, stepY = vertical.stepX
        var first = 0
        if code == .avx2, count >= 8, vectorFits(qx, qy, groups: count >> 3, texelBytes: width &* (Int(rows.last) &+ 1) &* 4) {
            first = count & ~7
            penumbra_sample_row_avx2(texels, width, qx, qy, stepX, stepY, columns.first, columns.last, rows.first, rows.last,
                                     first, UnsafeMutableRawPointer(colors).assumingMemoryBound(to: UInt8.self))
            qx = horizontal.at(x0 &+ first, y); qy = vertical.at(x0 &+ first, y)
        }
        let stride = width &* 4
        for i in first..<count {
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

    /// Whether the kernel's conditions hold for `groups` groups of eight from (qx, qy): at least
    /// two texels each way (its pairs are adjacent), texel offsets within 31 bits, and every
    /// position's integer part within [-2^22, 2^22), checked at both ends (positions are affine).
    private func vectorFits(_ qx: Int64, _ qy: Int64, groups: Int, texelBytes: Int) -> Bool {
        guard columns.first < columns.last, rows.first < rows.last, texelBytes < Int(Int32.max) - 8 else { return false }
        let limit: Int64 = 1 << 46, span = Int64(groups * 8 - 1)
        func inRange(_ q: Int64, _ step: Int64) -> Bool {
            let (move, o1) = step.multipliedReportingOverflow(by: span)
            let (last, o2) = q.addingReportingOverflow(move)
            return !o1 && !o2 && q >= -limit && q < limit && last >= -limit && last < limit
        }
        return inRange(qx, horizontal.stepX) && inRange(qy, vertical.stepX)
    }
}
