// SpanCompositor: composites one op's paint into a run of pixels of one row
// of the target, given the run's U8 coverage (one value per pixel, or one for
// the whole run). A solid paint is a U8 premultiplied colour already scaled by
// the context alpha, and goes straight to the blend mode's row compositor (a
// constant run of an opaque colour becomes a fill); any other paint is shaded
// into per-thread scratch first (U8) and scaled by the context alpha
// (div255(s x alpha)). Every pixel gets exactly
//     result = div255(dst (255 - t) + blend(src, dst) t)
// as the row compositor computes it, whatever the run boundaries
// (docs/ARITHMETIC.md).
//
// One shortcut, the same bytes: an opaque image drawn with the row path in
// normal or copy mode at full context alpha writes a fully covered run's
// samples straight into the target (the composite of an opaque source at
// coverage 255 is the source), skipping the scratch and the row compositor.
import PenumbraModel
import PenumbraCore

struct SpanCompositor {
    /// Per-thread buffers, sized for the widest run of the op.
    final class Scratch {
        let sources: UnsafeMutablePointer<SIMD4<UInt8>>
        let coverage: UnsafeMutablePointer<UInt8>
        /// Coverage times the clip, before it is composited (ClippedSpans.swift), by column.
        let clipped: UnsafeMutablePointer<UInt8>
        /// A row's spans of geometry and of the clip, reused from row to row (ClippedSpans.swift).
        var geometrySpans: [RowSpan] = [], clipSpans: [RowSpan] = []

        init(width: Int) {
            let n = max(1, width)
            sources = .allocate(capacity: n); coverage = .allocate(capacity: n); clipped = .allocate(capacity: n)
        }
        deinit { sources.deallocate(); coverage.deallocate(); clipped.deallocate() }
    }

    let pixels: UnsafeMutableBufferPointer<UInt8>
    let frame: PixelRect
    let shader: Shader
    /// The context alpha, U8.
    let alpha: UInt8
    let mode: BlendMode
    /// The paint's colour times the context alpha, when the paint is solid.
    let solid: SIMD4<UInt8>?
    /// The image whose fully covered runs are written straight into the target (see above).
    let opaqueImage: ImageShader?

    /// `region`: the pixels the op composites (whether an opaque image is worth scanning).
    init(pixels: UnsafeMutableBufferPointer<UInt8>, frame: PixelRect, shader: Shader, alpha: UInt8,
         mode: BlendMode, region: PixelRect) {
        self.pixels = pixels; self.frame = frame; self.shader = shader
        self.alpha = alpha; self.mode = mode
        solid = (shader as? SolidShader).map { SpanCompositor.scaled($0.color8, by: alpha) }
        if alpha == 255, mode == .normal || mode == .copy, let image = shader as? ImageShader,
           image.shadesOpaqueRuns(over: region) {
            opaqueImage = image
        } else {
            opaqueImage = nil
        }
    }

    /// `div255(c x alpha)` per lane (c itself when alpha is 255).
    @inline(__always)
    static func scaled(_ c: SIMD4<UInt8>, by alpha: UInt8) -> SIMD4<UInt8> {
        if alpha == 255 { return c }
        return SIMD4<UInt8>(truncatingIfNeeded: Fixed.div255(SIMD4<Int32>(truncatingIfNeeded: c) &* Int32(alpha)))
    }

    /// Composites row `y` of `mask`, columns `from..<to` (device coordinates, inside the frame):
    /// a solid paint a row of spans at a time (`BlendMode.blendRow(source:mask:...)`), any other
    /// paint span by span.
    func composite(y: Int, mask: CoverageMask, from: Int, to: Int, _ scratch: Scratch) {
        if let solid {
            let row = pixels.baseAddress! + ((y - frame.y) * frame.width + from - frame.x) * 4
            mode.blendRow(source: solid, mask: mask, y: y, from: from, to: to, row: row, rowX: from)
            return
        }
        mask.forEachSpan(inRow: y, from: from, to: to) { x, count, values, constant in
            composite(y: y, x: x, count: count, coverage: values, constant: constant, scratch)
        }
    }

    /// Composites the spans of a row as it is resolved (its device y is `row.y`): a solid paint
    /// the whole row in one call, any other paint span by span.
    func composite(row: CoverageRow, _ scratch: Scratch) {
        if let solid {
            let pixels = self.pixels.baseAddress! + (row.y - frame.y) * frame.width * 4
            mode.blendRow(source: solid, coverageRow: row, row: pixels, rowX: frame.x)
            return
        }
        row.forEachSpan { x, count, values, constant in
            composite(y: row.y, x: x, count: count, coverage: values, constant: constant, scratch)
        }
    }

    /// Composites pixels `x..<x+count` of row `y` (device coordinates, inside the frame), with
    /// coverage `coverage[0..<count]`, or `constant` for all of them when `coverage` is nil.
    func composite(y: Int, x: Int, count: Int, coverage: UnsafePointer<UInt8>?, constant: UInt8, _ scratch: Scratch) {
        let rowStart = ((y - frame.y) * frame.width + x - frame.x) * 4
        let destination = UnsafeMutableBufferPointer(rebasing: pixels[rowStart..<(rowStart + count * 4)])
        if let solid {
            if let coverage {
                mode.blendRow(source: solid, coverage: UnsafeBufferPointer(start: coverage, count: count), destination: destination)
            } else {
                mode.blendRow(source: solid, coverage: constant, count: count, destination: destination)
            }
            return
        }
        if coverage == nil, constant == 255, let opaqueImage {
            UnsafeMutableRawPointer(destination.baseAddress!).withMemoryRebound(to: SIMD4<UInt8>.self, capacity: count) {
                opaqueImage.shadeOpaqueRun(y: y, x0: x, count: count, into: $0)
            }
            return
        }
        // The shader may zero coverage (a gradient side that is not extended), so it gets a copy.
        let cov = scratch.coverage, sources = scratch.sources
        if let coverage { cov.update(from: coverage, count: count) } else { cov.update(repeating: constant, count: count) }
        shader.shade(y: y, x0: x, count: count, colors: sources, coverage: cov)
        if alpha != 255 {
            for i in 0..<count { sources[i] = SpanCompositor.scaled(sources[i], by: alpha) }
        }
        mode.blendRow(sources: UnsafeBufferPointer(start: sources, count: count),
                      coverage: UnsafeBufferPointer(start: cov, count: count), destination: destination)
    }
}
