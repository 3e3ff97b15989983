// Blend+Row: the composite of a whole row of 8-bit premultiplied pixels, for the CPU
// renderer's inner loop. The switch on the blend mode happens once per row; each case
// runs the row loop specialised (generic over a kernel type and a source type, which
// Swift specialises reliably where closures stay indirect calls), so the per-pixel
// work is straight, inlined SIMD4<Int32> arithmetic.
//
// A solid paint through a coverage mask goes a row of spans at a time (`blendRow(source:
// mask:...)`): one switch per row, then each span's loop specialised for the kernel and for
// explicit or constant coverage, so a ring's short edge spans do not each pay for a call
// and a switch. A solid colour in normal mode, whichever entry it comes through, is
// composited in 16-bit lanes (`SolidNormalPixels`: the same integers, fewer instructions);
// per-pixel sources in normal mode (images, layers) go eight pixels at a time through
// CSampleKernels' AVX2 composite where the CPU runs it (penumbra_composite.c, the same
// integers for any bytes, no branch per pixel), the rest of the row through the Int32 loop.
//
// Per pixel it is exactly `composite(source:destination:coverage:mode:)` on U8 values
// (docs/ARITHMETIC.md): the blend, then `div255(dst (255 - t) + blend t)`. Pixels with
// zero coverage are skipped (they would be stored back unchanged), as are pixels with a
// transparent source in modes that preserve the destination there.

import CSampleKernels
import PenumbraModel
import PenumbraCore

extension VectorCode {
    /// The code of normal mode's composite of per-pixel sources in groups of eight pixels
    /// (CSampleKernels' for AVX2), decided once per process; `PENUMBRA_COMPOSITE_ROWS=portable`
    /// picks the Swift loop.
    package static let compositeRows = fastest(unless: "PENUMBRA_COMPOSITE_ROWS")
}

extension BlendMode {
    /// Composites a constant premultiplied `source` into a row of 8-bit premultiplied
    /// RGBA pixels, one coverage value per pixel (`result = dst + coverage * (blend(src,
    /// dst) - dst)`), rounding each channel half up.
    ///
    /// `destination` holds `4 * coverage.count` bytes (R, G, B, A per pixel).
    package func blendRow(source: SIMD4<UInt8>, coverage: UnsafeBufferPointer<UInt8>,
                         destination: UnsafeMutableBufferPointer<UInt8>) {
        precondition(destination.count >= coverage.count * 4, "destination row is shorter than the coverage")
        if source.w == 0, preservesDestinationWhereSourceIsClear { return }
        guard let base = coverage.baseAddress, let pixels = destination.baseAddress else { return }
        if let normal = solidNormal(source) {
            normal.composite(pixels, coverage.count, coverage: base)
            return
        }
        dispatchRow(ConstantRowSource(color: SIMD4<Int32>(truncatingIfNeeded: source)), BufferCoverage(base: base), coverage.count, destination)
    }

    /// Composites a constant premultiplied `source` into `count` pixels of a row of 8-bit
    /// premultiplied RGBA pixels, all with the same `coverage` (the inside of a shape).
    ///
    /// Where the result cannot depend on the destination (full coverage of an opaque source in
    /// normal mode, or full coverage in copy mode) the pixels are simply filled with the
    /// source's bytes, which is what the blend formula gives there, bit for bit.
    package func blendRow(source: SIMD4<UInt8>, coverage: UInt8, count: Int,
                         destination: UnsafeMutableBufferPointer<UInt8>) {
        precondition(destination.count >= count * 4, "destination row is shorter than the span")
        guard count > 0, coverage > 0, let pixels = destination.baseAddress else { return }
        if source.w == 0, preservesDestinationWhereSourceIsClear { return }
        if coverage == 255, fullCoverageFills(source) {
            BlendMode.fill(pixels, count, with: source)
            return
        }
        if let normal = solidNormal(source) {
            normal.composite(pixels, count, constant: coverage)
            return
        }
        dispatchRow(ConstantRowSource(color: SIMD4<Int32>(truncatingIfNeeded: source)), ConstantCoverage(value: Int32(coverage)), count, destination)
    }

    /// Composites a constant premultiplied `source` through row `y` of `mask`, columns
    /// `from..<to`, into `row`: the target's pixels of that row, 4 bytes each, the first
    /// at column `rowX`. Each span of the mask is composited as `blendRow(source:coverage:...)`
    /// composites it, explicit or constant, bit for bit.
    package func blendRow(source: SIMD4<UInt8>, mask: CoverageMask, y: Int, from: Int, to: Int,
                         row: UnsafeMutablePointer<UInt8>, rowX: Int) {
        blendRow(source: source, spans: MaskRowSpans(mask: mask, y: y, from: from, to: to), row: row, rowX: rowX)
    }

