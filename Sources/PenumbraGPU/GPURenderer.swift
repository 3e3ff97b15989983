// GPURenderer: the display list on OpenGL ES 3 through a headless EGL
// context, with the CPU reference renderer's pixels (SCENE_FORMAT.md,
// "Parity contract").
//
// Design. Coverage is computed on the GPU from the shapes' edges, in the
// exact integer arithmetic the CPU uses (GPUCoverage.swift says why compute
// and integer atomics): the planner clips each edge to the op's region and
// rounds it to 24.8 fixed point on the CPU (cheap, per edge), the GPU
// accumulates the cells and resolves them into U8 coverage, so the masks
// equal the CPU's by construction; clips (each node's coverage from its
// edges, a chain's as their product: GPUFrame+Clips.swift) and shadow
// casters are computed the same way, so no coverage mask is made on the CPU
// or uploaded. Everything per pixel after that runs on the GPU
// as well: paint (image sampling under the inverse CTM, nine-slice,
// gradients, layers), the blend formula of every mode, shadows (caster
// alpha, two Gaussian passes) and layers, all in the integer arithmetic of
// docs/ARITHMETIC.md. Every op's composite is one compute dispatch over its
// region (shape bounds ∩ target frame ∩ clip region, exactly as the CPU)
// that reads and writes the target in place through image units, so no
// copy of the destination is made (GPUFrame+Composite.swift); it computes
//     result = dst + coverage * (blend(src * alpha, dst) - dst)
// on U8 integers with the CPU's rounding, and the 8-bit store keeps it
// exactly. Shadow casters and blurs remain fragment passes into planes.
//
// Persistent state: the context, the programs (GPUProgramCache), pooled
// textures and framebuffers (GLTexturePool), image textures by content
// (GLImageCache) and readback buffers live as long as the renderer; a
// render only takes from them and gives back (`purgeCaches` empties them).
// `submit` returns a pending frame whose readback completes later, so
// callers can keep several frames in flight (RenderPipeline does).
//
// Threading: a GPURenderer owns one GL context and is not thread-safe; use
// one renderer per thread. It makes its context current at each render.
import CEGL
import PenumbraModel
import PenumbraCore

/// The GLES renderer. Not thread-safe: use one instance per thread.
public final class GPURenderer: Renderer {
    private let egl: EGLHeadlessContext
    let programs: ProgramCache
    /// The driver's GL_RENDERER string, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    public let rendererString: String
    /// The driver's GL_VERSION string.
    public let versionString: String
    /// Which EGL platform gave the display ("device 0 (hardware)", "surfaceless", "default").
    public var platform: String { egl.platform }
    /// The largest texture / renderbuffer side: canvases and layers beyond it are unsupported.
    public let maxTextureSize: Int
    /// The lookup texture and the blur weight buffer.
    let shared: GPUSharedObjects
    /// Textures and framebuffers kept across ops and renders.
    let pool: GLTexturePool
    /// Image textures by content.
    let images: GLImageCache
    /// Pixel-pack buffers of readbacks, kept for reuse.
    let readbacks: GLReadbackBuffers
    /// The counts of the frame being drawn.
    let counters = GPUCounters()
    /// What the last frame cost: uploads, readback, draw calls, dispatches, passes, host time.
    public var lastFrameCounters: GPUFrameCounters { counters.frame }
    /// Whether a frame is being drawn (a kept image is not read back then).
    private var drawingFrame = false

    /// The renderer's name: the GL_RENDERER string.
    public var name: String { rendererString }

    /// Whether this GL is a software rasterizer (Mesa's llvmpipe or softpipe, SwiftShader), which
    /// `Backend.auto` never picks.
    public var isSoftware: Bool { GPURenderer.isSoftware(rendererString) }

    /// Whether a GL_RENDERER string names a software rasterizer.
    package static func isSoftware(_ renderer: String) -> Bool {
        let lowercased = renderer.lowercased()
        return ["llvmpipe", "softpipe", "swiftshader", "software rasterizer", "lavapipe"].contains { lowercased.contains($0) }
    }

    /// The GL_RENDERER string of the context EGL would give, without compiling anything: what
    /// `Backend.auto` asks before it builds a renderer. Throws `EGLUnavailable` when there is none.
    package static func probeRendererString() throws -> String {
        let context = try EGLHeadlessContext()
        return withExtendedLifetime(context) { glString(GL_RENDERER) }
    }

    /// Creates a headless EGL context and compiles the programs. Throws `EGLUnavailable` when no
    /// context can be made and `BackendUnavailable` when the context lacks what the renderer needs.
    public convenience init() throws { try self.init(specialisesPrograms: true) }

