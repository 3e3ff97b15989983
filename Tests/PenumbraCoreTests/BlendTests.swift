// BlendTests: the 28 blend modes against an independent float64 reference written
// here straight from the W3C Compositing and Blending Level 1 text: the blend
// functions on non-premultiplied colours (the spec's pseudo-code, sorting included),
// the spec's compositing step Cs' = (1 - αb) Cs + αb B(Cb, Cs) followed by source-over
// on premultiplied values, and Porter-Duff by its (Fa, Fb) table. Both results are
// rounded to 8 bits as the scene format stores them and must agree within 1/255.
import XCTest
import PenumbraTestSupport
import PenumbraCore

// MARK: - Float64 reference

private typealias RGB = (r: Double, g: Double, b: Double)

private enum Reference {
    // Separable blend functions B(Cb, Cs), W3C section 10.
    static let separable: [BlendMode: (_ cb: Double, _ cs: Double) -> Double] = [
        .normal: { _, cs in cs },
        .multiply: { cb, cs in cb * cs },
        .screen: { cb, cs in cb + cs - cb * cs },
        .overlay: { cb, cs in hardLight(cs, cb) },
        .darken: { cb, cs in min(cb, cs) },
        .lighten: { cb, cs in max(cb, cs) },
        .colorDodge: { cb, cs in
            if cb == 0 { return 0 }
            if cs == 1 { return 1 }
            return min(1, cb / (1 - cs))
        },
        .colorBurn: { cb, cs in
            if cb == 1 { return 1 }
            if cs == 0 { return 0 }
            return 1 - min(1, (1 - cb) / cs)
        },
        .hardLight: { cb, cs in hardLight(cb, cs) },
        .softLight: { cb, cs in
            if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
            let dOfCb = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
            return cb + (2 * cs - 1) * (dOfCb - cb)
        },
        .difference: { cb, cs in abs(cb - cs) },
        .exclusion: { cb, cs in cb + cs - 2 * cb * cs },
    ]

    static func hardLight(_ cb: Double, _ cs: Double) -> Double {
        if cs <= 0.5 { return cb * 2 * cs }                 // Multiply(Cb, 2 x Cs)
        let s2 = 2 * cs - 1
        return cb + s2 - cb * s2                            // Screen(Cb, 2 x Cs - 1)
    }

    // Non-separable blend functions B(Cb, Cs), W3C section 10.
    static let nonSeparable: [BlendMode: (_ cb: RGB, _ cs: RGB) -> RGB] = [
        .hue: { cb, cs in setLum(setSat(cs, sat(cb)), lum(cb)) },
        .saturation: { cb, cs in setLum(setSat(cb, sat(cs)), lum(cb)) },
        .color: { cb, cs in setLum(cs, lum(cb)) },
        .luminosity: { cb, cs in setLum(cb, lum(cs)) },
    ]

    static func lum(_ c: RGB) -> Double { 0.3 * c.r + 0.59 * c.g + 0.11 * c.b }
    static func clipColor(_ c: RGB) -> RGB {
        let l = lum(c), n = min(c.r, c.g, c.b), x = max(c.r, c.g, c.b)
        var c = c
        if n < 0 { c = (l + (c.r - l) * l / (l - n), l + (c.g - l) * l / (l - n), l + (c.b - l) * l / (l - n)) }
        if x > 1 {
            c = (l + (c.r - l) * (1 - l) / (x - l), l + (c.g - l) * (1 - l) / (x - l),
                 l + (c.b - l) * (1 - l) / (x - l))
        }
        return c
    }
    static func setLum(_ c: RGB, _ l: Double) -> RGB {
        let d = l - lum(c)
        return clipColor((c.r + d, c.g + d, c.b + d))
    }
    static func sat(_ c: RGB) -> Double { max(c.r, c.g, c.b) - min(c.r, c.g, c.b) }
    /// The spec's SetSat with explicit Cmax / Cmid / Cmin channels.
    static func setSat(_ c: RGB, _ s: Double) -> RGB {
        var v = [c.r, c.g, c.b]
        let order = [0, 1, 2].sorted { v[$0] < v[$1] }      // min, mid, max
        let (iMin, iMid, iMax) = (order[0], order[1], order[2])
        if v[iMax] > v[iMin] {
            v[iMid] = ((v[iMid] - v[iMin]) * s) / (v[iMax] - v[iMin])
            v[iMax] = s
        } else {
            v[iMid] = 0; v[iMax] = 0
        }
        v[iMin] = 0
        return (v[0], v[1], v[2])
    }

