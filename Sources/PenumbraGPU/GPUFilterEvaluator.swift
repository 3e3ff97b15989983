// GPUFilterEvaluator: a filter graph (PenumbraCore's FilterGraph) evaluated
// as GPU passes, byte for byte what the CPU's FilterEvaluator computes.
//
// The walk is the CPU's: `render(node, in: region)` computes the node's
// computed region (region ∩ extent) and asks each input for its region of
// interest, every decision taken by FilterRegions.swift, the code both
// evaluators share. What differs is where pixels live: every intermediate is
// an RGBA8 texture from the renderer's pool (GPUFilterImage: the texture and
// the rect of graph pixels it holds; outside the rect is transparent, so no
// pass ever pastes a result into a larger transparent one), and each filter
// is one or more full-screen passes over its output rect:
//
// - colour filters: filter.frag with colorfilter.glsl, ColorFilterKernel's
//   fixed-point formulas in 64-bit integers (its parameters, compiled once by
//   the same Swift code, reach the shader as 64-bit words);
// - gaussianBlur: filterblur.frag's horizontal pass into an RGBA32F plane of
//   integers over the region's columns and the grown rows, then its vertical
//   pass into bytes, GaussianKernel's integer weights (the shadow's block);
//   on a shadow's packed alpha plane, blur.frag's two passes over only its
//   occupied tiles (GPUFilterEvaluator+Alpha.swift);
// - unsharpMask: the blur's two passes, then filter.frag's combine;
// - blendWithMask, composite (blend.glsl's integer blend), clampToExtent and
//   the constant colour generator: one filter.frag pass each; crop: none
//   (the input already covers only the cropped region);
// - gradient generators: the gradient op drawn by the renderer's own draw
//   path into a target (GPUFrame), as the CPU draws a display list;
// - affineTransform: drawImage through the renderer's draw path. The image
//   draw samples CPU pixels (its mip atlas is built from them), so a
//   transformed *filtered* input is read back once; a source image is not.
//
// Intermediates go back to the lease as soon as their consumer has run; the
// result is read back once (`GPURenderer.renderFilter`), or drawn in place
// (blurBackdrop, GPUFrame+Backdrop.swift).
import CEGL
import PenumbraCore

/// The pixels of a filter node on the GPU: an RGBA8 texture whose texel (0, 0) is graph pixel
/// (rect.x, rect.y); every pixel outside `rect` is transparent.
struct GPUFilterImage {
    /// How the texels hold the pixels.
    enum Format {
        /// RGBA8, a pixel a texel, texel (0, 0) at (rect.x, rect.y).
        case color
        /// A shadow plane (FilterAlpha.swift): one alpha value a pixel, as integers in RGBA32F,
        /// four horizontally adjacent pixels a texel (blur.frag), over `rect` grown by `border`
        /// zero pixels on every side; `tiles` holds its non-zero values (nil: anywhere).
        case packedAlpha(border: Int, tiles: CoverageTiles?)
    }

    /// The texture and its framebuffer (nil when `rect` is empty).
    let surface: GLSurface?
    let rect: PixelRect
    /// Whether the evaluator gives the surface back when done with it (false for a texture it
    /// was lent: the render's target under a backdrop blur).
    let owned: Bool
    var format: Format = .color

    static var transparent: GPUFilterImage { GPUFilterImage(surface: nil, rect: PixelRect(x: 0, y: 0, width: 0, height: 0), owned: false) }

    /// The image as a render target placed at `rect` (for the renderer's layer paint and readback).
    var target: GLTarget? {
        surface.map { GLTarget(surface: $0, texture: GLTexture(name: $0.name, rect: rect)) }
    }
}

/// The passes of filter.frag, as its FILTER_ defines.
enum GPUFilterPass: Int, CaseIterable {
    case color, unsharp, mask, composite, clamp, constant

    static let defines: [(String, Int)] = allCases.map { ("FILTER_" + ShaderConstants.macroName(String(describing: $0)), $0.rawValue) }
}

/// Evaluates filter graphs on one renderer's context, within one lease.
final class GPUFilterEvaluator {
    let programs: ProgramCache
    let shared: GPUSharedObjects
    let lease: GLLease
    let images: GLImageCache
    let sparseLimit: Double
    /// The largest region (pixels) any node may be asked for.
    let maxPixels: Int
    /// A node whose pixels are already on the GPU, and that image (the render's target standing
    /// for the backdrop under a backdrop blur): wherever the graph holds that node, it is that
    /// image, whatever region is asked of it. An owned one (a shadow's caster plane) is handed to
    /// the graph's one use of that node, which consumes it.
    var substitute: (node: FilterNode, image: GPUFilterImage)?
    private var counters: GPUCounters { shared.counters }