    /// `specialisesPrograms: false` draws with the generic programs (paint and mode as uniforms),
    /// for tests that compare them with the specialised ones.
    /// `lookupInUniforms` overrides where specialised programs read the byte table (nil: a
    /// uniform block on software rasterizers, the texture on hardware).
    init(specialisesPrograms: Bool, lookupInUniforms: Bool? = nil) throws {
        egl = try EGLHeadlessContext()
        rendererString = GPURenderer.glString(GL_RENDERER)
        versionString = GPURenderer.glString(GL_VERSION)
        var size: GLint = 0, renderbuffer: GLint = 0, viewport: [GLint] = [0, 0]
        glGetIntegerv(glEnum(GL_MAX_TEXTURE_SIZE), &size)
        glGetIntegerv(glEnum(GL_MAX_RENDERBUFFER_SIZE), &renderbuffer)
        glGetIntegerv(glEnum(GL_MAX_VIEWPORT_DIMS), &viewport)
        maxTextureSize = Int(min(size, renderbuffer, viewport[0], viewport[1]))
        guard GPURenderer.extensions().contains("GL_EXT_color_buffer_float") else {
            throw BackendUnavailable("the GL context (\(rendererString)) lacks GL_EXT_color_buffer_float, needed for shadow planes")
        }
        var blockSize: GLint = 0
        glGetIntegerv(glEnum(GL_MAX_UNIFORM_BLOCK_SIZE), &blockSize)
        shared = GPUSharedObjects(maxBlockBytes: Int(blockSize), counters: counters)
        programs = try ProgramCache(specialises: specialisesPrograms,
                                    lookupInUniforms: lookupInUniforms ?? GPURenderer.isSoftware(rendererString),
                                    weightVec4s: shared.weightVec4s)
        pool = GLTexturePool(maxSize: maxTextureSize, counters: counters)
        images = GLImageCache()
        readbacks = GLReadbackBuffers()
        try GPURenderer.checkGLError("initialisation")
    }

    deinit {
        guard (try? egl.makeCurrent()) != nil else { return }
        purgeCaches()
        readbacks.deleteAll()
        shared.delete()
    }

    /// Renders the list into a new premultiplied bitmap. Throws `BackendUnavailable` when the
    /// canvas (or a layer or shadow plane) exceeds the GPU's texture size. Stops once the current
    /// cancellation token (if any) is set.
    public func render(_ list: DisplayList) throws -> Bitmap {
        try render(list, cancellation: RenderCancellation.current)
    }

    /// Renders the list, checking `cancellation` between draws.
    public func render(_ list: DisplayList, cancellation: RenderCancellation?) throws -> Bitmap {
        // Waiting at once: glReadPixels straight into the bitmap (one copy, not two via a buffer).
        try draw(list, cancellation: cancellation) { target in
            counters.frame.readbackBytes = list.canvasFrame.area * 4
            return try GLReadbackBuffers.read(target, width: list.canvasFrame.width, height: list.canvasFrame.height)
        }
    }

    /// Renders the list and keeps its pixels on the GPU as an image texture (GLKeptImages.swift),
    /// reading nothing back: for what a scene draws to draw again (its offscreen images).
    /// `portable` makes the same pixels anywhere (the CPU reference renderer), for whatever asks
    /// for them off this renderer's thread. Where the driver refuses the copy, the pixels are
    /// read back.
    package func renderKeeping(_ list: DisplayList, portable: @escaping @Sendable () throws -> Bitmap) throws -> ProducedPixels {
        let (width, height) = (list.canvasFrame.width, list.canvasFrame.height)
        return try draw(list, cancellation: RenderCancellation.current) { target in
            if let kept = images.kept.keep(copiedFrom: target.texture.name, origin: (0, 0), width: width, height: height, renderer: self) {
                return .kept(kept, portable: portable)
            }
            counters.frame.readbackBytes = width * height * 4
            return .bitmap(try GLReadbackBuffers.read(target, width: width, height: height))
        }
    }

    /// Renders the list and starts reading its pixels back (into a pixel-pack buffer, behind a
    /// fence), returning before the GPU has finished: render the next list, then ask this one
    /// for its bitmap, and the GPU's work overlaps the CPU's. Call `bitmap()` on this thread.
    package func submit(_ list: DisplayList) throws -> GPUPendingFrame {
        try draw(list) { target in
            counters.frame.readbackBytes = list.canvasFrame.area * 4
            return try readbacks.start(reading: target, width: list.canvasFrame.width, height: list.canvasFrame.height, renderer: self)
        }
    }

    /// Runs the list's commands into a canvas from the pool and hands it to `readBack` before
    /// the render's surfaces go back to the pool. The deferred images the frame needs as
    /// pixels are made first, here, where a kept one can still be read back.
    private func draw<T>(_ list: DisplayList, cancellation: RenderCancellation? = nil,
                         readBack: (GLTarget) throws -> T) throws -> T {
        try egl.makeCurrent()
        images.kept.collect()
        counters.begin()
        list.makeDeferredImages(except: drawsFromKeptTexture)
        readbacks.collectAbandoned()
        let lease = GLLease(pool: pool)
        defer {
            lease.end()
            pool.trim()
        }
        let frame = try GPUFrame(list: list, programs: programs, lease: lease, images: images, shared: shared)
        try whileDrawing { try frame.run(cancellation: cancellation) }
        counters.endHostTime()
        let result = try readBack(frame.target)
        try GPURenderer.checkGLError("render")
        return result
    }