    /// Composites a constant premultiplied `source` through the spans of a resolved row (the
    /// rasterizer's, as it resolves: CoverageRow) into `row`, the target's pixels of that row,
    /// the first at column `rowX`; each span as the mask's spans are.
    package func blendRow(source: SIMD4<UInt8>, coverageRow: CoverageRow, row: UnsafeMutablePointer<UInt8>, rowX: Int) {
        blendRow(source: source, spans: coverageRow, row: row, rowX: rowX)
    }

    private func blendRow<Spans: RowSpans>(source: SIMD4<UInt8>, spans: Spans, row: UnsafeMutablePointer<UInt8>, rowX: Int) {
        if source.w == 0, preservesDestinationWhereSourceIsClear { return }
        dispatch(SpanRowJob(source: ConstantRowSource(color: SIMD4<Int32>(truncatingIfNeeded: source)), bytes: source,
                            fills: fullCoverageFills(source), normal: solidNormal(source),
                            spans: spans, row: row, rowX: rowX))
    }

    /// Whether full coverage of `source` gives the source whatever the destination:
    /// div255(255 s + d (255 - 255)) is s for an opaque source in normal mode; copy is s; both
    /// when the source is a valid premultiplied colour, which the composite's clamp leaves as
    /// it is (a colour lane above alpha is clamped to it).
    private func fullCoverageFills(_ source: SIMD4<UInt8>) -> Bool {
        isValidPremultiplied(source) && (self == .copy || (self == .normal && source.w == 255))
    }

    /// Normal mode's composite of a solid `source` in 16-bit lanes, when it applies: the same
    /// bytes as the Int32 kernel (see `SolidNormalPixels`).
    private func solidNormal(_ source: SIMD4<UInt8>) -> SolidNormalPixels? {
        self == .normal && isValidPremultiplied(source) ? SolidNormalPixels(source) : nil
    }

    /// Stores `color` into `count` pixels.
    @inline(__always)
    fileprivate static func fill(_ pixels: UnsafeMutablePointer<UInt8>, _ count: Int, with color: SIMD4<UInt8>) {
        UnsafeMutableRawPointer(pixels).withMemoryRebound(to: SIMD4<UInt8>.self, capacity: count) {
            $0.update(repeating: color, count: count)
        }
    }

    /// Composites one premultiplied source colour per pixel into `count` pixels of a row, all
    /// with the same `coverage`.
    package func blendRow(sources: UnsafeBufferPointer<SIMD4<UInt8>>, coverage: UInt8,
                         destination: UnsafeMutableBufferPointer<UInt8>, code: VectorCode = .compositeRows) {
        precondition(destination.count >= sources.count * 4, "destination row is shorter than the sources")
        guard var base = sources.baseAddress, coverage > 0, var pixels = destination.baseAddress else { return }
        var count = sources.count
        if let done = normalRows(base, nil, coverage, count, pixels, code) {
            base += done; pixels += done &* 4; count &-= done
        }
        dispatchRow(BufferRowSource(base: base), ConstantCoverage(value: Int32(coverage)), count,
                    UnsafeMutableBufferPointer(start: pixels, count: count &* 4))
    }

    /// Composites one premultiplied source colour per pixel (`sources[i]` over pixel `i`)
    /// into a row of 8-bit premultiplied RGBA pixels, one coverage value per pixel,
    /// rounding each channel half up.
    ///
    /// `sources.count` equals `coverage.count`; `destination` holds `4 * coverage.count` bytes.
    package func blendRow(sources: UnsafeBufferPointer<SIMD4<UInt8>>, coverage: UnsafeBufferPointer<UInt8>,
                         destination: UnsafeMutableBufferPointer<UInt8>, code: VectorCode = .compositeRows) {
        precondition(sources.count == coverage.count, "one source colour per coverage value")
        precondition(destination.count >= coverage.count * 4, "destination row is shorter than the coverage")
        guard var base = sources.baseAddress, var coverageBase = coverage.baseAddress,
              var pixels = destination.baseAddress else { return }
        var count = coverage.count
        if let done = normalRows(base, coverageBase, 0, count, pixels, code) {
            base += done; coverageBase += done; pixels += done &* 4; count &-= done
        }
        dispatchRow(BufferRowSource(base: base), BufferCoverage(base: coverageBase), count,
                    UnsafeMutableBufferPointer(start: pixels, count: count &* 4))
    }