    // Porter-Duff (Fa, Fb) as functions of (αs, αb), W3C section 9.1.
    static let porterDuff: [BlendMode: (_ aS: Double, _ aB: Double) -> (Double, Double)] = [
        .clear: { _, _ in (0, 0) },
        .copy: { _, _ in (1, 0) },
        .sourceIn: { _, aB in (aB, 0) },
        .sourceOut: { _, aB in (1 - aB, 0) },
        .sourceAtop: { aS, aB in (aB, 1 - aS) },
        .destinationOver: { _, aB in (1 - aB, 1) },
        .destinationIn: { aS, _ in (0, aS) },
        .destinationOut: { aS, _ in (0, 1 - aS) },
        .destinationAtop: { aS, aB in (1 - aB, aS) },
        .xor: { aS, aB in (1 - aB, 1 - aS) },
    ]

    /// The reference result for premultiplied `s` over premultiplied `d`, or nil when
    /// the mode has no reference.
    static func blend(_ mode: BlendMode, _ s: [Double], _ d: [Double]) -> [Double]? {
        let aS = s[3], aB = d[3]
        let cS = (0..<3).map { aS > 0 ? s[$0] / aS : 0 }     // non-premultiplied
        let cB = (0..<3).map { aB > 0 ? d[$0] / aB : 0 }
        var mixed: [Double]                                  // B(Cb, Cs) per channel
        if let f = separable[mode] {
            mixed = (0..<3).map { f(cB[$0], cS[$0]) }
        } else if let f = nonSeparable[mode] {
            let b = f((cB[0], cB[1], cB[2]), (cS[0], cS[1], cS[2]))
            mixed = [b.r, b.g, b.b]
        } else if let f = porterDuff[mode] {
            let (fa, fb) = f(aS, aB)
            return (0..<3).map { aS * fa * cS[$0] + aB * fb * cB[$0] } + [aS * fa + aB * fb]
        } else if mode == .plusLighter {
            return (0..<4).map { min(1, s[$0] + d[$0]) }
        } else if mode == .plusDarker {
            let aO = min(1, aS + aB)
            return (0..<3).map { max(0, aO - ((aS - s[$0]) + (aB - d[$0]))) } + [aO]
        } else {
            return nil
        }
        // Cs' = (1 - αb) Cs + αb B(Cb, Cs), then source-over: co = αs Cs' + cb (1 - αs).
        mixed = (0..<3).map { (1 - aB) * cS[$0] + aB * mixed[$0] }
        return (0..<3).map { aS * mixed[$0] + d[$0] * (1 - aS) } + [aS + aB * (1 - aS)]
    }
}

// MARK: - Helpers

/// The scene format's 8-bit store: round half up.
private func byte(_ v: Double) -> Int { Int(min(255, max(0, v * 255 + 0.5)).rounded(.down)) }

private func doubles(_ c: SIMD4<Float>) -> [Double] { [Double(c.x), Double(c.y), Double(c.z), Double(c.w)] }

/// A value in 0...1: exactly 0 or 1, on the 8-bit grid, or anywhere.
private func unitValue(_ g: inout SplitMix64) -> Double {
    switch g.next() % 8 {
    case 0: return 0
    case 1: return 1
    case 2, 3, 4: return Double(g.next() % 256) / 255
    default: return Double.random(in: 0...1, using: &g)
    }
}

/// A valid premultiplied colour: half the time 8-bit premultiplied bytes (what a
/// destination holds), otherwise a straight colour times an alpha in float.
private func randomColor(_ g: inout SplitMix64) -> SIMD4<Float> {
    if g.next() % 2 == 0 {
        let a = UInt8(truncatingIfNeeded: g.next() % 4 == 0 ? (g.next() % 2) * 255 : g.next() % 256)
        func channel() -> UInt8 { premultiply(UInt8(truncatingIfNeeded: g.next()), alpha: a) }
        return SIMD4<Float>(Float(channel()), Float(channel()), Float(channel()), Float(a)) / 255
    }
    let a = Float(unitValue(&g))
    func channel() -> Float { Float(Double(a) * unitValue(&g)) }
    return SIMD4(channel(), channel(), channel(), a)
}

private func opaque(_ r: Float, _ g: Float, _ b: Float) -> SIMD4<Float> { SIMD4(r, g, b, 1) }

