// GPUFilterEvaluator: the GPU's executor of filter graphs, byte for byte
// what the CPU's FilterEvaluator computes. Both execute the same passes: a
// graph asked for a region is lowered once in Core (FilterPlan: the
// region-of-interest walk, the kernels and fixed-point words resolved), and
// here each pass is one or more full-screen passes over its rect. What
// differs from the CPU is where pixels live: every intermediate is an RGBA8
// texture from the renderer's pool (GPUFilterImage: the texture and the rect
// of graph pixels it holds; outside the rect is transparent, so no pass ever
// pastes a result into a larger transparent one):
//
// - colour filters: filter.frag with colorfilter.glsl, ColorFilterKernel's
//   fixed-point formulas in 64-bit integers (its parameters, compiled once by
//   the same Swift code, reach the shader as 64-bit words);
// - blur: filterblur.frag's horizontal pass into an RGBA32F plane of
//   integers over the region's columns and the grown rows, then its vertical
//   pass into bytes, GaussianKernel's integer weights (the shadow's block);
//   on a shadow's packed alpha plane, blur.frag's two passes
//   (GPUFilterEvaluator+Alpha.swift);
// - unsharp: the blur's two passes, then filter.frag's combine;
// - blendWithMask, composite (blend.glsl's integer blend), clamp and the
//   constant colour: one filter.frag pass each;
// - gradient generators: the gradient op drawn by the renderer's own draw
//   path into a target (GPUFrame), as the CPU draws a display list;
// - resample: drawImage through the renderer's draw path. The image draw
//   samples CPU pixels (its mip atlas is built from them), so a transformed
//   *filtered* input is read back once; a source bitmap is not.
//
// Intermediates go back to the lease after the last pass that reads them;
// the result is read back once (`GPURenderer.renderFilter`), kept on the
// GPU for the scene that draws it (`renderFilterKeeping`), or drawn in
// place (blurBackdrop, GPUFrame+Backdrop.swift; shadows, GPUFrame+Shadow.swift).
import CEGL
import PenumbraModel
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
        /// zero pixels on every side.
        case packedAlpha(border: Int)
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

/// Executes lowered filter graphs on one renderer's context, within one lease.
final class GPUFilterEvaluator {
    let programs: ProgramCache
    let shared: GPUSharedObjects
    let lease: GLLease
    let images: GLImageCache
    private var counters: GPUCounters { shared.counters }

    init(programs: ProgramCache, shared: GPUSharedObjects, lease: GLLease, images: GLImageCache) {
        self.programs = programs; self.shared = shared; self.lease = lease; self.images = images
    }

    /// The pixels of `plan`'s result: an image covering at most its region within the graph's
    /// extent (the input may cover more), transparent elsewhere. `input` holds the pixels of the
    /// plan's stand-in node (an owned one, a shadow's caster plane, is consumed by its reader).
    func execute(_ plan: FilterPlan, input: GPUFilterImage? = nil) throws -> GPUFilterImage {
        var images = [GPUFilterImage?](repeating: nil, count: plan.passes.count)
        let lastReaders = plan.lastReaders
        do {
            for (index, pass) in plan.passes.enumerated() {
                let output = try run(pass, reading: images, input: input)
                images[index] = output
                // Inputs read for the last time go back, unless the output is written into one of them.
                for i in pass.operation.inputs where lastReaders[i] == index {
                    if let image = images[i], image.surface?.name != output.surface?.name { release(image) }
                    images[i] = nil
                }
            }
        } catch {
            for image in images { if let image { release(image) } }
            throw error
        }
        guard let result = images[plan.result] else { throw FilterError("internal: a filter plan left no result") }
        return result
    }

    /// Gives an intermediate back to the pool (a lent one stays with its owner).
    func release(_ image: GPUFilterImage) {
        if image.owned, let surface = image.surface { lease.giveBack(surface) }
    }

