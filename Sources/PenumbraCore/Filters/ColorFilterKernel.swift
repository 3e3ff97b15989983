// ColorFilterKernel: the per-pixel colour filters of SCENE_FORMAT.md's table
// (`colorControls` to `vignette`) in fixed point (docs/ARITHMETIC.md,
// "Filters"). Every parameter becomes Q12 once, here (round half up), and
// each pixel is computed with integers only, so any port (a GLSL pass) that
// follows the same formulas stores the same bytes.
//
// Per pixel: the premultiplied U8 colour is un-premultiplied to Q12
// (`Fixed.unpremultipliedQ12`; a transparent pixel is (0, 0, 0, 0)), the
// filter's formula runs on Q12 values in 64-bit integers (products are
// brought back to Q12 by `roundQ12`, halves up), the result is clamped to
// 0...4096 and premultiplied back as `(C a + 2048) >> 12`. Luma is
// `(13933 R + 46871 G + 4732 B + 32768) >> 16` (0.2126, 0.7152, 0.0722 in
// 65536ths, summing to 65536). `gammaAdjust` is a table of the 4097 Q12
// inputs computed once in Double; `vignette`'s distance is an integer square
// root of a 64-bit Q16 square. Parameters beyond the ranges where they change
// the result (an exposure of 2^30) are clamped where clamping changes nothing.

import PenumbraModel
import Foundation

