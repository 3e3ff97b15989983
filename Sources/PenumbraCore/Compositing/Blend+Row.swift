// Blend+Row: the composite of a whole row of 8-bit premultiplied pixels, for the CPU
// renderer's inner loop. The switch on the blend mode happens once per row; each case
// runs the row loop specialised (generic over a kernel type and a source type, which
// Swift specialises reliably where closures stay indirect calls), so the per-pixel
// work is straight, inlined SIMD4<Int32> arithmetic.
//
// Per pixel it is exactly `composite(source:destination:coverage:mode:)` on U8 values
// (docs/ARITHMETIC.md): the blend, then `div255(dst (255 - t) + blend t)`. Pixels with
// zero coverage are skipped (they would be stored back unchanged), as are pixels with a
// transparent source in modes that preserve the destination there.

extension BlendMode {
    /// Composites a constant premultiplied `source` into a row of 8-bit premultiplied
    /// RGBA pixels, one coverage value per pixel (`result = dst + coverage * (blend(src,
    /// dst) - dst)`), rounding each channel half up.
    ///
    /// `destination` holds `4 * coverage.count` bytes (R, G, B, A per pixel).
    public func blendRow(source: SIMD4<UInt8>, coverage: UnsafeBufferPointer<UInt8>,
                         destination: UnsafeMutableBufferPointer<UInt8>) {
        precondition(destination.count >= coverage.count * 4, "destination row is shorter than the coverage")
        if source.w == 0, preservesDestinationWhereSourceIsClear { return }
        guard let base = coverage.baseAddress else { return }
        dispatchRow(ConstantRowSource(color: SIMD4<Int32>(truncatingIfNeeded: source)), BufferCoverage(base: base), coverage.count, destination)
    }

    /// Composites a constant premultiplied `source` into `count` pixels of a row of 8-bit
    /// premultiplied RGBA pixels, all with the same `coverage` (the inside of a shape).
    ///
    /// Where the result cannot depend on the destination (full coverage of an opaque source in
    /// normal mode, or full coverage in copy mode) the pixels are simply filled with the
    /// source's bytes, which is what the blend formula gives there, bit for bit.
    public func blendRow(source: SIMD4<UInt8>, coverage: UInt8, count: Int,
                         destination: UnsafeMutableBufferPointer<UInt8>) {
        precondition(destination.count >= count * 4, "destination row is shorter than the span")
        guard count > 0, coverage > 0, let pixels = destination.baseAddress else { return }
        if source.w == 0, preservesDestinationWhereSourceIsClear { return }
        if coverage == 255, self == .copy || (self == .normal && source.w == 255) {
            // div255(255 s + d (255 - 255)) is s for any d; copy is s by definition.
            let bytes = source
            UnsafeMutableRawPointer(pixels).withMemoryRebound(to: SIMD4<UInt8>.self, capacity: count) {
                $0.update(repeating: bytes, count: count)
            }
            return
        }
        dispatchRow(ConstantRowSource(color: SIMD4<Int32>(truncatingIfNeeded: source)), ConstantCoverage(value: Int32(coverage)), count, destination)
    }

    /// Composites one premultiplied source colour per pixel into `count` pixels of a row, all
    /// with the same `coverage`.
    public func blendRow(sources: UnsafeBufferPointer<SIMD4<UInt8>>, coverage: UInt8,
                         destination: UnsafeMutableBufferPointer<UInt8>) {
        precondition(destination.count >= sources.count * 4, "destination row is shorter than the sources")
        guard let base = sources.baseAddress, coverage > 0 else { return }
        dispatchRow(BufferRowSource(base: base), ConstantCoverage(value: Int32(coverage)), sources.count, destination)
    }

    /// Composites one premultiplied source colour per pixel (`sources[i]` over pixel `i`)
    /// into a row of 8-bit premultiplied RGBA pixels, one coverage value per pixel,
    /// rounding each channel half up.
    ///
    /// `sources.count` equals `coverage.count`; `destination` holds `4 * coverage.count` bytes.
    public func blendRow(sources: UnsafeBufferPointer<SIMD4<UInt8>>, coverage: UnsafeBufferPointer<UInt8>,
                         destination: UnsafeMutableBufferPointer<UInt8>) {
        precondition(sources.count == coverage.count, "one source colour per coverage value")
        precondition(destination.count >= coverage.count * 4, "destination row is shorter than the coverage")
        guard let base = sources.baseAddress, let coverageBase = coverage.baseAddress else { return }
        dispatchRow(BufferRowSource(base: base), BufferCoverage(base: coverageBase), coverage.count, destination)
    }