final class BlendTests: XCTestCase {
    func testEveryModeHasAReference() {
        for mode in BlendMode.allCases {
            XCTAssertNotNil(Reference.blend(mode, [0.1, 0.2, 0.3, 0.5], [0.2, 0.1, 0.4, 0.6]),
                            "no float64 reference for \(mode)")
        }
        XCTAssertEqual(BlendMode.allCases.count, 28)
    }

    func testAllModesMatchTheFloat64ReferenceWithin1Of255() throws {
        for (index, mode) in BlendMode.allCases.enumerated() {
            var g = SplitMix64(state: 0x5EED_0000 + UInt64(index))
            var worst = 0
            var worstCase = ""
            for _ in 0..<20_000 {
                let s = randomColor(&g), d = randomColor(&g)
                let ours = mode.blend(source: s, destination: d)
                let reference = try XCTUnwrap(Reference.blend(mode, doubles(s), doubles(d)), "\(mode)")
                for lane in 0..<4 {
                    let v = ours[lane]
                    XCTAssertFalse(v.isNaN, "\(mode) produced NaN for \(s) over \(d)")
                    XCTAssert(v >= 0 && v <= 1, "\(mode) left 0...1: \(ours) for \(s) over \(d)")
                    let error = abs(byte(Double(v)) - byte(reference[lane]))
                    if error > worst { worst = error; worstCase = "\(s) over \(d): \(ours) vs \(reference)" }
                }
                XCTAssert(ours.x <= ours.w && ours.y <= ours.w && ours.z <= ours.w,
                          "\(mode) colour exceeds alpha: \(ours)")
            }
            XCTAssertLessThanOrEqual(worst, 1, "\(mode) differs from the reference by \(worst)/255 at \(worstCase)")
        }
    }

    func testKnownValues() {
        let grey = opaque(0.5, 0.5, 0.5)
        XCTAssertEqual(BlendMode.multiply.blend(source: grey, destination: grey), opaque(0.25, 0.25, 0.25))
        XCTAssertEqual(BlendMode.screen.blend(source: grey, destination: grey), opaque(0.75, 0.75, 0.75))
        let difference = BlendMode.difference.blend(source: opaque(0.75, 0.25, 0.5),
                                                    destination: opaque(0.25, 0.5, 0.5))
        XCTAssertEqual(difference, opaque(0.5, 0.25, 0))

        let source = SIMD4<Float>(0.2, 0.1, 0.3, 0.5), destination = SIMD4<Float>(0.4, 0.6, 0.2, 0.8)
        XCTAssertEqual(BlendMode.clear.blend(source: source, destination: destination), .zero)
        XCTAssertEqual(BlendMode.copy.blend(source: source, destination: destination), source)
        XCTAssertEqual(BlendMode.destinationIn.blend(source: source, destination: destination), destination / 2)
        XCTAssertEqual(BlendMode.normal.blend(source: source, destination: destination),
                       source + destination * 0.5)

        // plusDarker of opaque colours is Quartz's max(0, 1 - ((1 - D) + (1 - S))).
        let darkS = opaque(0.75, 0.25, 0.5), darkD = opaque(0.5, 0.5, 0.25)
        let darker = BlendMode.plusDarker.blend(source: darkS, destination: darkD)
        for lane in 0..<3 {
            XCTAssertEqual(darker[lane], max(0, 1 - ((1 - darkD[lane]) + (1 - darkS[lane]))), accuracy: 1e-6)
        }
        XCTAssertEqual(darker, opaque(0.25, 0, 0))
        // plusLighter clamps at 1 (colour and alpha).
        let bright = SIMD4<Float>(0.75, 0.5, 0.25, 0.75)
        XCTAssertEqual(BlendMode.plusLighter.blend(source: bright, destination: bright), SIMD4(1, 1, 0.5, 1))

        // The W3C edge cases of colorDodge and colorBurn.
        XCTAssertEqual(BlendMode.colorDodge.blend(source: opaque(1, 1, 0.5), destination: opaque(0, 0.25, 0.25)),
                       opaque(0, 1, 0.5))
        XCTAssertEqual(BlendMode.colorBurn.blend(source: opaque(0, 0, 0.5), destination: opaque(1, 0.5, 0.75)),
                       opaque(1, 0, 0.5))
        // softLight with Cs = 0.5 is the backdrop; overlay of a backdrop with itself at 0.25 is 0.125.
        XCTAssertEqual(BlendMode.softLight.blend(source: grey, destination: opaque(0.25, 0.75, 1)),
                       opaque(0.25, 0.75, 1))
        XCTAssertEqual(BlendMode.overlay.blend(source: opaque(0.25, 0.25, 0.25), destination: opaque(0.25, 0.25, 0.25)),
                       opaque(0.125, 0.125, 0.125))
        // luminosity: SetLum(red, 0.5) = ClipColor((1.2, 0.2, 0.2)) = (1, 2/7, 2/7), whose Lum is 0.5;
        // color of red over grey keeps the grey's Lum.
        let lum = BlendMode.luminosity.blend(source: grey, destination: opaque(1, 0, 0))
        XCTAssertEqual(lum.x, 1, accuracy: 1e-6)
        XCTAssertEqual(lum.y, 2.0 / 7, accuracy: 1e-6)
        XCTAssertEqual(lum.z, 2.0 / 7, accuracy: 1e-6)
        let coloured = BlendMode.color.blend(source: opaque(1, 0, 0), destination: grey)
        XCTAssertEqual(0.3 * coloured.x + 0.59 * coloured.y + 0.11 * coloured.z, 0.5, accuracy: 1e-6)
        XCTAssertGreaterThan(coloured.x, coloured.y)
    }

