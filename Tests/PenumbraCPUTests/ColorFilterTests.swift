// The colour filters' fixed-point formulas (ColorFilterKernel, docs/ARITHMETIC.md
// "Filters") against the scene format's real-number formulas evaluated in
// Double on the exact un-premultiplied values, on random premultiplied pixels:
// every stored channel within 1 level of the Double result.

import Foundation
import PenumbraModel
import PenumbraCore
import PenumbraCPU
import PenumbraTestSupport
import XCTest

final class ColorFilterTests: XCTestCase {
    /// A random premultiplied bitmap (colour <= alpha), with some transparent and opaque pixels.
    static func randomBitmap(width: Int, height: Int, seed: UInt64) -> Bitmap {
        var random = SplitMix64(seed: seed)
        var b = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let pick = random.next() % 8
                let a: UInt8 = pick == 0 ? 0 : (pick == 1 ? 255 : UInt8(random.next() % 256))
                func c() -> UInt8 { a == 0 ? 0 : UInt8(random.next() % (UInt64(a) + 1)) }
                b[x, y] = SIMD4(c(), c(), c(), a)
            }
        }
        return b
    }

    static func luma(_ c: SIMD3<Double>) -> Double { 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z }

    /// Checks `filter` against `reference` (un-premultiplied r, g, b, a in 0...1 at pixel (x, y)
    /// to un-premultiplied r, g, b, a before clamping).
    func check(_ filter: ImageFilter, tolerance: Double = 1, file: StaticString = #filePath, line: UInt = #line,
               _ reference: (SIMD4<Double>, Int, Int) -> SIMD4<Double>) throws {
        let input = Self.randomBitmap(width: 48, height: 40, seed: 7)
        let out = try FilterEvaluator(services: .cpu)
            .render(.filtered(.bitmap(input), filter), in: PixelRect(x: 0, y: 0, width: 48, height: 40))
        var worst = 0.0
        for y in 0..<40 {
            for x in 0..<48 {
                let p = input[x, y]
                let a = Double(p.w) / 255
                let straight = a == 0 ? SIMD4<Double>(0, 0, 0, 0)
                    : SIMD4(Double(p.x) / Double(p.w), Double(p.y) / Double(p.w), Double(p.z) / Double(p.w), a)
                var r = reference(straight, x, y)
                r = SIMD4(min(1, max(0, r.x)), min(1, max(0, r.y)), min(1, max(0, r.z)), min(1, max(0, r.w)))
                let expected = SIMD4(r.x * r.w * 255, r.y * r.w * 255, r.z * r.w * 255, r.w * 255)
                let got = out[x, y]
                for lane in 0..<4 {
                    let error = abs(Double(got[lane]) - expected[lane])
                    worst = max(worst, error)
                    if error > tolerance {
                        XCTFail("\(filter) at (\(x), \(y)) input \(p) lane \(lane): got \(got[lane]), expected \(expected[lane])",
                                file: file, line: line)
                        return
                    }
                }
            }
        }
    }

    func testColorControls() throws {
        for (s, b, k) in [(1.0, 0.0, 1.0), (1.6, 0.1, 1.3), (0.2, -0.2, 0.7), (0, 0, 1), (-0.5, 0.3, 2.5)] {
            try check(.colorControls(saturation: s, brightness: b, contrast: k)) { c, _, _ in
                let l = Self.luma(SIMD3(c.x, c.y, c.z))
                func f(_ v: Double) -> Double { ((l + s * (v - l)) + b - 0.5) * k + 0.5 }
                return SIMD4(f(c.x), f(c.y), f(c.z), c.w)
            }
        }
    }

    func testColorMatrixIncludingAlpha() throws {
        let r = [0.5, 0.3, 0.1, 0.0], g = [0.1, 0.9, 0.0, 0.05], b = [0.2, 0.2, 0.6, 0.0], a = [0.0, 0.0, 0.0, 0.8]
        let bias = [0.05, -0.02, 0.1, 0.1]
        try check(.colorMatrix(r: r, g: g, b: b, a: a, bias: bias)) { c, _, _ in
            func row(_ m: [Double], _ k: Int) -> Double { m[0] * c.x + m[1] * c.y + m[2] * c.z + m[3] * c.w + bias[k] }
            return SIMD4(row(r, 0), row(g, 1), row(b, 2), row(a, 3))
        }
    }

    func testSepiaMonochromeExposureGammaInvert() throws {
        for intensity in [1.0, 0.4] {
            try check(.sepiaTone(intensity: intensity)) { c, _, _ in
                let s = SIMD3(0.393 * c.x + 0.769 * c.y + 0.189 * c.z, 0.349 * c.x + 0.686 * c.y + 0.168 * c.z,
                              0.272 * c.x + 0.534 * c.y + 0.131 * c.z)
                return SIMD4(c.x + intensity * (s.x - c.x), c.y + intensity * (s.y - c.y), c.z + intensity * (s.z - c.z), c.w)
            }
        }
        let tint = Color(red: 0.9, green: 0.6, blue: 0.3)
        try check(.colorMonochrome(color: tint, intensity: 0.8)) { c, _, _ in
            let l = Self.luma(SIMD3(c.x, c.y, c.z))
            return SIMD4(c.x + 0.8 * (l * 0.9 - c.x), c.y + 0.8 * (l * 0.6 - c.y), c.z + 0.8 * (l * 0.3 - c.z), c.w)
        }
        for ev in [-1.5, 0.0, 0.7, 3.0] {
            try check(.exposureAdjust(ev: ev)) { c, _, _ in
                let f = pow(2, ev)
                return SIMD4(c.x * f, c.y * f, c.z * f, c.w)
            }
        }
        for power in [0.45, 1.0, 2.2] {
            try check(.gammaAdjust(power: power)) { c, _, _ in
                SIMD4(pow(c.x, power), pow(c.y, power), pow(c.z, power), c.w)
            }
        }
        try check(.colorInvert) { c, _, _ in SIMD4(1 - c.x, 1 - c.y, 1 - c.z, c.w) }
    }

    func testHueAdjustRotatesAboutTheGreyAxisRedTowardsGreen() throws {
        for angle in [0.0, 0.6, -2.0, Double.pi] {
            try check(.hueAdjust(angle: angle)) { c, _, _ in
                // Rotate (c - grey) about (1,1,1)/sqrt3 with Rodrigues' formula.
                let u = SIMD3<Double>(repeating: 1 / 3.0.squareRoot())
                let v = SIMD3(c.x, c.y, c.z)
                let cross = SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
                let d = (u * v).sum()
                let r = v * cos(angle) + cross * sin(angle) + u * d * (1 - cos(angle))
                return SIMD4(r.x, r.y, r.z, c.w)
            }
        }
        // Red turns towards green for a positive angle.
        let red = Bitmap(width: 1, height: 1, pixels: [255, 0, 0, 255])
        let out = try FilterEvaluator(services: .cpu)
            .render(.filtered(.bitmap(red), .hueAdjust(angle: 0.5)), in: PixelRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertGreaterThan(out[0, 0].y, out[0, 0].z)
    }

    func testVignetteFollowsTheSmoothstepOfTheDistance() throws {
        let center = Point(x: 20.3, y: 17.8)
        for (radius, falloff, intensity) in [(22.0, 0.5, 1.0), (30.0, 0.2, 0.6), (15.0, 1.0, 1.0)] {
            try check(.vignette(center: center, radius: radius, intensity: intensity, falloff: falloff)) { c, x, y in
                let d = ((Double(x) + 0.5 - center.x) * (Double(x) + 0.5 - center.x)
                    + (Double(y) + 0.5 - center.y) * (Double(y) + 0.5 - center.y)).squareRoot()
                let e0 = radius * (1 - falloff), e1 = radius
                let t = min(1, max(0, (d - e0) / (e1 - e0)))
                let f = 1 - intensity * t * t * (3 - 2 * t)
                return SIMD4(c.x * f, c.y * f, c.z * f, c.w)
            }
        }
        // The defaults: the extent's centre and half its shorter side.
        try check(.vignette(center: nil, radius: nil, intensity: 1, falloff: 0.5)) { c, x, y in
            let d = ((Double(x) + 0.5 - 24) * (Double(x) + 0.5 - 24) + (Double(y) + 0.5 - 20) * (Double(y) + 0.5 - 20)).squareRoot()
            let t = min(1, max(0, (d - 10) / 10))
            let f = 1 - t * t * (3 - 2 * t)
            return SIMD4(c.x * f, c.y * f, c.z * f, c.w)
        }
    }
}