    /// Normal mode's groups of eight pixels through CSampleKernels' AVX2 composite (the Int32
    /// kernel's bytes for any source bytes: penumbra_composite.c), when `code` is AVX2; returns
    /// how many leading pixels it composited (a multiple of 8), nil when it did none.
    @inline(__always)
    private func normalRows(_ sources: UnsafePointer<SIMD4<UInt8>>, _ coverage: UnsafePointer<UInt8>?, _ constant: UInt8,
                            _ count: Int, _ pixels: UnsafeMutablePointer<UInt8>, _ code: VectorCode) -> Int? {
        guard self == .normal, code == .avx2, count >= 8 else { return nil }
        let groups = count & ~7
        UnsafeRawPointer(sources).withMemoryRebound(to: UInt8.self, capacity: groups * 4) {
            penumbra_normal_row_avx2($0, coverage, constant, groups, pixels)
        }
        return groups
    }

    /// Composites `count` pixels of `source` with `coverage` into `destination`.
    private func dispatchRow<Source: RowSource, Coverage: RowCoverage>(
        _ source: Source, _ coverage: Coverage, _ count: Int, _ destination: UnsafeMutableBufferPointer<UInt8>
    ) {
        guard count > 0, let pixels = destination.baseAddress else { return }
        dispatch(RunJob(source: source, coverage: coverage, count: count, pixels: pixels))
    }

