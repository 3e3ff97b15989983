// ImageSampling: the arithmetic of ImageShader, per pixel, with every value
// bit-identical to the definition (ImageShader.swift's header):
//
//   local  = inverse.apply(centre) - rect.min   (x mirrored as width - x when flipped)
//   pos    = local / destination * pixels       (a plain axis; SliceAxis otherwise)
//   f      = pos - 0.5,  i = floor(f),  t = Float(f - i)
//   colour = (t00 (1 - tx) + t10 tx) (1 - ty) + (t01 (1 - tx) + t11 tx) ty,  texel = byte / 255
//
// Each pixel is one straight-line pass over scalars (measured faster here than
// batching pixels or pairing x and y in SIMD2<Double>: the loop is bound by
// instruction count, and SSE2 has no cheap 64-bit integer lanes).
//
// Exact shortcuts, each giving the definition's f bit for bit:
// - the floor of |f| < 2^30 by truncation and a correction, with no library
//   call; other positions (huge, infinite or NaN) take `exactFootprint`, which
//   recomputes the definition's position and traps where its Int(floor(f)) does;
// - when an axis's destination size is a power of two 2^k (|k| <= 64), x / 2^k
//   is exact whenever the result is a normal number, so (x / 2^k) * p and
//   x * (p / 2^k) are the same single rounding of x p 2^-k (p / 2^k is exact).
//   Where x / 2^k would be subnormal, |x| < 2^-958 and both positions are below
//   2^-800, so f = pos - 0.5 rounds to exactly -0.5 either way; where either
//   form overflows, |f| is far above 2^30 and `exactFootprint` decides.
import PenumbraCore

/// A pixel's 2 x 2 texel footprint: byte offsets of its two rows and two columns, and weights.
struct TexelFootprint {
    var row0: Int, row1: Int, column0: Int, column1: Int
    var tx: Float, ty: Float
}

/// Maps pixel columns of one row of a plain (not nine-sliced) image draw to texel footprints.
struct PlainFootprints {
    let mapping: ImageRowMapping
    let lastColumn: Int, lastRow: Int, rowBytes: Int
    /// True when both destination sizes are powers of two: positions are `local * scale`.
    let powerOfTwo: Bool
    let scaleX: Double, scaleY: Double

    @inline(__always)
    init(_ mapping: ImageRowMapping, width: Int, height: Int) {
        self.mapping = mapping
        lastColumn = width - 1; lastRow = height - 1; rowBytes = width * 4
        powerOfTwo = isModestPowerOfTwo(mapping.destinationWidth) && isModestPowerOfTwo(mapping.destinationHeight)
        scaleX = mapping.pixelsWide / mapping.destinationWidth; scaleY = mapping.pixelsHigh / mapping.destinationHeight
    }

    /// `f = position - 0.5` of the pixel centre in column `x`, on each axis (the shortcut's value).
    @inline(__always)
    func offsetPosition(_ x: Int) -> (Double, Double) {
        let (lx, ly) = mapping.local(x)
        if powerOfTwo { return (lx * scaleX - 0.5, ly * scaleY - 0.5) }
        return (lx / mapping.destinationWidth * mapping.pixelsWide - 0.5,
                ly / mapping.destinationHeight * mapping.pixelsHigh - 0.5)
    }

    /// The footprint of the pixel centre in column `x`.
    @inline(__always)
    func footprint(_ x: Int) -> TexelFootprint {
        let (fx, fy) = offsetPosition(x)
        guard abs(fx) < 0x1p30, abs(fy) < 0x1p30 else { return exactFootprint(x) }
        let (ix, tx) = floorSplit(fx), (iy, ty) = floorSplit(fy)
        return footprint(ix: ix, iy: iy, tx: tx, ty: ty)
    }

    /// The footprint by the definition's own expressions (far, infinite or NaN positions).
    @inline(never)
    func exactFootprint(_ x: Int) -> TexelFootprint {
        let (lx, ly) = mapping.local(x)
        let px = lx / mapping.destinationWidth * mapping.pixelsWide, py = ly / mapping.destinationHeight * mapping.pixelsHigh
        let (ix, tx) = floorSplit(px - 0.5), (iy, ty) = floorSplit(py - 0.5)
        return footprint(ix: ix, iy: iy, tx: tx, ty: ty)
    }