    /// Switches once on the mode to the row loop specialised for its kernel.
    private func dispatchRow<Source: RowSource, Coverage: RowCoverage>(
        _ source: Source, _ coverage: Coverage, _ count: Int, _ destination: UnsafeMutableBufferPointer<UInt8>
    ) {
        guard count > 0, let pixels = destination.baseAddress else { return }
        let skipClear = preservesDestinationWhereSourceIsClear
        switch self {
        case .normal: compositeRow(NormalKernel.self, source, count, coverage, pixels, skipClear)
        case .multiply: compositeRow(MultiplyKernel.self, source, count, coverage, pixels, skipClear)
        case .screen: compositeRow(ScreenKernel.self, source, count, coverage, pixels, skipClear)
        case .overlay: compositeRow(OverlayKernel.self, source, count, coverage, pixels, skipClear)
        case .darken: compositeRow(DarkenKernel.self, source, count, coverage, pixels, skipClear)
        case .lighten: compositeRow(LightenKernel.self, source, count, coverage, pixels, skipClear)
        case .colorDodge: compositeRow(ColorDodgeKernel.self, source, count, coverage, pixels, skipClear)
        case .colorBurn: compositeRow(ColorBurnKernel.self, source, count, coverage, pixels, skipClear)
        case .softLight: compositeRow(SoftLightKernel.self, source, count, coverage, pixels, skipClear)
        case .hardLight: compositeRow(HardLightKernel.self, source, count, coverage, pixels, skipClear)
        case .difference: compositeRow(DifferenceKernel.self, source, count, coverage, pixels, skipClear)
        case .exclusion: compositeRow(ExclusionKernel.self, source, count, coverage, pixels, skipClear)
        case .hue: compositeRow(HueKernel.self, source, count, coverage, pixels, skipClear)
        case .saturation: compositeRow(SaturationKernel.self, source, count, coverage, pixels, skipClear)
        case .color: compositeRow(ColorKernel.self, source, count, coverage, pixels, skipClear)
        case .luminosity: compositeRow(LuminosityKernel.self, source, count, coverage, pixels, skipClear)
        case .clear: compositeRow(ClearKernel.self, source, count, coverage, pixels, skipClear)
        case .copy: compositeRow(CopyKernel.self, source, count, coverage, pixels, skipClear)
        case .sourceIn: compositeRow(SourceInKernel.self, source, count, coverage, pixels, skipClear)
        case .sourceOut: compositeRow(SourceOutKernel.self, source, count, coverage, pixels, skipClear)
        case .sourceAtop: compositeRow(SourceAtopKernel.self, source, count, coverage, pixels, skipClear)
        case .destinationOver: compositeRow(DestinationOverKernel.self, source, count, coverage, pixels, skipClear)
        case .destinationIn: compositeRow(DestinationInKernel.self, source, count, coverage, pixels, skipClear)
        case .destinationOut: compositeRow(DestinationOutKernel.self, source, count, coverage, pixels, skipClear)
        case .destinationAtop: compositeRow(DestinationAtopKernel.self, source, count, coverage, pixels, skipClear)
        case .xor: compositeRow(XorKernel.self, source, count, coverage, pixels, skipClear)
        case .plusDarker: compositeRow(PlusDarkerKernel.self, source, count, coverage, pixels, skipClear)
        case .plusLighter: compositeRow(PlusLighterKernel.self, source, count, coverage, pixels, skipClear)
        }
    }
}

private typealias Color4 = SIMD4<Int32>

/// Where the row's source colours come from.
private protocol RowSource { func color(at index: Int) -> Color4 }

/// One colour for the whole row (a solid paint).
private struct ConstantRowSource: RowSource {
    let color: Color4
    @inline(__always) func color(at index: Int) -> Color4 { color }
}