    func testCoverageCompositeIsBoundedByCoverage() {
        var g = SplitMix64(state: 42)
        for mode in BlendMode.allCases {
            for _ in 0..<500 {
                let s = randomColor(&g), d = randomColor(&g)
                let blended = mode.blend(source: s, destination: d)
                XCTAssertEqual(composite(source: s, destination: d, coverage: 0, mode: mode), d, "\(mode)")
                XCTAssertEqual(composite(source: s, destination: d, coverage: 1, mode: mode), blended, "\(mode)")
                let t = Float(Double.random(in: 0...1, using: &g))
                let mixed = composite(source: s, destination: d, coverage: t, mode: mode)
                for lane in 0..<4 {
                    XCTAssertEqual(mixed[lane], d[lane] + t * (blended[lane] - d[lane]), accuracy: 1e-6, "\(mode)")
                }
                XCTAssert(mixed.x <= mixed.w && mixed.y <= mixed.w && mixed.z <= mixed.w && mixed.w <= 1)
            }
        }
    }

    func testZeroAlphaInputsNeverProduceNaN() {
        let colours: [SIMD4<Float>] = [.zero, SIMD4(0.3, 0.2, 0.1, 0.5), SIMD4(1, 1, 1, 1), SIMD4(0, 0, 0, 1),
                                       SIMD4(0.5, 0.5, 0.5, 0.5)]
        for mode in BlendMode.allCases {
            for other in colours {
                for (s, d) in [(SIMD4<Float>.zero, other), (other, .zero)] {
                    let r = mode.blend(source: s, destination: d)
                    XCTAssertFalse(r.x.isNaN || r.y.isNaN || r.z.isNaN || r.w.isNaN, "\(mode): \(s) over \(d)")
                    let reference = Reference.blend(mode, doubles(s), doubles(d))!
                    for lane in 0..<4 { XCTAssertEqual(Double(r[lane]), reference[lane], accuracy: 1e-6, "\(mode)") }
                }
            }
        }
    }

    func testPreservesDestinationWhereSourceIsClear() {
        var g = SplitMix64(state: 7)
        let destinations = (0..<200).map { _ in randomColor(&g) } + [SIMD4(0.25, 0.5, 0.75, 1)]
        for mode in BlendMode.allCases {
            let changes = destinations.contains { d in
                let r = mode.blend(source: .zero, destination: d)
                return (0..<4).contains { abs(r[$0] - d[$0]) > 1e-6 }
            }
            XCTAssertEqual(changes, !mode.preservesDestinationWhereSourceIsClear, "\(mode)")
        }
    }

    func testRowStoreRoundsHalfUpAtEveryBoundary() {
        // Opaque sources copied at full coverage: the stored byte is exactly the scene
        // format's rounding of the channel value, including values on and beside x.5.
        var values: [Float] = []
        for k in 0...255 {
            let centre = Float(k) / 255, boundary = (Float(k) + 0.5) / 255
            values += [centre, centre.nextUp, centre.nextDown, boundary, boundary.nextUp, boundary.nextDown]
        }
        values = values.filter { $0 >= 0 && $0 <= 1 }
        let sources = values.map { SIMD4<Float>($0, $0, $0, 1) }
        let coverage = [Float](repeating: 1, count: sources.count)
        var pixels = [UInt8](repeating: 0, count: 4 * sources.count)
        sources.withUnsafeBufferPointer { src in coverage.withUnsafeBufferPointer { cov in
            pixels.withUnsafeMutableBufferPointer { BlendMode.copy.blendRow(sources: src, coverage: cov, destination: $0) }
        } }
        for (i, v) in values.enumerated() {
            XCTAssertEqual(pixels[4 * i], UInt8(min(255, max(0, v * 255 + 0.5)).rounded(.down)), "value \(v)")
            XCTAssertEqual(pixels[4 * i + 3], 255)
        }
        XCTAssertEqual(pixels[4 * values.firstIndex(of: 0.5)!], 128)
    }