    init(programs: ProgramCache, shared: GPUSharedObjects, lease: GLLease, images: GLImageCache, sparseLimit: Double,
         maxPixels: Int) {
        self.programs = programs; self.shared = shared; self.lease = lease; self.images = images
        self.sparseLimit = sparseLimit; self.maxPixels = maxPixels
    }

    /// The pixels of `node` in `region`: an image covering at most the node's computed region
    /// (a substitute may cover more), transparent elsewhere.
    func render(_ node: FilterNode, in region: PixelRect) throws -> GPUFilterImage {
        guard region.width <= maxPixels, region.height <= maxPixels, region.area <= maxPixels else {
            throw FilterError("a filter needs a region of \(region.width) x \(region.height) pixels, over the limit of \(maxPixels)")
        }
        if let substitute, node == substitute.node { return substitute.image }
        let inside = node.computedRegion(in: region)
        if inside.isEmpty { return .transparent }
        switch node {
        case .bitmap(let bitmap):
            return try upload(bitmap, inside)
        case .generator(.constantColor(let color)):
            let p = SIMD4<Int32>(truncatingIfNeeded: color.premultiplied8)
            return try pass(.constant, over: inside, inputs: []) { $0.constant = p }
        case .generator(let generator):
            guard let list = generator.displayList(over: inside) else { throw FilterError("internal: no display list for \(generator)") }
            return try draw(list, at: inside)
        case .filtered(let input, let filter):
            return try apply(filter, to: input, inside)
        }
    }

    /// Gives an intermediate back to the pool (a lent one stays with its owner).
    func release(_ image: GPUFilterImage) {
        if image.owned, let surface = image.surface { lease.giveBack(surface) }
    }