    /// Runs `body` as a frame's drawing, during which no kept image is read back.
    func whileDrawing<T>(_ body: () throws -> T) rethrows -> T {
        drawingFrame = true
        defer { drawingFrame = false }
        return try body()
    }

    /// Whether the frame draws `draw` from a texture this renderer keeps (GPUFrame does so for
    /// a draw that samples no mip levels, whose atlas the CPU builds from the pixels).
    private func drawsFromKeptTexture(_ draw: ImageDraw, _ pixels: DeferredPixels) -> Bool {
        guard let kept = pixels.kept as? GLKeptImage, images.kept.texture(of: kept, counting: false) != nil else { return false }
        return ImageSamplingPlan(draw).mipmaps == nil
    }

    /// The pixels of `image`, read back from its texture: only on the thread this renderer's
    /// context is current on, between frames (nil elsewhere, or once its texture is gone). They
    /// are kept by content too (GLImageCache.adopt), so a draw of them uploads nothing.
    func readBack(_ image: GLKeptImage) -> Bitmap? {
        guard egl.isCurrent, !drawingFrame, let texture = images.kept.texture(of: image, counting: false) else { return nil }
        let lease = GLLease(pool: pool)
        defer { lease.end() }
        guard let surface = try? lease.acquire(.color, width: image.width, height: image.height, "an image read back") else { return nil }
        glCopyImageSubData(texture, glEnum(GL_TEXTURE_2D), 0, 0, 0, 0, surface.name, glEnum(GL_TEXTURE_2D), 0, 0, 0, 0,
                           GLsizei(image.width), GLsizei(image.height), 1)
        var bitmap = Bitmap(width: image.width, height: image.height)
        glBindFramebuffer(glEnum(GL_READ_FRAMEBUFFER), surface.framebuffer)
        glPixelStorei(glEnum(GL_PACK_ALIGNMENT), 1)
        bitmap.pixels.withUnsafeMutableBytes {
            glReadPixels(0, 0, GLsizei(image.width), GLsizei(image.height), glEnum(GL_RGBA), glEnum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        guard (try? GPURenderer.checkGLError("reading a kept image back")) != nil else { return nil }
        counters.frame.readbackBytes += bitmap.pixels.count
        images.kept.readBacks += 1
        images.kept.readBackBytes += bitmap.pixels.count
        images.adopt(bitmap, copiedFrom: texture, origin: (0, 0), pool: pool)
        return bitmap
    }

    /// Makes the context current (for a pending frame's readback).
    func makeCurrent() throws { try egl.makeCurrent() }

    /// Deletes the idle textures and framebuffers kept for reuse and every cached image
    /// texture (they are made again when needed).
    public func purgeCaches() {
        guard (try? egl.makeCurrent()) != nil else { return }
        pool.trim(toBytes: 0)
        images.purge()
    }

    /// Compiles nothing new: checks that every program compiled and linked on this context
    /// (they are built at init), returning their names.
    package func programNames() -> [String] {
        [programs.caster.label, programs.blurX.label]
    }

    // MARK: GL helpers

    static func glString(_ name: Int32) -> String {
        glGetString(glEnum(name)).map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) } ?? "?"
    }

    static func extensions() -> Set<String> {
        var count: GLint = 0
        glGetIntegerv(glEnum(GL_NUM_EXTENSIONS), &count)
        var names = Set<String>()
        for i in 0..<max(0, count) {
            if let s = glGetStringi(glEnum(GL_EXTENSIONS), GLuint(i)) {
                names.insert(String(cString: UnsafeRawPointer(s).assumingMemoryBound(to: CChar.self)))
            }
        }
        return names
    }

    /// Texture units: fixed per sampler, distinct for every sampler type.
    enum Unit: Int32, CaseIterable {
        case coverage = 0, clip, lookup, image, stops, layer, input, packedCoverage, mipmaps
        /// Filter passes (GPUFilterEvaluator): their images and gammaAdjust's table.
        case filter0, filter1, filter2, gammaTable
        /// composite.comp's coverage when it is a layer's alpha (a backdrop mask).
        case alphaCoverage
    }

    /// Throws a RenderError naming the pass when GL reports an error (debug builds check after
    /// every pass; release builds only at initialisation and readback).
    static func checkGLError(_ pass: String) throws {
        let error = glGetError()
        guard error == glEnum(GL_NO_ERROR) else {
            throw RenderError("GPU: GL error 0x\(String(error, radix: 16)) in \(pass)")
        }
    }
}