    private func run(_ pass: FilterPlan.Pass, reading images: [GPUFilterImage?], input: GPUFilterImage?) throws -> GPUFilterImage {
        let region = pass.rect
        func image(_ index: Int) throws -> GPUFilterImage {
            guard let image = images[index] else { throw FilterError("internal: a filter pass read a pass already let go") }
            return image
        }
        switch pass.operation {
        case .transparent:
            return .transparent
        case .input:
            guard let input else { throw FilterError("internal: a filter plan's input has no pixels") }
            return input
        case .bitmap(let bitmap):
            return try upload(bitmap, region)
        case .constant(let color):
            let p = SIMD4<Int32>(truncatingIfNeeded: color)
            return try self.pass(.constant, over: region, inputs: []) { $0.constant = p }
        case .draw(let list):
            return try draw(list, at: region)
        case .blur(let i, let kernel, let read):
            let source = try image(i)
            if case .packedAlpha = source.format { return try blurAlpha(source, kernel, read) }
            return try blur(source, kernel, region)
        case .unsharp(let i, let kernel, let intensity, _):
            let source = try image(i)
            let blurred = try blur(source, kernel, region)
            defer { release(blurred) }
            return try self.pass(.unsharp, over: region, inputs: [source, blurred]) { $0.intensity = GPUPaint.words(intensity) }
        case .blendWithMask(let i, let mask, let background):
            let back = try background.map(image) ?? .transparent
            return try self.pass(.mask, over: region, inputs: [try image(i), try image(mask), back]) { _ in }
        case .composite(let i, let background, let mode):
            return try self.pass(.composite, over: region, inputs: [try image(i), try image(background)],
                                 defines: [("BLEND_MODE", mode.shaderValue)]) { _ in }
        case .clamp(let i, let extent, _):
            return try self.pass(.clamp, over: region, inputs: [try image(i)]) { $0.clampExtent = UniformBuffers.rect(extent) }
        case .resample(let source, let matrix, let read):
            let pixels: Bitmap
            switch source {
            case .bitmap(let bitmap): pixels = bitmap
            case .pass(let i): pixels = try self.read(try image(i), in: read)
            }
            return try draw(ImageFilter.affineDisplayList(region, matrix: matrix, source: read, pixels: pixels), at: region)
        case .color(let i, let kernel):
            let (op, parameters, table) = kernel.portable
            var gamma: GLTexture?
            if !table.isEmpty {
                // Four values to a texel, 64 texels to a row (colorfilter.glsl's gammaValue).
                var values = [SIMD4<Float>](repeating: .zero, count: 64 * 17)
                for (i, v) in table.enumerated() { values[i >> 2][i & 3] = Float(v) }
                gamma = try lease.table(values, width: 64, rows: 17)
            }
            defer { if let gamma { lease.giveBack(texture: gamma.name) } }
            return try self.pass(.color, over: region, inputs: [try image(i)], defines: [("COLOR_OP", op)]) { block in
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

    /// The part `rect` of a source bitmap (extent [0, 0, width, height]) as a texture: copied on
    /// the GPU from the image cache's texture of the very same bitmap when there is one (a kept
    /// image read back for the chains that read it: GLKeptImages.swift), else uploaded.
    private func upload(_ bitmap: Bitmap, _ rect: PixelRect) throws -> GPUFilterImage {
        let surface = try lease.acquire(.color, width: rect.width, height: rect.height, "a filter source image")
        if let cached = images.cachedTexture(of: bitmap) {
            glCopyImageSubData(cached, glEnum(GL_TEXTURE_2D), 0, GLint(rect.x), GLint(rect.y), 0, surface.name, glEnum(GL_TEXTURE_2D),
                               0, 0, 0, 0, GLsizei(rect.width), GLsizei(rect.height), 1)
            if glGetError() == glEnum(GL_NO_ERROR) {
                images.sourceCopyBytes += rect.area * 4
                return GPUFilterImage(surface: surface, rect: rect, owned: true)
            }
            for _ in 0..<8 where glGetError() == glEnum(GL_NO_ERROR) { break } // the other flags set, if any
        }
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
        let frame = try GPUFrame(list: list, programs: programs, lease: lease, images: images, shared: shared)
        try frame.run()
        let target = frame.target
        return GPUFilterImage(surface: target.surface, rect: rect, owned: true)
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
        return part.placed(at: overlap, into: region)
    }

}
