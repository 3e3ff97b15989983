// FilterEvaluator: turns a filter graph into 8-bit premultiplied pixels for
// one requested region, reading from each input only its region of interest
// (FilterGraph.swift). `render(node, in: R)` returns R's pixels, transparent
// outside the node's extent; internally each node computes only R ∩ extent
// and asks its inputs for what that needs:
//
// - colour filters, blendWithMask, composite, crop: the same pixels;
// - gaussianBlur and unsharpMask: the region and its part grown by the
//   kernel radius inside the input's extent (outside the extent the input is
//   transparent, so the blur's zero edge rule is the extent's);
// - clampToExtent: the part of the input's extent under the region's rows
//   and columns, each output pixel reading the nearest one;
// - affineTransform: the whole (finite) input, drawn by the renderer.
//
// Each filter's output is its own 8-bit image (SCENE_FORMAT.md, Precision).
// The pixel work reuses the renderers' own code rather than new code of its
// own: blending is Core's `BlendMode.blend`, the blur is the shadow's integer
// kernel (GaussianKernel) over the four interleaved channels at once (the
// `FilterServices`' image blur, RGBABlur.swift), and
// gradients and resampling are display lists drawn by the services' renderer
// (so generators are the gradient ops, and affineTransform is drawImage).
// Every region is checked against the pixel limit before it is allocated.
// The region decisions themselves are FilterRegions.swift's, shared with the
// GPU renderer's passes (GPUFilterEvaluator).

import Dispatch
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
        try RenderCancellation.checkCurrent()  // between passes; each blur also looks per row
        try checkSize(region)
        let inside = node.computedRegion(in: region)
        if inside.isEmpty { return Bitmap(width: region.width, height: region.height) }
        let computed = try renderInside(node, inside)
        if inside == region { return computed }
        return computed.placed(at: inside, into: region)
    }

    /// `node`'s pixels over `region`, which lies inside its extent.
    private func renderInside(_ node: FilterNode, _ region: PixelRect) throws -> Bitmap {
        switch node {
        case .bitmap(let bitmap):
            return Self.crop(bitmap, from: PixelRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height), to: region)
        case .generator(let generator):
            return try renderGenerator(generator, region)
        case .filtered(let input, let filter):
            return try apply(filter, to: input, region)
        }
    }

    private func apply(_ filter: ImageFilter, to input: FilterNode, _ region: PixelRect) throws -> Bitmap {
        switch filter {
        case .gaussianBlur(let radius):
            let source = ImageFilter.blurInputRegion(region, radius: radius, inputExtent: input.extent)
            return Self.crop(blur(try render(input, in: source), GaussianKernel(sigma: radius)), from: source, to: region)
        case .unsharpMask(let radius, let intensity):
            let kernel = GaussianKernel(sigma: radius)
            let source = ImageFilter.blurInputRegion(region, radius: radius, inputExtent: input.extent)
            let wide = try render(input, in: source)
            let original = Self.crop(wide, from: source, to: region)
            let blurred = Self.crop(blur(wide, kernel), from: source, to: region)
            return Self.unsharp(original, blurred, intensity: ColorFilterKernel.q12(max(-1e5, min(1e5, intensity))))
        case .blendWithMask(let mask, let background):
            let source = try render(input, in: region), m = try render(mask, in: region)
            let back = try background.map { try render($0, in: region) } ?? Bitmap(width: region.width, height: region.height)
            return Self.blendWithMask(source, mask: m, background: back)
        case .composite(let mode, let background):
            let source = try render(input, in: region), back = try render(background, in: region)
            return Self.combine(source, back) { s, d in mode.blend(source: s, destination: d) }
        case .affineTransform(let matrix):
            return try resample(input, matrix, region)
        case .crop:
            return try render(input, in: region)
        case .clampToExtent:
            return try clamp(input, region)
        default:
            guard let kernel = ColorFilterKernel(filter, extent: input.extent) else {
                throw FilterError("internal: no kernel for \(filter)")
            }
            var out = try render(input, in: region)
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
    }

    // MARK: Generators and resampling (display lists)

    private func renderGenerator(_ generator: FilterGenerator, _ region: PixelRect) throws -> Bitmap {
        if let list = generator.displayList(over: region) { return try services.render(list) }
        guard case .constantColor(let color) = generator else { throw FilterError("internal: no display list for \(generator)") }
        let p = color.premultiplied8
        var out = Bitmap(width: region.width, height: region.height)
        out.pixels.withUnsafeMutableBufferPointer { px in
            for i in 0..<(region.width * region.height) {
                px[4 * i] = p.x; px[4 * i + 1] = p.y; px[4 * i + 2] = p.z; px[4 * i + 3] = p.w
            }
        }
        return out
    }

    /// affineTransform: the input drawn as `drawImage` draws it, user space being the input's
    /// pixel grid. A finite input is drawn whole (so its mipmap levels and edges are the same for
    /// every region); an infinite one (after clampToExtent) is drawn from a margin-grown, aligned
    /// part of it so that the part's edges fall outside the region.
    private func resample(_ input: FilterNode, _ matrix: AffineTransform, _ region: PixelRect) throws -> Bitmap {
        guard let source = ImageFilter.affineSourceRegion(region, matrix: matrix, inputExtent: input.extent) else {
            return Bitmap(width: region.width, height: region.height)
        }
        let pixels = try render(input, in: source)
        return try services.render(ImageFilter.affineDisplayList(region, matrix: matrix, source: source, pixels: pixels))
    }

    // MARK: Per-pixel work

    private func clamp(_ input: FilterNode, _ region: PixelRect) throws -> Bitmap {
        let e: PixelRect, needed: PixelRect
        switch ImageFilter.clampRegions(region, inputExtent: input.extent) {
        case .unchanged: return try render(input, in: region)
        case .transparent: return Bitmap(width: region.width, height: region.height)
        case .edges(let extent, let read): (e, needed) = (extent, read)
        }
        func clampX(_ x: Int) -> Int { max(e.x, min(e.maxX - 1, x)) }
        func clampY(_ y: Int) -> Int { max(e.y, min(e.maxY - 1, y)) }
        let source = try render(input, in: needed)
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

    // MARK: Regions

    func checkSize(_ region: PixelRect) throws {
        guard region.width <= maxPixels, region.height <= maxPixels, region.area <= maxPixels else {
            throw FilterError("a filter needs a region of \(region.width) x \(region.height) pixels, over the limit of \(maxPixels)")
        }
    }

    /// The pixels of `bitmap` (covering `from`) inside `to`, which lies within `from`.
    static func crop(_ bitmap: Bitmap, from: PixelRect, to: PixelRect) -> Bitmap {
        if from == to { return bitmap }
        return bitmap.placed(at: from, into: to)
    }
}