    /// Switches once on the mode to the job's loop specialised for its kernel.
    private func dispatch<Job: RowJob>(_ job: Job) {
        let skipClear = preservesDestinationWhereSourceIsClear
        switch self {
        case .normal: job.run(NormalKernel.self, skipClear)
        case .multiply: job.run(MultiplyKernel.self, skipClear)
        case .screen: job.run(ScreenKernel.self, skipClear)
        case .overlay: job.run(OverlayKernel.self, skipClear)
        case .darken: job.run(DarkenKernel.self, skipClear)
        case .lighten: job.run(LightenKernel.self, skipClear)
        case .colorDodge: job.run(ColorDodgeKernel.self, skipClear)
        case .colorBurn: job.run(ColorBurnKernel.self, skipClear)
        case .softLight: job.run(SoftLightKernel.self, skipClear)
        case .hardLight: job.run(HardLightKernel.self, skipClear)
        case .difference: job.run(DifferenceKernel.self, skipClear)
        case .exclusion: job.run(ExclusionKernel.self, skipClear)
        case .hue: job.run(HueKernel.self, skipClear)
        case .saturation: job.run(SaturationKernel.self, skipClear)
        case .color: job.run(ColorKernel.self, skipClear)
        case .luminosity: job.run(LuminosityKernel.self, skipClear)
        case .clear: job.run(ClearKernel.self, skipClear)
        case .copy: job.run(CopyKernel.self, skipClear)
        case .sourceIn: job.run(SourceInKernel.self, skipClear)
        case .sourceOut: job.run(SourceOutKernel.self, skipClear)
        case .sourceAtop: job.run(SourceAtopKernel.self, skipClear)
        case .destinationOver: job.run(DestinationOverKernel.self, skipClear)
        case .destinationIn: job.run(DestinationInKernel.self, skipClear)
        case .destinationOut: job.run(DestinationOutKernel.self, skipClear)
        case .destinationAtop: job.run(DestinationAtopKernel.self, skipClear)
        case .xor: job.run(XorKernel.self, skipClear)
        case .plusDarker: job.run(PlusDarkerKernel.self, skipClear)
        case .plusLighter: job.run(PlusLighterKernel.self, skipClear)
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

/// A row's worth of compositing, run with the blend mode's kernel.
private protocol RowJob { func run<Kernel: RowKernel>(_ kernel: Kernel.Type, _ skipClearSource: Bool) }

/// One run of pixels: `count` pixels from `pixels`.
private struct RunJob<Source: RowSource, Coverage: RowCoverage>: RowJob {
    let source: Source, coverage: Coverage, count: Int
    let pixels: UnsafeMutablePointer<UInt8>
    @inline(__always)
    func run<Kernel: RowKernel>(_ kernel: Kernel.Type, _ skipClearSource: Bool) {
        compositeRow(Kernel.self, source, count, coverage, pixels, skipClearSource)
    }
}

/// The spans of one row of coverage: a mask's row cut to columns, or a row as it is resolved.
private protocol RowSpans {
    func forEachSpan(_ body: (_ x: Int, _ count: Int, _ values: UnsafePointer<UInt8>?, _ constant: UInt8) -> Void)
}

/// Row `y` of a mask, columns `from..<to`.
private struct MaskRowSpans: RowSpans {
    let mask: CoverageMask, y: Int, from: Int, to: Int
    @inline(__always)
    func forEachSpan(_ body: (Int, Int, UnsafePointer<UInt8>?, UInt8) -> Void) {
        mask.forEachSpan(inRow: y, from: from, to: to, body)
    }
}

extension CoverageRow: RowSpans {}

/// The spans of one row, a constant source (`bytes`, widened in `source`); fully covered spans
/// are filled when `fills`; normal mode's 16-bit composite when `normal` is set.
private struct SpanRowJob<Spans: RowSpans>: RowJob {
    let source: ConstantRowSource, bytes: SIMD4<UInt8>, fills: Bool, normal: SolidNormalPixels?
    let spans: Spans
    let row: UnsafeMutablePointer<UInt8>, rowX: Int
    @inline(__always)
    func run<Kernel: RowKernel>(_ kernel: Kernel.Type, _ skipClearSource: Bool) {
        spans.forEachSpan { x, count, values, constant in
            let pixels = row + (x &- rowX) &* 4
            if let values {
                if let normal { normal.composite(pixels, count, coverage: values) }
                else { compositeRow(Kernel.self, source, count, BufferCoverage(base: values), pixels, skipClearSource) }
            } else if constant == 255 && fills {
                BlendMode.fill(pixels, count, with: bytes)
            } else if let normal {
                normal.composite(pixels, count, constant: constant)
            } else {
                compositeRow(Kernel.self, source, count, ConstantCoverage(value: Int32(constant)), pixels, skipClearSource)
            }
        }
    }
}

/// Normal mode for a valid premultiplied constant source (no colour lane above its alpha), in
/// 16-bit lanes: `mix(d, validPremultiplied(normal(s, d)), t)` exactly as the Int32 kernel
/// computes it. With s <= alpha, `255 s + d (255 - alpha)` is at most 255 x 255, so `store`'s
/// clamp changes nothing, and every intermediate (at most 65025 + 128 + 254) fits 16 bits.
/// Baseline x86-64 multiplies 16-bit lanes in one instruction (pmullw) but 32-bit lanes one
/// at a time, which is most of the Int32 kernel's cost per pixel.
private struct SolidNormalPixels {
    let bytes: SIMD4<UInt8>
    let source255: SIMD4<UInt16>, inverseAlpha: SIMD4<UInt16>

    /// `source` is a valid premultiplied colour (`isValidPremultiplied`).
    init(_ source: SIMD4<UInt8>) {
        bytes = source
        source255 = SIMD4<UInt16>(truncatingIfNeeded: source) &* 255
        inverseAlpha = SIMD4<UInt16>(repeating: 255 &- UInt16(source.w))
    }

    @inline(__always)
    static func div255<Lanes: SIMD>(_ x: Lanes) -> Lanes where Lanes.Scalar == UInt16 {
        let t = x &+ 128
        return (t &+ (t &>> 8)) &>> 8
    }

    /// Composites `count` pixels from `pixels`, with coverage `coverage[i]`: two at a time in
    /// eight 16-bit lanes, then the odd one.
    @inline(__always)
    func composite(_ pixels: UnsafeMutablePointer<UInt8>, _ count: Int, coverage: UnsafePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(pixels)
        var i = 0
        while i &+ 2 <= count {
            compositePair(raw + i &* 4, coverage[i], coverage[i &+ 1])
            i &+= 2
        }
        if i < count { composite(raw + i &* 4, coverage: coverage[i]) }
    }

    /// Composites the two pixels at `pixels` with coverages `t0` and `t1`: `composite(_:coverage:)`
    /// of each, lane for lane, without its two shortcuts, which the formula reproduces. Coverage 0
    /// gives div255(255 d) = d, and coverage 255 gives div255(255 b) = b, which is the source for
    /// an opaque one (b = div255(255 s + d 0)).
    @inline(__always)
    func compositePair(_ pixels: UnsafeMutableRawPointer, _ t0: UInt8, _ t1: UInt8) {
        if t0 | t1 == 0 { return }
        let d = SIMD8<UInt16>(truncatingIfNeeded: pixels.loadUnaligned(as: SIMD8<UInt8>.self))
        let source = SIMD8<UInt16>(lowHalf: source255, highHalf: source255)
        let inverse = SIMD8<UInt16>(lowHalf: inverseAlpha, highHalf: inverseAlpha)
        var blended = SolidNormalPixels.div255(source &+ d &* inverse)
        // Each pixel's alpha (its fourth lane) in all four of its lanes: a pixel is one 64-bit word.
        let a = unsafeBitCast(blended, to: SIMD2<UInt64>.self) &>> 48
        let alpha = unsafeBitCast(a | a &<< 16 | a &<< 32 | a &<< 48, to: SIMD8<UInt16>.self)
        blended.replace(with: alpha, where: blended .> alpha)
        let coverage = SIMD8<UInt16>(lowHalf: SIMD4(repeating: UInt16(t0)), highHalf: SIMD4(repeating: UInt16(t1)))
        let mixed = SolidNormalPixels.div255(d &* (255 &- coverage) &+ blended &* coverage)
        pixels.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: mixed), as: SIMD8<UInt8>.self)
    }

    /// Composites `count` pixels from `pixels`, all with coverage `constant`.
    @inline(__always)
    func composite(_ pixels: UnsafeMutablePointer<UInt8>, _ count: Int, constant: UInt8) {
        let raw = UnsafeMutableRawPointer(pixels)
        for i in 0..<count { composite(raw + i &* 4, coverage: constant) }
    }

    /// Composites the pixel at `pixel` with coverage `t`.
    @inline(__always)
    func composite(_ pixel: UnsafeMutableRawPointer, coverage t: UInt8) {
        if t == 0 { return }
        if t == 255 && bytes.w == 255 { pixel.storeBytes(of: bytes, as: SIMD4<UInt8>.self); return }
        let d = SIMD4<UInt16>(truncatingIfNeeded: pixel.loadUnaligned(as: SIMD4<UInt8>.self))
        var blended = SolidNormalPixels.div255(source255 &+ d &* inverseAlpha)
        let alpha = SIMD4<UInt16>(repeating: blended.w)
        blended.replace(with: alpha, where: blended .> alpha)
        let coverage = UInt16(t)
        let mixed = t == 255 ? blended : SolidNormalPixels.div255(d &* (255 &- coverage) &+ blended &* coverage)
        pixel.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: mixed), as: SIMD4<UInt8>.self)
    }
}