/// One colour per pixel (a gradient or image span).
private struct BufferRowSource: RowSource {
    let base: UnsafePointer<SIMD4<UInt8>>
    @inline(__always) func color(at index: Int) -> Color4 { Color4(truncatingIfNeeded: base[index]) }
}

/// Where the row's coverage comes from.
private protocol RowCoverage { func coverage(at index: Int) -> Int32 }

/// One coverage per pixel (edges).
private struct BufferCoverage: RowCoverage {
    let base: UnsafePointer<UInt8>
    @inline(__always) func coverage(at index: Int) -> Int32 { Int32(base[index]) }
}

/// One coverage for the whole run (the inside of a shape).
private struct ConstantCoverage: RowCoverage {
    let value: Int32
    @inline(__always) func coverage(at index: Int) -> Int32 { value }
}

/// A blend formula as a type, so that the row loop specialises on it.
private protocol RowKernel {
    static func blend(_ s: Color4, _ d: Color4) -> Color4
    /// True when the blend of an opaque source is the source whatever the destination
    /// (normal: div255(255 s + d 0) = s; copy: s), so that a fully covered
    /// opaque source pixel is stored without reading the destination.
    static var opaqueSourceReplaces: Bool { get }
}
extension RowKernel { static var opaqueSourceReplaces: Bool { false } }

private enum NormalKernel: RowKernel {
    static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.normal(s, d) }
    static var opaqueSourceReplaces: Bool { true }
}
private enum MultiplyKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.multiply(s, d) } }
private enum ScreenKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.screen(s, d) } }
private enum OverlayKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.overlay(s, d) } }
private enum DarkenKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.darken(s, d) } }
private enum LightenKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.lighten(s, d) } }
private enum ColorDodgeKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.colorDodge(s, d) } }
private enum ColorBurnKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.colorBurn(s, d) } }
private enum SoftLightKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.softLight(s, d) } }
private enum HardLightKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.hardLight(s, d) } }
private enum DifferenceKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.difference(s, d) } }
private enum ExclusionKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.exclusion(s, d) } }
private enum HueKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.hue(s, d) } }
private enum SaturationKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.saturation(s, d) } }
private enum ColorKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.color(s, d) } }
private enum LuminosityKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.luminosity(s, d) } }
private enum ClearKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.clear(s, d) } }
private enum CopyKernel: RowKernel {
    static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.copy(s, d) }
    static var opaqueSourceReplaces: Bool { true }
}
private enum SourceInKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.sourceIn(s, d) } }
private enum SourceOutKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.sourceOut(s, d) } }
private enum SourceAtopKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.sourceAtop(s, d) } }
private enum DestinationOverKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.destinationOver(s, d) } }
private enum DestinationInKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.destinationIn(s, d) } }
private enum DestinationOutKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.destinationOut(s, d) } }
private enum DestinationAtopKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.destinationAtop(s, d) } }
private enum XorKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.xor(s, d) } }
private enum PlusDarkerKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.plusDarker(s, d) } }
private enum PlusLighterKernel: RowKernel { static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.plusLighter(s, d) } }

/// The row loop for one kernel and one source kind: read, blend, mix by coverage, store.
/// Per pixel exactly `composite(source:destination:coverage:mode:)`.
@inline(__always)
private func compositeRow<Kernel: RowKernel, Source: RowSource, Coverage: RowCoverage>(
    _ kernel: Kernel.Type, _ source: Source, _ count: Int, _ coverage: Coverage,
    _ pixels: UnsafeMutablePointer<UInt8>, _ skipClearSource: Bool
) {
    let raw = UnsafeMutableRawPointer(pixels)
    for i in 0..<count {
        let t = coverage.coverage(at: i)
        if t == 0 { continue }
        let s = source.color(at: i)
        if skipClearSource, s.w == 0 { continue }
        let offset = i &* 4
        if Kernel.opaqueSourceReplaces, t == 255, s.w == 255 {
            raw.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: s), toByteOffset: offset, as: SIMD4<UInt8>.self)
            continue
        }
        let d = Color4(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self))
        let blended = BlendKernel.validPremultiplied(Kernel.blend(s, d))
        let mixed = t == 255 ? blended : BlendKernel.mix(d, blended, t)
        raw.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: mixed), toByteOffset: offset, as: SIMD4<UInt8>.self)
    }
}
