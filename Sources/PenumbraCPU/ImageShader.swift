// ImageShader: drawImage's paint. Each covered pixel centre is mapped back
// through the inverse transform into the destination rectangle, then into
// image pixels, and sampled bilinearly in floating point with texel centres
// at +0.5, clamped to the edge texels of the image (or, for a nine-slice
// image, of the region or tile the point falls in: each of the nine regions
// is sampled as an image of its own, as UIKit draws them). Order: crop
// (already applied to the bitmap), then slice, then template, then flip.
//
// Speed without changing a bit: everything that does not vary along a row is
// computed once per row (the inverse transform's y terms, the rectangle's
// edges), and each pixel then evaluates exactly the expressions of the
// definition, in the same order and precision: `a * x + c * y + tx` with
// `c * y` hoisted (the same product), `d / destination * pixels` for a plain
// axis (a nine-slice axis goes through SliceAxis.sample), the floor by
// truncation (exact), texels read through a raw pointer as 4 bytes and
// divided by 255 (unitTexel's rule), and the bilinear mix
// `(t00 (1 - tx) + t10 tx) (1 - ty) + (t01 (1 - tx) + t11 tx) ty` in Float.
// ImageShaderIdentityTests compares this, bit for bit, with a verbatim copy of
// the straightforward shader over random draws of every kind.
//
// Shadows only need the paint's alpha (`shadeAlpha`): the alpha channel alone
// is mixed, and for a fully opaque bitmap not even that: a bilinear mix of
// four alphas of exactly 1 is exactly 1 (with s = fl(1 - t), s + t differs
// from 1 by at most 2^-25, which rounds back to 1), so the alpha is the
// coverage times the tint's alpha (or times 1).
import PenumbraCore

struct ImageShader: Shader {
    let draw: ImageDraw
    let inverse: AffineTransform
    let horizontal: SliceAxis
    let vertical: SliceAxis
    let tint: SIMD4<Float>?
    /// True when neither axis is nine-sliced: positions are `d / destination * pixels`.
    let isPlain: Bool
    /// Set by ``preparedForAlpha()``: every texel's alpha is 255.
    private(set) var isKnownOpaque = false

    init(_ draw: ImageDraw) {
        self.draw = draw
        inverse = draw.transform.inverted() ?? .identity
        let s = draw.scale, bw = draw.bitmap.width, bh = draw.bitmap.height
        let insets = draw.slicing?.capInsets ?? .zero
        let mode = draw.slicing?.mode
        horizontal = SliceAxis(destination: draw.rect.width, pixels: bw, scale: s,
                               leadingCap: insets.left, trailingCap: insets.right, mode: mode)
        vertical = SliceAxis(destination: draw.rect.height, pixels: bh, scale: s,
                             leadingCap: insets.top, trailingCap: insets.bottom, mode: mode)
        tint = draw.tint.map { SIMD4<Float>($0.premultiplied) }
        isPlain = !horizontal.sliced && !vertical.sliced
    }

    func shade(y: Int, x0: Int, count: Int, offset: Point,
               colors: UnsafeMutablePointer<SIMD4<Float>>, coverage: UnsafeMutablePointer<Float>) {
        let bitmap = draw.bitmap
        guard count > 0, bitmap.width > 0, bitmap.height > 0 else { return }
        bitmap.pixels.withUnsafeBufferPointer { px in
            let row = ImageRowMapping(self, y: y, offset: offset)
            let texels = TexelGrid(base: px.baseAddress!, width: bitmap.width)
            if isPlain {
                shadePlain(PlainFootprints(row, width: bitmap.width, height: bitmap.height), texels,
                           x0: x0, count: count, colors: colors, coverage: coverage)
                return
            }
            for i in 0..<count where coverage[i] > 0 {
                let (lx, ly) = row.local(x0 + i)
                let sx = horizontal.sample(lx), sy = vertical.sample(ly)
                if let tint {
                    colors[i] = tint * texels.bilinearAlpha(sx.position, sx.first, sx.last, sy.position, sy.first, sy.last)
                } else {
                    colors[i] = texels.bilinear(sx.position, sx.first, sx.last, sy.position, sy.first, sy.last)
                }
            }
        }
    }

    /// This shader with ``isKnownOpaque`` set from one scan of the bitmap.
    func preparedForAlpha() -> Shader {
        var copy = self
        copy.isKnownOpaque = draw.bitmap.isOpaque
        return copy
    }

    func shadeAlpha(y: Int, x0: Int, count: Int, offset: Point, coverage: UnsafeMutablePointer<Float>,
                    alpha: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<SIMD4<Float>>) {
        let bitmap = draw.bitmap
        guard count > 0, bitmap.width > 0, bitmap.height > 0 else { return }
        // The colour's alpha is (tint alpha) x (sampled alpha), or the sampled alpha alone.
        let tintAlpha = tint?.w ?? 1, tinted = tint != nil
        if isKnownOpaque {
            for i in 0..<count where coverage[i] > 0 { alpha[i] = coverage[i] * tintAlpha }
            return
        }
        bitmap.pixels.withUnsafeBufferPointer { px in
            let row = ImageRowMapping(self, y: y, offset: offset)
            let texels = TexelGrid(base: px.baseAddress!, width: bitmap.width)
            if isPlain {
                shadePlainAlpha(PlainFootprints(row, width: bitmap.width, height: bitmap.height), texels,
                                x0: x0, count: count, coverage: coverage, alpha: alpha, tinted: tinted, tintAlpha: tintAlpha)
                return
            }
            for i in 0..<count where coverage[i] > 0 {
                let (lx, ly) = row.local(x0 + i)
                let sx = horizontal.sample(lx), sy = vertical.sample(ly)
                let a = texels.bilinearAlpha(sx.position, sx.first, sx.last, sy.position, sy.first, sy.last)
                alpha[i] = coverage[i] * (tinted ? tintAlpha * a : a)
            }
        }
    }
}