/// Whether no colour lane of `c` exceeds its alpha.
@inline(__always)
private func isValidPremultiplied(_ c: SIMD4<UInt8>) -> Bool { c.x <= c.w && c.y <= c.w && c.z <= c.w }

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
    @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.normal(s, d) }
    static var opaqueSourceReplaces: Bool { true }
}
private enum MultiplyKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.multiply(s, d) } }
private enum ScreenKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.screen(s, d) } }
private enum OverlayKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.overlay(s, d) } }
private enum DarkenKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.darken(s, d) } }
private enum LightenKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.lighten(s, d) } }
private enum ColorDodgeKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.colorDodge(s, d) } }
private enum ColorBurnKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.colorBurn(s, d) } }
private enum SoftLightKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.softLight(s, d) } }
private enum HardLightKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.hardLight(s, d) } }
private enum DifferenceKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.difference(s, d) } }
private enum ExclusionKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.exclusion(s, d) } }
private enum HueKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.hue(s, d) } }
private enum SaturationKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.saturation(s, d) } }
private enum ColorKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.color(s, d) } }
private enum LuminosityKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.luminosity(s, d) } }
private enum ClearKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.clear(s, d) } }
private enum CopyKernel: RowKernel {
    @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.copy(s, d) }
    static var opaqueSourceReplaces: Bool { true }
}
private enum SourceInKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.sourceIn(s, d) } }
private enum SourceOutKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.sourceOut(s, d) } }
private enum SourceAtopKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.sourceAtop(s, d) } }
private enum DestinationOverKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.destinationOver(s, d) } }
private enum DestinationInKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.destinationIn(s, d) } }
private enum DestinationOutKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.destinationOut(s, d) } }
private enum DestinationAtopKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.destinationAtop(s, d) } }
private enum XorKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.xor(s, d) } }
private enum PlusDarkerKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.plusDarker(s, d) } }
private enum PlusLighterKernel: RowKernel { @inline(__always) static func blend(_ s: Color4, _ d: Color4) -> Color4 { BlendKernel.plusLighter(s, d) } }

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