/// A colour filter compiled to fixed point: `apply` maps one premultiplied U8 pixel.
package struct ColorFilterKernel: Sendable {
    private enum Op {
        case controls(saturation: Int64, brightness: Int64, contrast: Int64)
        /// 4 x 4 Q12 matrix (rows r, g, b, a) and Q12 bias; `alpha` says whether alpha is an input and output.
        case matrix([Int64], bias: [Int64], alpha: Bool)
        /// mix(C, M C, intensity) with M a 3 x 3 Q12 matrix (sepia).
        case mixMatrix([Int64], intensity: Int64)
        case monochrome(color: SIMD3<Int64>, intensity: Int64)
        case exposure(Int64)
        case gamma([Int32])
        case invert
        case vignette(centerX: Int64, centerY: Int64, inner: Int64, outer: Int64, intensity: Int64)
    }
    private let op: Op

    /// `round(v x 4096)`, halves up, clamped to +-2^40.
    package static func q12(_ v: Double) -> Int64 {
        let x = (v * 4096 + 0.5).rounded(.down)
        return Int64(max(-1_099_511_627_776, min(1_099_511_627_776, x)))
    }

    /// `(x + 2048) >> 12` on 64 bits.
    @inline(__always) package static func roundQ12(_ x: Int64) -> Int64 { (x + 2048) >> 12 }

    /// Luma of Q12 r, g, b, in Q12.
    @inline(__always) static func luma(_ r: Int64, _ g: Int64, _ b: Int64) -> Int64 {
        (13933 * r + 46871 * g + 4732 * b + 32768) >> 16
    }

    /// The kernel of a colour filter; `extent` is the input's (the vignette's defaults). Nil for
    /// filters that are not colour filters.
    package init?(_ filter: ImageFilter, extent: FilterExtent) {
        let q = Self.q12
        switch filter {
        case .colorControls(let s, let b, let c):
            op = .controls(saturation: q(max(-1e5, min(1e5, s))), brightness: q(max(-1e5, min(1e5, b))),
                           contrast: q(max(-1e5, min(1e5, c))))
        case .colorMatrix(let r, let g, let b, let a, let bias):
            op = .matrix((r + g + b + a).map { q(max(-1e5, min(1e5, $0))) }, bias: bias.map { q(max(-1e5, min(1e5, $0))) },
                         alpha: true)
        case .sepiaTone(let intensity):
            let sepia = [0.393, 0.769, 0.189, 0.349, 0.686, 0.168, 0.272, 0.534, 0.131]
            op = .mixMatrix(sepia.map(q), intensity: q(max(-1e5, min(1e5, intensity))))
        case .colorMonochrome(let color, let intensity):
            op = .monochrome(color: SIMD3(q(color.red), q(color.green), q(color.blue)),
                             intensity: q(max(-1e5, min(1e5, intensity))))
        case .exposureAdjust(let ev):
            op = .exposure(q(pow(2, max(-30, min(30, ev)))))
        case .gammaAdjust(let power):
            op = .gamma((0...4096).map { Int32(q(pow(Double($0) / 4096, power))) })
        case .hueAdjust(let angle):
            // Rodrigues' rotation about u = (1, 1, 1) / sqrt(3): cos I + (1 - cos) u u^T + sin [u]x.
            let c = cos(angle), s = sin(angle) / 3.0.squareRoot(), k = (1 - c) / 3
            let m = [c + k, k - s, k + s,
                     k + s, c + k, k - s,
                     k - s, k + s, c + k]
            op = .mixMatrix(m.map(q), intensity: 4096)
        case .colorInvert:
            op = .invert
        case .vignette(let center, let radius, let intensity, let falloff):
            let r = extent.rect ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
            let c = center ?? Point(x: Double(r.x) + Double(r.width) / 2, y: Double(r.y) + Double(r.height) / 2)
            let outer = radius ?? Double(min(r.width, r.height)) / 2
            func q8(_ v: Double) -> Int64 { Int64(max(-1e12, min(1e12, (v * 256 + 0.5).rounded(.down)))) }
            op = .vignette(centerX: q8(c.x), centerY: q8(c.y), inner: q8(outer * (1 - falloff)), outer: q8(outer),
                           intensity: q(max(-1e5, min(1e5, intensity))))
        default:
            return nil
        }
    }

    /// The kernel as a GLSL port takes it (colorfilter.glsl): the op's number, its Q12 (Q8 for
    /// the vignette's geometry) parameters in the order the port reads them, and gammaAdjust's
    /// table. Ops: 0 controls (s, b, c), 1 matrix (16 coefficients row by row, 4 biases),
    /// 2 mixMatrix (9 coefficients, intensity), 3 monochrome (r, g, b, intensity), 4 exposure (f),
    /// 5 gamma (none; the table), 6 invert, 7 vignette (cx, cy, inner, outer, intensity).
    package var portable: (op: Int, parameters: [Int64], table: [Int32]) {
        switch op {
        case .controls(let s, let b, let c): return (0, [s, b, c], [])
        case .matrix(let m, let bias, _): return (1, m + bias, [])
        case .mixMatrix(let m, let intensity): return (2, m + [intensity], [])
        case .monochrome(let color, let intensity): return (3, [color.x, color.y, color.z, intensity], [])
        case .exposure(let f): return (4, [f], [])
        case .gamma(let table): return (5, [], table)
        case .invert: return (6, [], [])
        case .vignette(let cx, let cy, let inner, let outer, let intensity): return (7, [cx, cy, inner, outer, intensity], [])
        }
    }

    /// The filtered premultiplied U8 pixel `p` (r, g, b, a) at pixel (x, y).
    package func apply(_ p: SIMD4<Int32>, x: Int, y: Int) -> SIMD4<Int32> {
        let a = p.w
        var r = Int64(Fixed.unpremultipliedQ12(p.x, alpha: a))
        var g = Int64(Fixed.unpremultipliedQ12(p.y, alpha: a))
        var b = Int64(Fixed.unpremultipliedQ12(p.z, alpha: a))
        var alpha = a
        let rq = Self.roundQ12
        switch op {
        case .controls(let s, let br, let k):
            let l = Self.luma(r, g, b)
            func channel(_ c: Int64) -> Int64 {
                // Beyond +-2^31 the contrast step clamps the same way, so clamping here changes nothing.
                let saturated = max(-(1 << 31), min(1 << 31, l + rq(s * (c - l)) + br))
                return rq((saturated - 2048) * k) + 2048
            }
            (r, g, b) = (channel(r), channel(g), channel(b))
        case .matrix(let m, let bias, _):
            let aq = (Int64(a) * 8192 + 255) / 510  // round(a x 4096 / 255)
            let v = [r, g, b, aq]
            func row(_ i: Int) -> Int64 {
                rq(m[4 * i] * v[0] + m[4 * i + 1] * v[1] + m[4 * i + 2] * v[2] + m[4 * i + 3] * v[3]) + bias[i]
            }
            let outA = max(0, min(4096, row(3)))
            (r, g, b) = (row(0), row(1), row(2))
            alpha = Int32((outA * 255 + 2048) >> 12)
        case .mixMatrix(let m, let intensity):
            let mr = rq(m[0] * r + m[1] * g + m[2] * b)
            let mg = rq(m[3] * r + m[4] * g + m[5] * b)
            let mb = rq(m[6] * r + m[7] * g + m[8] * b)
            if intensity == 4096 { (r, g, b) = (mr, mg, mb) } else {
                (r, g, b) = (r + rq(intensity * (mr - r)), g + rq(intensity * (mg - g)), b + rq(intensity * (mb - b)))
            }
        case .monochrome(let color, let intensity):
            let l = Self.luma(r, g, b)
            let mr = rq(l * color.x), mg = rq(l * color.y), mb = rq(l * color.z)
            (r, g, b) = (r + rq(intensity * (mr - r)), g + rq(intensity * (mg - g)), b + rq(intensity * (mb - b)))
        case .exposure(let f):
            (r, g, b) = (rq(r * f), rq(g * f), rq(b * f))
        case .gamma(let table):
            (r, g, b) = (Int64(table[Int(r)]), Int64(table[Int(g)]), Int64(table[Int(b)]))
        case .invert:
            (r, g, b) = (4096 - r, 4096 - g, 4096 - b)
        case .vignette(let cx, let cy, let inner, let outer, let intensity):
            let f = 4096 - rq(intensity * Self.smoothstepQ12(inner, outer, Self.distanceQ8(x: x, y: y, cx: cx, cy: cy)))
            (r, g, b) = (rq(r * f), rq(g * f), rq(b * f))
        }
        @inline(__always) func store(_ c: Int64) -> Int32 {
            Int32((max(0, min(4096, c)) * Int64(alpha) + 2048) >> 12)
        }
        return SIMD4(store(r), store(g), store(b), alpha)
    }

    /// The distance in Q8 from pixel (x, y)'s centre to (cx, cy) (Q8): floor(sqrt(dx^2 + dy^2)).
    static func distanceQ8(x: Int, y: Int, cx: Int64, cy: Int64) -> Int64 {
        let dx = (Int64(x) << 8) + 128 - cx, dy = (Int64(y) << 8) + 128 - cy
        return Int64(Fixed.squareRoot(UInt64(min(Int64(1) << 62, dx * dx + dy * dy))))
    }

    /// smoothstep(e0, e1, d) in Q12: t = ((d - e0) << 12) / (e1 - e0) clamped to 0...4096 (a step
    /// at e1 when e1 <= e0), then roundQ12(roundQ12(t t) (3 x 4096 - 2 t)).
    static func smoothstepQ12(_ e0: Int64, _ e1: Int64, _ d: Int64) -> Int64 {
        let t: Int64
        if d >= e1 { t = 4096 } else if d <= e0 { t = 0 } else { t = ((d - e0) << 12) / (e1 - e0) }
        return roundQ12(roundQ12(t * t) * (3 * 4096 - 2 * t))
    }
}