    func testRowCompositeMatchesThePerPixelCompositeRoundedHalfUp() {
        var g = SplitMix64(state: 99)
        let count = 257
        for mode in BlendMode.allCases {
            // Some sources are exactly opaque: normal and copy store those without reading the destination.
            let sources = (0..<count).map { i -> SIMD4<Float> in
                if i % 17 == 0 { return .zero }
                var c = randomColor(&g)
                if i % 3 == 1 { c.w = 1 }  // colour channels are <= their old alpha <= 1: still valid
                return c
            }
            let coverage: [Float] = (0..<count).map { i in
                switch i % 4 { case 0: return 0; case 1: return 1; default: return Float(Double.random(in: 0...1, using: &g)) }
            }
            let original: [UInt8] = (0..<count).flatMap { _ -> [UInt8] in
                let a = UInt8(truncatingIfNeeded: g.next())
                return (0..<3).map { _ in premultiply(UInt8(truncatingIfNeeded: g.next()), alpha: a) } + [a]
            }
            func expected(_ sourceAt: (Int) -> SIMD4<Float>) -> [UInt8] {
                (0..<count).flatMap { i -> [UInt8] in
                    let d = SIMD4<Float>(Float(original[4 * i]), Float(original[4 * i + 1]),
                                         Float(original[4 * i + 2]), Float(original[4 * i + 3])) / 255
                    let r = composite(source: sourceAt(i), destination: d, coverage: coverage[i], mode: mode)
                    return (0..<4).map { UInt8(min(255, max(0, r[$0] * 255 + 0.5)).rounded(.down)) }
                }
            }
            var perPixel = original
            sources.withUnsafeBufferPointer { src in coverage.withUnsafeBufferPointer { cov in
                perPixel.withUnsafeMutableBufferPointer { mode.blendRow(sources: src, coverage: cov, destination: $0) }
            } }
            XCTAssertEqual(perPixel, expected { sources[$0] }, "\(mode), per-pixel source")
            let constant = sources[1]
            var uniform = original
            coverage.withUnsafeBufferPointer { cov in
                uniform.withUnsafeMutableBufferPointer { mode.blendRow(source: constant, coverage: cov, destination: $0) }
            }
            XCTAssertEqual(uniform, expected { _ in constant }, "\(mode), constant source")
            // Runs of one coverage (the inside of a shape): the same bytes as the per-pixel path.
            for runCoverage: Float in [1, 0.6] {
                let flat = [Float](repeating: runCoverage, count: count)
                var viaBuffer = original, viaConstant = original, solidBuffer = original, solidConstant = original
                for source in [sources[1], SIMD4<Float>(0.2, 0.4, 0.6, 1)] {
                    sources.withUnsafeBufferPointer { src in flat.withUnsafeBufferPointer { cov in
                        viaBuffer.withUnsafeMutableBufferPointer { mode.blendRow(sources: src, coverage: cov, destination: $0) }
                        viaConstant.withUnsafeMutableBufferPointer { mode.blendRow(sources: src, coverage: runCoverage, destination: $0) }
                        solidBuffer.withUnsafeMutableBufferPointer { mode.blendRow(source: source, coverage: cov, destination: $0) }
                        solidConstant.withUnsafeMutableBufferPointer {
                            mode.blendRow(source: source, coverage: runCoverage, count: count, destination: $0)
                        }
                    } }
                    XCTAssertEqual(viaConstant, viaBuffer, "\(mode), sources over a run of coverage \(runCoverage)")
                    XCTAssertEqual(solidConstant, solidBuffer, "\(mode), \(source) over a run of coverage \(runCoverage)")
                }
            }
            // Pixels with zero coverage keep their bytes.
            for i in 0..<count where coverage[i] == 0 {
                XCTAssertEqual(Array(perPixel[4 * i..<4 * i + 4]), Array(original[4 * i..<4 * i + 4]))
            }
        }
    }
}