/// The inverse mapping of one device row: pixel column to the point in the destination
/// rectangle, with the row's invariants hoisted (PlainFootprints goes on to image pixels).
struct ImageRowMapping {
    let a: Double, b: Double, tx: Double, ty: Double
    /// `c * deviceY` and `d * deviceY`: the inverse transform's terms that are fixed along the row.
    let cy: Double, dy: Double
    let offsetX: Double
    let minX: Double, minY: Double, width: Double
    let flipped: Bool
    let destinationWidth: Double, destinationHeight: Double
    let pixelsWide: Double, pixelsHigh: Double

    @inline(__always)
    init(_ shader: ImageShader, y: Int, offset: Point) {
        let m = shader.inverse, rect = shader.draw.rect
        let deviceY = Double(y) + 0.5 - offset.y
        a = m.a; b = m.b; tx = m.tx; ty = m.ty
        cy = m.c * deviceY; dy = m.d * deviceY
        offsetX = offset.x
        minX = rect.minX; minY = rect.minY; width = rect.width
        flipped = shader.draw.flippedHorizontally
        destinationWidth = shader.horizontal.destination; destinationHeight = shader.vertical.destination
        pixelsWide = Double(shader.horizontal.pixels); pixelsHigh = Double(shader.vertical.pixels)
    }

    /// The pixel centre of column `x` as a distance into the destination rectangle on each axis
    /// (after the flip): `inverse.apply(centre) - rect.min`.
    @inline(__always)
    func local(_ x: Int) -> (Double, Double) {
        let deviceX = Double(x) + 0.5 - offsetX
        let ux = a * deviceX + cy + tx, uy = b * deviceX + dy + ty
        let lx = ux - minX
        return (flipped ? width - lx : lx, uy - minY)
    }
}

/// An RGBA8 bitmap's texels read through a raw pointer, sampled bilinearly.
struct TexelGrid {
    let base: UnsafePointer<UInt8>
    let width: Int

    /// The texel at (x, y) as unitTexel reads it: each byte divided by 255.
    @inline(__always)
    func texel(_ x: Int, _ y: Int) -> SIMD4<Float> { texel(at: (y * width + x) * 4) }

    /// The bilinear sample at image position (px, py), clamped to columns xFirst...xLast and rows
    /// yFirst...yLast: texel centres at +0.5, weights in Float.
    @inline(__always)
    func bilinear(_ px: Double, _ xFirst: Int, _ xLast: Int, _ py: Double, _ yFirst: Int, _ yLast: Int) -> SIMD4<Float> {
        let (ix, tx) = floorSplit(px - 0.5), (iy, ty) = floorSplit(py - 0.5)
        let x0 = min(xLast, max(xFirst, ix)), x1 = min(xLast, max(xFirst, ix + 1))
        let y0 = min(yLast, max(yFirst, iy)), y1 = min(yLast, max(yFirst, iy + 1))
        let top = texel(x0, y0) * (1 - tx) + texel(x1, y0) * tx
        let bottom = texel(x0, y1) * (1 - tx) + texel(x1, y1) * tx
        return top * (1 - ty) + bottom * ty
    }

    /// The alpha channel of ``bilinear(_:_:_:_:_:_:)``, computed alone (the same operations on
    /// the same values as that lane).
    @inline(__always)
    func bilinearAlpha(_ px: Double, _ xFirst: Int, _ xLast: Int, _ py: Double, _ yFirst: Int, _ yLast: Int) -> Float {
        let (ix, tx) = floorSplit(px - 0.5), (iy, ty) = floorSplit(py - 0.5)
        let x0 = min(xLast, max(xFirst, ix)), x1 = min(xLast, max(xFirst, ix + 1))
        let y0 = min(yLast, max(yFirst, iy)), y1 = min(yLast, max(yFirst, iy + 1))
        @inline(__always) func alphaByte(_ x: Int, _ y: Int) -> Int32 { Int32(base[(y * width + x) * 4 + 3]) }
        let a = SIMD4<Float>(SIMD4<Int32>(alphaByte(x0, y0), alphaByte(x1, y0), alphaByte(x0, y1), alphaByte(x1, y1))) / 255
        let top = a[0] * (1 - tx) + a[1] * tx
        let bottom = a[2] * (1 - tx) + a[3] * tx
        return top * (1 - ty) + bottom * ty
    }
}

/// `(Int(floor(f)), Float(f - floor(f)))`, with the floor taken by truncation and a correction
/// (exact, and no library call on a baseline x86-64 build). Traps where `Int(f)` would, as the
/// definition's `Int(f.rounded(.down))` does (non-finite or out-of-range positions).
@inline(__always)
func floorSplit(_ f: Double) -> (Int, Float) {
    var i = Int(f)
    var whole = Double(i)
    if whole > f { i -= 1; whole -= 1 }
    return (i, Float(f - whole))
}
