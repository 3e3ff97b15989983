// FilterEvaluator: the CPU's executor of filter graphs. A graph asked for a
// region is lowered once (Core's FilterPlan: the region-of-interest walk, the
// kernels and fixed-point words resolved) and its passes run in order on
// 8-bit premultiplied bitmaps; each pass's pixels are let go after the last
// pass that reads them. A pass reads an input over a rectangle: the input's
// pixels there, transparent outside the input's own rectangle. Each filter's
// output is its own 8-bit image (SCENE_FORMAT.md, Precision).
// The pixel work reuses the renderers' own code rather than new code of its
// own: blending is Core's `BlendMode.blend`, the blur is the shadow's integer
// kernel over the four interleaved channels at once (the `FilterServices`'
// image blur, RGBABlur.swift), and gradients and resampling are display
// lists drawn by the services' renderer (so generators are the gradient ops,
// and affineTransform is drawImage). The GPU renderer executes the same
// passes (GPUFilterEvaluator).

import Dispatch
import PenumbraModel
import PenumbraCore

/// What filter evaluation borrows from a renderer: a display-list renderer and an image blur.
package struct FilterServices: Sendable {
    /// Renders a display list (gradients for generators, `drawImage` for affineTransform).
    package var render: @Sendable (DisplayList) throws -> Bitmap
    /// Blurs a premultiplied RGBA8 bitmap in place with `kernel` (zeros outside): each channel
    /// exactly as a shadow's alpha plane is blurred (``GaussianKernel/blurRGBA(_:threads:)``).
    package var blurImage: @Sendable (_ bitmap: inout Bitmap, _ kernel: GaussianKernel) -> Void
    /// Blurs a U8 plane of `width` x `height` values in place with `kernel` (zeros outside): a
    /// shadow's caster (FilterAlpha.swift).
    package var blurAlpha: @Sendable (_ plane: UnsafeMutablePointer<UInt8>, _ width: Int, _ height: Int,
                                      _ kernel: GaussianKernel) -> Void

    /// Services drawing display lists with `render`; the blurs default to the interleaved
    /// blur (four channels and one, RGBABlur.swift), which every CPU path shares.
    package init(render: @escaping @Sendable (DisplayList) throws -> Bitmap,
                blurImage: @escaping @Sendable (inout Bitmap, GaussianKernel) -> Void = { $1.blurRGBA(&$0) },
                blurAlpha: @escaping @Sendable (UnsafeMutablePointer<UInt8>, Int, Int, GaussianKernel) -> Void
                    = { $3.blurPlane($0, width: $1, height: $2) }) {
        self.render = render; self.blurImage = blurImage; self.blurAlpha = blurAlpha
    }
}