    @inline(__always)
    func footprint(ix: Int, iy: Int, tx: Float, ty: Float) -> TexelFootprint {
        let x0 = min(lastColumn, max(0, ix)), x1 = min(lastColumn, max(0, ix &+ 1))
        let y0 = min(lastRow, max(0, iy)), y1 = min(lastRow, max(0, iy &+ 1))
        return TexelFootprint(row0: y0 &* rowBytes, row1: y1 &* rowBytes, column0: x0 &* 4, column1: x1 &* 4,
                              tx: tx, ty: ty)
    }
}

/// True for 2^k with |k| <= 64.
@inline(__always)
func isModestPowerOfTwo(_ v: Double) -> Bool {
    v > 0 && v.significand == 1 && v.exponent >= -64 && v.exponent <= 64
}

extension TexelGrid {
    /// The bilinear mix of a footprint's four texels.
    @inline(__always)
    func mix(_ p: TexelFootprint) -> SIMD4<Float> {
        let tx = p.tx, ty = p.ty
        let top = texel(at: p.row0 &+ p.column0) * (1 - tx) + texel(at: p.row0 &+ p.column1) * tx
        let bottom = texel(at: p.row1 &+ p.column0) * (1 - tx) + texel(at: p.row1 &+ p.column1) * tx
        return top * (1 - ty) + bottom * ty
    }

    /// The alpha lane of ``mix(_:)`` alone.
    @inline(__always)
    func mixAlpha(_ p: TexelFootprint) -> Float {
        let tx = p.tx, ty = p.ty
        @inline(__always) func alpha(_ offset: Int) -> Int32 { Int32(base[offset &+ 3]) }
        let a = SIMD4<Float>(SIMD4<Int32>(alpha(p.row0 &+ p.column0), alpha(p.row0 &+ p.column1),
                                          alpha(p.row1 &+ p.column0), alpha(p.row1 &+ p.column1))) / 255
        let top = a[0] * (1 - tx) + a[1] * tx
        let bottom = a[2] * (1 - tx) + a[3] * tx
        return top * (1 - ty) + bottom * ty
    }

    /// The texel at byte offset `offset`, each byte divided by 255 (unitTexel's rule).
    @inline(__always)
    func texel(at offset: Int) -> SIMD4<Float> {
        let bytes = UnsafeRawPointer(base + offset).loadUnaligned(as: SIMD4<UInt8>.self)
        return SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: bytes)) / 255
    }
}

extension ImageShader {
    /// Plain image: each covered pixel's footprint, then its colour.
    @inline(__always)
    func shadePlain(_ footprints: PlainFootprints, _ texels: TexelGrid, x0: Int, count: Int,
                    colors: UnsafeMutablePointer<SIMD4<Float>>, coverage: UnsafeMutablePointer<Float>) {
        if let tint {
            for i in 0..<count where coverage[i] > 0 { colors[i] = tint * texels.mixAlpha(footprints.footprint(x0 &+ i)) }
        } else {
            for i in 0..<count where coverage[i] > 0 { colors[i] = texels.mix(footprints.footprint(x0 &+ i)) }
        }
    }

    /// Plain image, alpha only: `alpha[i] = coverage[i] * tintAlpha * sampled alpha` (or without
    /// the tint factor when `tinted` is false).
    @inline(__always)
    func shadePlainAlpha(_ footprints: PlainFootprints, _ texels: TexelGrid, x0: Int, count: Int,
                         coverage: UnsafeMutablePointer<Float>, alpha: UnsafeMutablePointer<Float>,
                         tinted: Bool, tintAlpha: Float) {
        for i in 0..<count where coverage[i] > 0 {
            let a = texels.mixAlpha(footprints.footprint(x0 &+ i))
            alpha[i] = coverage[i] * (tinted ? tintAlpha * a : a)
        }
    }
}