    private func apply(_ filter: ImageFilter, to input: FilterNode, _ region: PixelRect) throws -> GPUFilterImage {
        switch filter {
        case .gaussianBlur(let radius):
            let kernel = GaussianKernel(sigma: radius)
            let read = ImageFilter.blurInputRegion(region, radius: radius, inputExtent: input.extent)
            let source = try render(input, in: read)
            if case .packedAlpha = source.format { return try blurAlpha(source, kernel, read) }
            defer { release(source) }
            return try blur(source, kernel, region)
        case .unsharpMask(let radius, let intensity):
            let kernel = GaussianKernel(sigma: radius)
            let source = try render(input, in: ImageFilter.blurInputRegion(region, radius: radius, inputExtent: input.extent))
            defer { release(source) }
            let blurred = try blur(source, kernel, region)
            defer { release(blurred) }
            let k = ColorFilterKernel.q12(max(-1e5, min(1e5, intensity)))
            return try pass(.unsharp, over: region, inputs: [source, blurred]) { $0.intensity = GPUPaint.words(k) }
        case .blendWithMask(let mask, let background):
            let source = try render(input, in: region)
            defer { release(source) }
            let m = try render(mask, in: region)
            defer { release(m) }
            let back = try background.map { try render($0, in: region) } ?? .transparent
            defer { release(back) }
            return try pass(.mask, over: region, inputs: [source, m, back]) { _ in }
        case .composite(let mode, let background):
            let source = try render(input, in: region)
            defer { release(source) }
            let back = try render(background, in: region)
            defer { release(back) }
            return try pass(.composite, over: region, inputs: [source, back], defines: [("BLEND_MODE", mode.shaderValue)]) { _ in }
        case .affineTransform(let matrix):
            return try resample(input, matrix, region)
        case .crop:
            return try render(input, in: region)
        case .clampToExtent:
            switch ImageFilter.clampRegions(region, inputExtent: input.extent) {
            case .unchanged: return try render(input, in: region)
            case .transparent: return .transparent
            case .edges(let extent, let needed):
                let source = try render(input, in: needed)
                defer { release(source) }
                return try pass(.clamp, over: region, inputs: [source]) { $0.clampExtent = UniformBuffers.rect(extent) }
            }
        default:
            guard let kernel = ColorFilterKernel(filter, extent: input.extent) else {
                throw FilterError("internal: no kernel for \(filter)")
            }
            let source = try render(input, in: region)
            defer { release(source) }
            let (op, parameters, table) = kernel.portable
            var gamma: GLTexture?
            if !table.isEmpty {
                // Four values to a texel, 64 texels to a row (colorfilter.glsl's gammaValue).
                var values = [SIMD4<Float>](repeating: .zero, count: 64 * 17)
                for (i, v) in table.enumerated() { values[i >> 2][i & 3] = Float(v) }
                gamma = try lease.table(values, width: 64, rows: 17)
            }
            defer { if let gamma { lease.giveBack(texture: gamma.name) } }
            return try pass(.color, over: region, inputs: [source], defines: [("COLOR_OP", op)]) { block in
                for (i, v) in parameters.enumerated() { block.colorParams[i] = GPUPaint.words(v) }
                if let gamma {
                    glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(GPURenderer.Unit.gammaTable.rawValue))
                    glBindTexture(glEnum(GL_TEXTURE_2D), gamma.name)
                }
            }
        }
    }

    // MARK: Passes

    /// The blur of `source` over `region` (whose grown rectangle `source` covers at most):
    /// horizontal into a plane over the region's columns and the grown rows, then vertical.
    private func blur(_ source: GPUFilterImage, _ kernel: GaussianKernel, _ region: PixelRect) throws -> GPUFilterImage {
        let r = kernel.radius
        guard r > 0 else {
            // The identity kernel: the CPU returns its input's pixels as they are.
            return try pass(.clamp, over: region, inputs: [source]) { $0.clampExtent = UniformBuffers.rect(region) }
        }
        try shared.bindWeights(kernel)
        let rows = PixelRect(x: region.x, y: region.y - r, width: region.width, height: region.height + 2 * r)
        let weights = shared.weightVec4s
        let middle = try pass(program: try programs.filterPass("filterblur", [("WEIGHT_VEC4S", weights), ("BLUR_AXIS", 0)]),
                              kind: .plane, over: rows, inputs: [source]) { $0.origin.z = Int32(r) }
        defer { release(middle) }
        return try pass(program: try programs.filterPass("filterblur", [("WEIGHT_VEC4S", weights), ("BLUR_AXIS", 1)]),
                        kind: .color, over: region, inputs: [middle]) { $0.origin.z = Int32(r) }
    }

    private func pass(_ op: GPUFilterPass, over rect: PixelRect, inputs: [GPUFilterImage], defines: [(String, Int)] = [],
                      _ setup: (inout FilterBlock) -> Void) throws -> GPUFilterImage {
        let program = try programs.filterPass("filter", GPUFilterPass.defines + [("FILTER_OP", op.rawValue)] + defines)
        return try pass(program: program, kind: .color, over: rect, inputs: inputs, setup)
    }

    /// One quad over `rect` into a new surface of `kind`, the inputs on units filter0...
    private func pass(program: GLProgram, kind: GLSurface.Kind, over rect: PixelRect, inputs: [GPUFilterImage],
                      _ setup: (inout FilterBlock) -> Void) throws -> GPUFilterImage {
        let surface = try lease.acquire(kind, width: rect.width, height: rect.height, "a filter image")
        counters.driver { glBindFramebuffer(glEnum(GL_FRAMEBUFFER), surface.framebuffer) }
        glUseProgram(program.name)
        var block = FilterBlock()
        block.origin = SIMD4(Int32(rect.x), Int32(rect.y), 0, 0)
        let units: [GPURenderer.Unit] = [.filter0, .filter1, .filter2]
        for (i, input) in inputs.enumerated() {
            glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(units[i].rawValue))
            glBindTexture(glEnum(GL_TEXTURE_2D), input.surface?.name ?? 0)
            block.inputRects[i] = UniformBuffers.rect(input.surface == nil ? PixelRect(x: 0, y: 0, width: 0, height: 0) : input.rect)
        }
        setup(&block)
        shared.uniforms.write(block)
        shared.uniforms.write(QuadBlock(quad: SIMD4<Float>(0, 0, Float(rect.width), Float(rect.height)),
                                        target: SIMD4<Float>(Float(rect.width), Float(rect.height), 0, 0)))
        glViewport(0, 0, GLsizei(rect.width), GLsizei(rect.height))
        glEnable(glEnum(GL_SCISSOR_TEST))
        glScissor(0, 0, GLsizei(rect.width), GLsizei(rect.height))
        glDisable(glEnum(GL_BLEND))
                counters.frame.drawCalls += 1
        counters.frame.passes += 1
        counters.driver { glDrawArrays(glEnum(GL_TRIANGLE_STRIP), 0, 4) }
        for i in inputs.indices {
            glActiveTexture(glEnum(GL_TEXTURE0) + GLenum(units[i].rawValue))
            glBindTexture(glEnum(GL_TEXTURE_2D), 0)
        }
        #if DEBUG
        try GPURenderer.checkGLError("filter pass \(program.label)")
        #endif
        return GPUFilterImage(surface: surface, rect: rect, owned: true)
    }

    // MARK: Uploads, draws, readbacks

    /// The part `rect` of a source bitmap (extent [0, 0, width, height]) as a texture.
    private func upload(_ bitmap: Bitmap, _ rect: PixelRect) throws -> GPUFilterImage {
        let surface = try lease.acquire(.color, width: rect.width, height: rect.height, "a filter source image")
        glBindTexture(glEnum(GL_TEXTURE_2D), surface.name)
        glPixelStorei(glEnum(GL_UNPACK_ALIGNMENT), 1)
        glPixelStorei(glEnum(GL_UNPACK_ROW_LENGTH), GLint(bitmap.width))
        glPixelStorei(glEnum(GL_UNPACK_SKIP_PIXELS), GLint(rect.x))
        glPixelStorei(glEnum(GL_UNPACK_SKIP_ROWS), GLint(rect.y))
        bitmap.pixels.withUnsafeBytes { bytes in
            counters.upload(rect.area * 4) {
                glTexSubImage2D(glEnum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(rect.width), GLsizei(rect.height), glEnum(GL_RGBA),
                                glEnum(GL_UNSIGNED_BYTE), bytes.baseAddress)
            }
        }
        glPixelStorei(glEnum(GL_UNPACK_ROW_LENGTH), 0)
        glPixelStorei(glEnum(GL_UNPACK_SKIP_PIXELS), 0)
        glPixelStorei(glEnum(GL_UNPACK_SKIP_ROWS), 0)
        return GPUFilterImage(surface: surface, rect: rect, owned: true)
    }

    /// A display list of `rect`'s size drawn by the renderer's draw path; its canvas is the image.
    private func draw(_ list: DisplayList, at rect: PixelRect) throws -> GPUFilterImage {
        let frame = try GPUFrame(list: list, programs: programs, lease: lease, images: images, shared: shared,
                                 sparseLimit: sparseLimit)
        try frame.run()
        let target = frame.target
        return GPUFilterImage(surface: target.surface, rect: rect, owned: true)
    }

    /// affineTransform: the input over its source rectangle drawn as drawImage draws it.
    private func resample(_ input: FilterNode, _ matrix: AffineTransform, _ region: PixelRect) throws -> GPUFilterImage {
        guard let source = ImageFilter.affineSourceRegion(region, matrix: matrix, inputExtent: input.extent) else {
            return .transparent
        }
        let pixels: Bitmap
        if case .bitmap(let bitmap) = input, source == PixelRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height) {
            pixels = bitmap
        } else {
            let image = try render(input, in: source)
            defer { release(image) }
            pixels = try read(image, in: source)
        }
        return try draw(ImageFilter.affineDisplayList(region, matrix: matrix, source: source, pixels: pixels), at: region)
    }

    /// The image's pixels over `region` (transparent outside its rect).
    func read(_ image: GPUFilterImage, in region: PixelRect) throws -> Bitmap {
        let overlap = image.rect.intersection(region)
        guard let surface = image.surface, !overlap.isEmpty else { return Bitmap(width: region.width, height: region.height) }
        var part = Bitmap(width: overlap.width, height: overlap.height)
        glBindFramebuffer(glEnum(GL_READ_FRAMEBUFFER), surface.framebuffer)
        glPixelStorei(glEnum(GL_PACK_ALIGNMENT), 1)
        part.pixels.withUnsafeMutableBytes { bytes in
            counters.driver {
                glReadPixels(GLint(overlap.x - image.rect.x), GLint(overlap.y - image.rect.y), GLsizei(overlap.width),
                             GLsizei(overlap.height), glEnum(GL_RGBA), glEnum(GL_UNSIGNED_BYTE), bytes.baseAddress)
            }
        }
        counters.frame.readbackBytes += overlap.area * 4
        try GPURenderer.checkGLError("filter readback")
        return overlap == region ? part : part.placed(at: overlap, into: region)
    }

}
