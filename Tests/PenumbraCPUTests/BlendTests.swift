// BlendTests: the 28 blend modes against an independent float64 reference written
// here straight from the W3C Compositing and Blending Level 1 text: the blend
// functions on non-premultiplied colours (the spec's pseudo-code, sorting included),
// the spec's compositing step Cs' = (1 - αb) Cs + αb B(Cb, Cs) followed by source-over
// on premultiplied values, and Porter-Duff by its (Fa, Fb) table. Our integer formulas
// (docs/ARITHMETIC.md) take U8 premultiplied inputs; the reference takes the same
// values / 255 and is rounded to 8 bits; the two must agree within 1/255.
import XCTest
import PenumbraTestSupport
import PenumbraModel
import PenumbraCore
import PenumbraCPU

// MARK: - Float64 reference

private typealias RGB = (r: Double, g: Double, b: Double)

private enum Reference {
    // Separable blend functions B(Cb, Cs), W3C section 10.
    static let separable: [BlendMode: @Sendable (_ cb: Double, _ cs: Double) -> Double] = [
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
    static let nonSeparable: [BlendMode: @Sendable (_ cb: RGB, _ cs: RGB) -> RGB] = [
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
    static let porterDuff: [BlendMode: @Sendable (_ aS: Double, _ aB: Double) -> (Double, Double)] = [
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

private func doubles(_ c: SIMD4<Int32>) -> [Double] { (0..<4).map { Double(c[$0]) / 255 } }

/// A valid U8 premultiplied colour, alpha 0 or 255 a quarter of the time.
private func randomColor(_ g: inout SplitMix64) -> SIMD4<Int32> {
    let a = UInt8(truncatingIfNeeded: g.next() % 4 == 0 ? (g.next() % 2) * 255 : g.next() % 256)
    func channel() -> Int32 {
        switch g.next() % 8 {
        case 0: return 0
        case 1: return Int32(a)
        default: return Int32(premultiply(UInt8(truncatingIfNeeded: g.next()), alpha: a))
        }
    }
    return SIMD4(channel(), channel(), channel(), Int32(a))
}

private func opaque(_ r: Int32, _ g: Int32, _ b: Int32) -> SIMD4<Int32> { SIMD4(r, g, b, 255) }

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
                    XCTAssert(v >= 0 && v <= 255, "\(mode) left 0...255: \(ours) for \(s) over \(d)")
                    let error = abs(Int(v) - byte(reference[lane]))
                    if error > worst { worst = error; worstCase = "\(s) over \(d): \(ours) vs \(reference)" }
                }
                XCTAssert(ours.x <= ours.w && ours.y <= ours.w && ours.z <= ours.w,
                          "\(mode) colour exceeds alpha: \(ours)")
            }
            XCTAssertLessThanOrEqual(worst, 1, "\(mode) differs from the reference by \(worst)/255 at \(worstCase)")
        }
    }

    func testKnownValues() {
        let grey = opaque(128, 128, 128)
        // 128 x 128 / 255 = 64.25; 255 (128 + 128) - 128 x 128 = 48_896, / 255 = 191.75.
        XCTAssertEqual(BlendMode.multiply.blend(source: grey, destination: grey), opaque(64, 64, 64))
        XCTAssertEqual(BlendMode.screen.blend(source: grey, destination: grey), opaque(192, 192, 192))
        XCTAssertEqual(BlendMode.difference.blend(source: opaque(192, 64, 128), destination: opaque(64, 128, 128)),
                       opaque(128, 64, 0))

        let source = SIMD4<Int32>(50, 26, 76, 128), destination = SIMD4<Int32>(102, 153, 51, 204)
        XCTAssertEqual(BlendMode.clear.blend(source: source, destination: destination), .zero)
        XCTAssertEqual(BlendMode.copy.blend(source: source, destination: destination), source)
        // destinationIn: d x 128 / 255, rounded: 51.2, 76.8, 25.6, 102.4.
        XCTAssertEqual(BlendMode.destinationIn.blend(source: source, destination: destination), SIMD4(51, 77, 26, 102))
        // normal: s + d x 127 / 255: 100.8, 102.2, 101.4, 229.6.
        XCTAssertEqual(BlendMode.normal.blend(source: source, destination: destination), SIMD4(101, 102, 101, 230))

        // plusDarker of opaque colours is Quartz's max(0, 1 - ((1 - D) + (1 - S))), exactly on bytes.
        XCTAssertEqual(BlendMode.plusDarker.blend(source: opaque(192, 64, 128), destination: opaque(128, 128, 64)),
                       opaque(65, 0, 0))
        // plusLighter clamps at 255 (colour and alpha).
        let bright = SIMD4<Int32>(192, 128, 64, 192)
        XCTAssertEqual(BlendMode.plusLighter.blend(source: bright, destination: bright), SIMD4(255, 255, 128, 255))

        // The W3C edge cases of colorDodge and colorBurn (Cs = 1, Cb = 0, Cb = 1, Cs = 0).
        XCTAssertEqual(BlendMode.colorDodge.blend(source: opaque(255, 255, 128), destination: opaque(0, 64, 64)),
                       opaque(0, 255, 129))  // (64 / 255) / (1 - 128 / 255) x 255 = 128.5
        XCTAssertEqual(BlendMode.colorBurn.blend(source: opaque(0, 0, 128), destination: opaque(255, 128, 192)),
                       opaque(255, 0, 129))  // 1 - (63 / 255) / (128 / 255) = 0.5078: 129.5 less the floor
        // softLight with Cs = 1/2 (127 of alpha 254 over an opaque backdrop) leaves the backdrop's colour.
        let halfSource = SIMD4<Int32>(127, 127, 127, 254)
        let soft = BlendMode.softLight.blend(source: halfSource, destination: opaque(64, 191, 255))
        XCTAssertEqual(soft, opaque(64, 191, 255))
        // luminosity: SetLum(red, l) with l = 128 / 255 = ClipColor((1 + d, d, d)), d = l - 0.3:
        // (1, l - 0.3 (1 - l) / (1 + d - l), ...) = (255, 73.57, 73.57).
        let lum = BlendMode.luminosity.blend(source: grey, destination: opaque(255, 0, 0))
        XCTAssertEqual(lum.x, 255)
        let l = 128.0 / 255, d = l - 0.3
        XCTAssertEqual(Double(lum.y), 255 * (l - 0.3 * (1 - l) / (1 + d - l)), accuracy: 1)
        XCTAssertEqual(lum.y, lum.z)
        let coloured = BlendMode.color.blend(source: opaque(255, 0, 0), destination: grey)
        XCTAssertEqual(0.3 * Double(coloured.x) + 0.59 * Double(coloured.y) + 0.11 * Double(coloured.z), 128, accuracy: 1)
        XCTAssertGreaterThan(coloured.x, coloured.y)
    }

    func testCoverageCompositeIsBoundedByCoverage() {
        var g = SplitMix64(state: 42)
        for mode in BlendMode.allCases {
            for _ in 0..<500 {
                let s = randomColor(&g), d = randomColor(&g)
                let blended = mode.blend(source: s, destination: d)
                XCTAssertEqual(composite(source: s, destination: d, coverage: 0, mode: mode), d, "\(mode)")
                XCTAssertEqual(composite(source: s, destination: d, coverage: 255, mode: mode), blended, "\(mode)")
                let t = Int32(g.next() % 256)
                let mixed = composite(source: s, destination: d, coverage: t, mode: mode)
                for lane in 0..<4 {
                    let exact = (Double(d[lane]) * Double(255 - t) + Double(blended[lane]) * Double(t)) / 255
                    XCTAssertEqual(Double(mixed[lane]), exact, accuracy: 0.5, "\(mode)")
                }
                XCTAssert(mixed.x <= mixed.w && mixed.y <= mixed.w && mixed.z <= mixed.w && mixed.w <= 255)
            }
        }
    }

    func testZeroAlphaInputsMatchTheReference() {
        let colours: [SIMD4<Int32>] = [.zero, SIMD4(77, 51, 26, 128), SIMD4(255, 255, 255, 255), SIMD4(0, 0, 0, 255),
                                       SIMD4(128, 128, 128, 128)]
        for mode in BlendMode.allCases {
            for other in colours {
                for (s, d) in [(SIMD4<Int32>.zero, other), (other, .zero)] {
                    let r = mode.blend(source: s, destination: d)
                    let reference = Reference.blend(mode, doubles(s), doubles(d))!
                    for lane in 0..<4 { XCTAssertEqual(Int(r[lane]), byte(reference[lane]), "\(mode): \(s) over \(d)") }
                }
            }
        }
    }

    func testPreservesDestinationWhereSourceIsClear() {
        var g = SplitMix64(state: 7)
        let destinations = (0..<200).map { _ in randomColor(&g) } + [SIMD4(64, 128, 192, 255)]
        for mode in BlendMode.allCases {
            let changes = destinations.contains { d in mode.blend(source: .zero, destination: d) != d }
            XCTAssertEqual(changes, !mode.preservesDestinationWhereSourceIsClear, "\(mode)")
        }
    }

    /// A solid colour in normal mode is composited two pixels at a time in eight 16-bit lanes,
    /// the last odd pixel alone: every pixel equals the per-pixel composite, for translucent and
    /// opaque sources, coverage 0 and 255 beside partial values, and destinations whose colour
    /// lanes exceed their alpha (where the blend's clamp to alpha decides the bytes).
    func testSolidNormalPairsMatchThePerPixelComposite() {
        var g = SplitMix64(state: 2026)
        for count in [1, 2, 3, 8, 31] {
            for trial in 0..<64 {
                var source = SIMD4<UInt8>(truncatingIfNeeded: randomColor(&g))
                // Its colour lanes stay within a raised alpha. (A clear source leaves the row as it
                // is, which testPreservesDestinationWhereSourceIsClear covers.)
                if trial % 4 == 0 { source.w = 255 } else if source.w == 0 { source.w = 1 }
                let coverage: [UInt8] = (0..<count).map { i in
                    switch (i + trial) % 5 { case 0: return 0; case 1: return 255; default: return UInt8(truncatingIfNeeded: g.next()) }
                }
                // Any bytes: half the destinations have a colour lane above their alpha.
                let original = (0..<(4 * count)).map { _ in UInt8(truncatingIfNeeded: g.next()) }
                var row = original
                coverage.withUnsafeBufferPointer { cov in
                    row.withUnsafeMutableBufferPointer { BlendMode.normal.blendRow(source: source, coverage: cov, destination: $0) }
                }
                let expected = (0..<count).flatMap { i -> [UInt8] in
                    let d = SIMD4<Int32>((0..<4).map { Int32(original[4 * i + $0]) })
                    let r = composite(source: SIMD4<Int32>(truncatingIfNeeded: source), destination: d,
                                      coverage: Int32(coverage[i]), mode: .normal)
                    return (0..<4).map { UInt8(r[$0]) }
                }
                XCTAssertEqual(row, expected, "source \(source), \(count) pixels, coverage \(coverage)")
            }
        }
    }

    func testRowCompositeMatchesThePerPixelComposite() {
        var g = SplitMix64(state: 99)
        let count = 257
        for mode in BlendMode.allCases {
            // Some sources are exactly opaque: normal and copy store those without reading the destination.
            let sources = (0..<count).map { i -> SIMD4<UInt8> in
                if i % 17 == 0 { return .zero }
                var c = randomColor(&g)
                if i % 3 == 1 { c.w = 255 }  // colour channels are <= their old alpha <= 255: still valid
                return SIMD4<UInt8>(truncatingIfNeeded: c)
            }
            let coverage: [UInt8] = (0..<count).map { i in
                switch i % 4 { case 0: return 0; case 1: return 255; default: return UInt8(truncatingIfNeeded: g.next()) }
            }
            let original: [UInt8] = (0..<count).flatMap { _ -> [UInt8] in
                let a = UInt8(truncatingIfNeeded: g.next())
                return (0..<3).map { _ in premultiply(UInt8(truncatingIfNeeded: g.next()), alpha: a) } + [a]
            }
            func expected(_ sourceAt: (Int) -> SIMD4<UInt8>) -> [UInt8] {
                (0..<count).flatMap { i -> [UInt8] in
                    let d = SIMD4<Int32>(Int32(original[4 * i]), Int32(original[4 * i + 1]),
                                         Int32(original[4 * i + 2]), Int32(original[4 * i + 3]))
                    let r = composite(source: SIMD4<Int32>(truncatingIfNeeded: sourceAt(i)), destination: d,
                                      coverage: Int32(coverage[i]), mode: mode)
                    return (0..<4).map { UInt8(r[$0]) }
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
            for runCoverage: UInt8 in [255, 153] {
                let flat = [UInt8](repeating: runCoverage, count: count)
                var viaBuffer = original, viaConstant = original, solidBuffer = original, solidConstant = original
                for source in [sources[1], SIMD4<UInt8>(51, 102, 153, 255)] {
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
