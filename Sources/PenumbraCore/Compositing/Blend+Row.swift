// Blend+Row: the composite of a whole row of 8-bit premultiplied pixels, for the CPU
// renderer's inner loop. The switch on the blend mode happens once per row; each case
// runs a loop specialised for its formula (the loop and the kernel are inlined into
// the case), so the per-pixel work is straight SIMD4<Float> arithmetic.
//
// Per pixel it is exactly `composite(source:destination:coverage:mode:)` on the
// destination read as `byte / 255`, stored back rounded half up,
// `UInt8(min(255, max(0, v * 255 + 0.5)).rounded(.down))` (SCENE_FORMAT.md,
// Precision: "stored into the 8-bit premultiplied target, rounded to nearest").
// Pixels with zero coverage are skipped (they would be stored back unchanged), as
// are pixels with a transparent source in modes that preserve the destination there.

extension BlendMode {
    /// Composites a constant premultiplied `source` into a row of 8-bit premultiplied
    /// RGBA pixels, one coverage value per pixel (`result = dst + coverage * (blend(src,
    /// dst) - dst)`), rounding each channel half up.
    ///
    /// `destination` holds `4 * coverage.count` bytes (R, G, B, A per pixel).
    public func blendRow(source: SIMD4<Float>, coverage: UnsafeBufferPointer<Float>,
                         destination: UnsafeMutableBufferPointer<UInt8>) {
        precondition(destination.count >= coverage.count * 4, "destination row is shorter than the coverage")
        if source.w <= 0, preservesDestinationWhereSourceIsClear { return }
        blendRow(count: coverage.count, coverage: coverage, destination: destination) { _ in source }
    }

    /// Composites one premultiplied source colour per pixel (`sources[i]` over pixel `i`)
    /// into a row of 8-bit premultiplied RGBA pixels, one coverage value per pixel,
    /// rounding each channel half up.
    ///
    /// `sources.count` equals `coverage.count`; `destination` holds `4 * coverage.count` bytes.
    public func blendRow(sources: UnsafeBufferPointer<SIMD4<Float>>, coverage: UnsafeBufferPointer<Float>,
                         destination: UnsafeMutableBufferPointer<UInt8>) {
        precondition(sources.count == coverage.count, "one source colour per coverage value")
        precondition(destination.count >= coverage.count * 4, "destination row is shorter than the coverage")
        blendRow(count: coverage.count, coverage: coverage, destination: destination) { sources[$0] }
    }

    /// Dispatches once on the mode to a loop specialised for its kernel.
    @inline(__always)
    private func blendRow(count: Int, coverage: UnsafeBufferPointer<Float>,
                          destination: UnsafeMutableBufferPointer<UInt8>,
                          source: (Int) -> SIMD4<Float>) {
        guard count > 0, let base = destination.baseAddress, let cov = coverage.baseAddress else { return }
        let skipClear = preservesDestinationWhereSourceIsClear
        @inline(__always)
        func run(_ kernel: (SIMD4<Float>, SIMD4<Float>) -> SIMD4<Float>) {
            compositeRow(count: count, coverage: cov, pixels: base, skipClearSource: skipClear,
                         source: source, kernel: kernel)
        }
        switch self {
        case .normal: run(BlendKernel.normal)
        case .multiply: run(BlendKernel.multiply)
        case .screen: run(BlendKernel.screen)
        case .overlay: run(BlendKernel.overlay)
        case .darken: run(BlendKernel.darken)
        case .lighten: run(BlendKernel.lighten)
        case .colorDodge: run(BlendKernel.colorDodge)
        case .colorBurn: run(BlendKernel.colorBurn)
        case .softLight: run(BlendKernel.softLight)
        case .hardLight: run(BlendKernel.hardLight)
        case .difference: run(BlendKernel.difference)
        case .exclusion: run(BlendKernel.exclusion)
        case .hue: run(BlendKernel.hue)
        case .saturation: run(BlendKernel.saturation)
        case .color: run(BlendKernel.color)
        case .luminosity: run(BlendKernel.luminosity)
        case .clear: run(BlendKernel.clear)
        case .copy: run(BlendKernel.copy)
        case .sourceIn: run(BlendKernel.sourceIn)
        case .sourceOut: run(BlendKernel.sourceOut)
        case .sourceAtop: run(BlendKernel.sourceAtop)
        case .destinationOver: run(BlendKernel.destinationOver)
        case .destinationIn: run(BlendKernel.destinationIn)
        case .destinationOut: run(BlendKernel.destinationOut)
        case .destinationAtop: run(BlendKernel.destinationAtop)
        case .xor: run(BlendKernel.xor)
        case .plusDarker: run(BlendKernel.plusDarker)
        case .plusLighter: run(BlendKernel.plusLighter)
        }
    }
}

/// The row loop for one kernel: read, blend, mix by coverage, clamp, round, store.
@inline(__always)
private func compositeRow(count: Int, coverage: UnsafePointer<Float>, pixels: UnsafeMutablePointer<UInt8>,
                          skipClearSource: Bool, source: (Int) -> SIMD4<Float>,
                          kernel: (SIMD4<Float>, SIMD4<Float>) -> SIMD4<Float>) {
    let raw = UnsafeMutableRawPointer(pixels)
    for i in 0..<count {
        let t = coverage[i]
        if !(t > 0) { continue }
        let s = source(i)
        if skipClearSource, s.w <= 0 { continue }
        let offset = i &* 4
        let bytes = raw.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self)
        let d = SIMD4<Float>(bytes) / 255
        let blended = BlendKernel.validPremultiplied(kernel(s, d))
        let mixed = t >= 1 ? blended : BlendKernel.validPremultiplied(d + t * (blended - d))
        raw.storeBytes(of: storedBytes(mixed), toByteOffset: offset, as: SIMD4<UInt8>.self)
    }
}

/// `UInt8(min(255, max(0, v * 255 + 0.5)).rounded(.down))` per channel: round half up.
@inline(__always)
private func storedBytes(_ v: SIMD4<Float>) -> SIMD4<UInt8> {
    let scaled = (v * 255 + 0.5).clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255))
    return SIMD4<UInt8>(truncatingIfNeeded: SIMD4<Int32>(scaled, rounding: .down))
}