/// Evaluates filter graphs to bitmaps with one set of services.
package struct FilterEvaluator: Sendable {
    package var services: FilterServices
    /// The largest region (pixels) any node may be asked for.
    package var maxPixels: Int

    package init(services: FilterServices, maxPixels: Int = ResourceLimits.default.maxPixels) {
        self.services = services; self.maxPixels = maxPixels
    }

    /// The pixels of `node` in `region` (its extent's coordinates): a bitmap of the region's size,
    /// transparent outside the node's extent.
    package func render(_ node: FilterNode, in region: PixelRect) throws -> Bitmap {
        try execute(FilterPlan(node, in: region, maxPixels: maxPixels))
    }

    /// The pixels of `plan`'s result over its region; `input` holds the pixels of its stand-in
    /// node (a bitmap over a rectangle that covers every region the plan reads of it).
    package func execute(_ plan: FilterPlan, input: Pixels? = nil) throws -> Bitmap {
        var images = [Pixels?](repeating: nil, count: plan.passes.count)
        let lastReaders = plan.lastReaders
        for (index, pass) in plan.passes.enumerated() {
            try RenderCancellation.checkCurrent()  // between passes; each blur also looks per row
            images[index] = try run(pass, reading: images, input: input)
            for i in pass.operation.inputs where lastReaders[i] == index { images[i] = nil }
        }
        guard let result = images[plan.result] else { throw FilterError("internal: a filter plan left no result") }
        return result.over(plan.region)
    }

    /// A pass's pixels: a bitmap covering `rect`.
    package struct Pixels: Sendable {
        package var bitmap: Bitmap
        package var rect: PixelRect

        package init(_ bitmap: Bitmap, rect: PixelRect) { self.bitmap = bitmap; self.rect = rect }

        /// The pixels over `region`: these where they overlap it, transparent elsewhere.
        func over(_ region: PixelRect) -> Bitmap { bitmap.placed(at: rect, into: region) }
    }

    private func run(_ pass: FilterPlan.Pass, reading images: [Pixels?], input: Pixels?) throws -> Pixels {
        let region = pass.rect
        func pixels(_ index: Int, over rect: PixelRect) throws -> Bitmap {
            guard let image = images[index] else { throw FilterError("internal: a filter pass read a pass already let go") }
            return image.over(rect)
        }
        let bitmap: Bitmap
        switch pass.operation {
        case .transparent:
            bitmap = Bitmap(width: region.width, height: region.height)
        case .input:
            guard let input else { throw FilterError("internal: a filter plan's input has no pixels") }
            return input
        case .bitmap(let source):
            bitmap = source.placed(at: PixelRect(x: 0, y: 0, width: source.width, height: source.height), into: region)
        case .constant(let color):
            bitmap = Self.filled(color, region)
        case .draw(let list):
            bitmap = try services.render(list)
        case .blur(let i, let kernel, let read):
            bitmap = blur(try pixels(i, over: read), kernel).placed(at: read, into: region)
        case .unsharp(let i, let kernel, let intensity, let read):
            let wide = try pixels(i, over: read)
            let blurred = blur(wide, kernel).placed(at: read, into: region)
            bitmap = Self.unsharp(wide.placed(at: read, into: region), blurred, intensity: intensity)
        case .color(let i, let kernel):
            bitmap = Self.apply(kernel, to: try pixels(i, over: region), region)
        case .blendWithMask(let i, let mask, let background):
            let back = try background.map { try pixels($0, over: region) } ?? Bitmap(width: region.width, height: region.height)
            bitmap = Self.blendWithMask(try pixels(i, over: region), mask: try pixels(mask, over: region), background: back)
        case .composite(let i, let background, let mode):
            bitmap = Self.combine(try pixels(i, over: region), try pixels(background, over: region)) { s, d in
                mode.blend(source: s, destination: d)
            }
        case .clamp(let i, let extent, let read):
            bitmap = Self.clamp(try pixels(i, over: read), read, extent: extent, region)
        case .resample(let source, let matrix, let read):
            let drawn: Bitmap
            switch source {
            case .pass(let i): drawn = try pixels(i, over: read)
            case .bitmap(let b): drawn = b
            }
            bitmap = try services.render(ImageFilter.affineDisplayList(region, matrix: matrix, source: read, pixels: drawn))
        }
        return Pixels(bitmap, rect: region)
    }

    // MARK: Per-pass work

    private static func filled(_ p: SIMD4<UInt8>, _ region: PixelRect) -> Bitmap {
        var out = Bitmap(width: region.width, height: region.height)
        out.pixels.withUnsafeMutableBufferPointer { px in
            for i in 0..<(region.width * region.height) {
                px[4 * i] = p.x; px[4 * i + 1] = p.y; px[4 * i + 2] = p.z; px[4 * i + 3] = p.w
            }
        }
        return out
    }

    /// A colour filter's formula on each pixel of `pixels` (covering `region`).
    private static func apply(_ kernel: ColorFilterKernel, to pixels: Bitmap, _ region: PixelRect) -> Bitmap {
        var out = pixels
        let w = region.width, h = region.height
        // Rows in two halves on two threads for large regions (each pixel is independent).
        let parts = w * h >= 1 << 16 ? min(2, Parallelism.maxThreads) : 1
        out.pixels.withUnsafeMutableBufferPointer { buffer in
            let pixels = DisjointWrites(buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let px = pixels.value
                for row in (h * part / parts)..<(h * (part + 1) / parts) {
                    var i = row * w * 4
                    for col in 0..<w {
                        let p = SIMD4<Int32>(Int32(px[i]), Int32(px[i + 1]), Int32(px[i + 2]), Int32(px[i + 3]))
                        let q = kernel.apply(p, x: region.x + col, y: region.y + row)
                        px[i] = UInt8(q.x); px[i + 1] = UInt8(q.y); px[i + 2] = UInt8(q.z); px[i + 3] = UInt8(q.w)
                        i += 4
                    }
                }
            }
        }
        return out
    }

    /// clampToExtent: each pixel of `region` reads `source` (covering `needed`) at its
    /// coordinates clamped into `e`.
    private static func clamp(_ source: Bitmap, _ needed: PixelRect, extent e: PixelRect, _ region: PixelRect) -> Bitmap {
        func clampX(_ x: Int) -> Int { max(e.x, min(e.maxX - 1, x)) }
        func clampY(_ y: Int) -> Int { max(e.y, min(e.maxY - 1, y)) }
        var out = Bitmap(width: region.width, height: region.height)
        out.pixels.withUnsafeMutableBufferPointer { dst in
            source.pixels.withUnsafeBufferPointer { src in
                for row in 0..<region.height {
                    let sy = clampY(region.y + row) - needed.y
                    for col in 0..<region.width {
                        let s = (sy * needed.width + clampX(region.x + col) - needed.x) * 4, d = (row * region.width + col) * 4
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]; dst[d + 3] = src[s + 3]
                    }
                }
            }
        }
        return out
    }

    /// Each channel blurred as a plane with the shadow's integer kernel (one interleaved pass
    /// pair over the four channels).
    private func blur(_ bitmap: Bitmap, _ kernel: GaussianKernel) -> Bitmap {
        guard kernel.radius > 0 else { return bitmap }
        var out = bitmap
        services.blurImage(&out, kernel)
        return out
    }

    /// unsharpMask on premultiplied values: c + roundQ12(k (c - blur)), colour clamped to 0...alpha, alpha kept.
    static func unsharp(_ original: Bitmap, _ blurred: Bitmap, intensity k: Int64) -> Bitmap {
        var out = original
        out.pixels.withUnsafeMutableBufferPointer { px in
            blurred.pixels.withUnsafeBufferPointer { bl in
                for i in stride(from: 0, to: px.count, by: 4) {
                    let a = Int64(px[i + 3])
                    for c in 0..<3 {
                        let v = Int64(px[i + c])
                        px[i + c] = UInt8(max(0, min(a, v + ColorFilterKernel.roundQ12(k * (v - Int64(bl[i + c]))))))
                    }
                }
            }
        }
        return out
    }

    /// mix(background, source, m) with m = (13933 r + 46871 g + 4732 b + 32768) >> 16 of the mask's
    /// premultiplied colour: div255(background (255 - m) + source m) on every lane.
    static func blendWithMask(_ source: Bitmap, mask: Bitmap, background: Bitmap) -> Bitmap {
        var out = source
        out.pixels.withUnsafeMutableBufferPointer { px in
            mask.pixels.withUnsafeBufferPointer { mk in
                background.pixels.withUnsafeBufferPointer { bg in
                    for i in stride(from: 0, to: px.count, by: 4) {
                        let m = (13933 * Int32(mk[i]) + 46871 * Int32(mk[i + 1]) + 4732 * Int32(mk[i + 2]) + 32768) >> 16
                        for c in 0..<4 {
                            px[i + c] = UInt8(Fixed.div255(Int32(bg[i + c]) * (255 - m) + Int32(px[i + c]) * m))
                        }
                    }
                }
            }
        }
        return out
    }

    /// `f(source, background)` per pixel, on U8 lanes.
    static func combine(_ source: Bitmap, _ background: Bitmap,
                        _ f: (SIMD4<Int32>, SIMD4<Int32>) -> SIMD4<Int32>) -> Bitmap {
        var out = source
        out.pixels.withUnsafeMutableBufferPointer { px in
            background.pixels.withUnsafeBufferPointer { bg in
                for i in stride(from: 0, to: px.count, by: 4) {
                    let s = SIMD4<Int32>(Int32(px[i]), Int32(px[i + 1]), Int32(px[i + 2]), Int32(px[i + 3]))
                    let d = SIMD4<Int32>(Int32(bg[i]), Int32(bg[i + 1]), Int32(bg[i + 2]), Int32(bg[i + 3]))
                    let r = f(s, d)
                    px[i] = UInt8(r.x); px[i + 1] = UInt8(r.y); px[i + 2] = UInt8(r.z); px[i + 3] = UInt8(r.w)
                }
            }
        }
        return out
    }
}
