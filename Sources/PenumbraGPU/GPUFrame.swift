// GPUFrame: the state of one GPU render, a mirror of the CPU's CPUFrame:
// the current target (canvas or layer, each an RGBA8 texture placed on the
// device grid by its frame), the layers below it, and the clip masks (the
// CPU's masks, uploaded once per clip node and render). Commands run in
// order through `draw`, as on the CPU; layers are begun and ended here.
import CEGL
import PenumbraCore

/// A clip's coverage on the CPU and as a texture.
struct GPUClip {
    let mask: CoverageMask
    let texture: GLTexture
}

/// One render on the GPU.
final class GPUFrame {
    let list: DisplayList
    let programs: ProgramCache
    let pool: GLResourcePool
    let lookup: GLuint
    var target: GLTarget
    private var layers: [(target: GLTarget, state: CompositeState)] = []
    private var clips: [Int: GPUClip] = [:]
    /// The destination copy of the composite pass, grown as needed.
    var scratch: (name: GLuint, width: Int, height: Int)?

    init(list: DisplayList, programs: ProgramCache, pool: GLResourcePool, lookup: GLuint) throws {
        self.list = list; self.programs = programs; self.pool = pool; self.lookup = lookup
        target = try pool.rgbaTarget(frame: PixelRect(x: 0, y: 0, width: list.width, height: list.height), "canvas")
        if let bg = list.background {
            let p = bg.premultiplied
            let v = (0..<4).map { Float(roundHalfUp(min(1, max(0, p[$0])) * 255)) / 255 }
            glClearColor(v[0], v[1], v[2], v[3])
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
    }

    func run() throws {
        for (index, command) in list.commands.enumerated() {
            switch command {
            case .fill(let shape, let color, let state):
                try draw(.shape(shape), .solid(SIMD4<Float>(color.premultiplied)), state)
            case .image(let image, let state):
                let texture = try pool.image(image.bitmap)
                try draw(.shape(GPUPaint.coverageShape(of: image)), .image(image, texture: texture), state)
                pool.release(texture: texture)
            case .gradient(let gradient, let state):
                let stops = GPUPaint.stopTexture(gradient, pool)
                try draw(.clipArea(state.clip), .gradient(gradient, stops: stops), state)
                pool.release(texture: stops)
            case .beginLayer(let state):
                layers.append((target, state))
                target = try pool.rgbaTarget(frame: target.frame.grown(by: ShadowPlan.margin(for: state.shadow)), "layer")
            case .endLayer:
                try endLayer()
            }
            #if DEBUG
            try GPURenderer.checkGLError("command \(index)")
            #else
            _ = index
            #endif
        }
        while !layers.isEmpty { try endLayer() }
    }

    private func endLayer() throws {
        guard let (below, state) = layers.popLast() else { return }
        let layer = target
        target = below
        try draw(.plane, .layer(layer), state)
        pool.release(texture: layer.texture.name)
    }

    /// Draws one op: its shadow first, then the op itself, each as the shared plan says.
    func draw(_ geometry: DrawGeometry, _ paint: GPUPaint, _ state: CompositeState) throws {
        let clip = try state.clip.map { try clipMask($0) }
        if let shadow = state.shadow,
           let plan = ShadowPlan(shadow: shadow, geometry: geometry, frame: target.frame, clips: list.clips,
                                 clipRegion: clip?.mask.region) {
            try drawShadow(plan, shadow.color, paint, state, clip: clip)
        }
        guard let plan = OpPlan(geometry: geometry, frame: target.frame, clipRegion: clip?.mask.region) else { return }
        let coverage = try plan.coverage.map { try pool.mask($0) }
        try composite(region: plan.region, coverage: coverage, clip: clip?.texture, paint: paint, alpha: Float(state.alpha),
                      mode: state.blendMode)
        if let coverage { pool.release(texture: coverage.name) }
    }

    func clipMask(_ index: Int) throws -> GPUClip {
        if let c = clips[index] { return c }
        let mask = ClipCoverage.mask(ofClip: index, in: list.clips, within: target.frame)
            ?? .empty
        let clip = GPUClip(mask: mask, texture: try pool.mask(mask))
        clips[index] = clip
        return clip
    }

    /// The canvas's pixels, rows in image order.
    func readBack() throws -> Bitmap {
        var bitmap = Bitmap(width: list.width, height: list.height)
        glBindFramebuffer(glEnum(GL_FRAMEBUFFER), target.framebuffer)
        glPixelStorei(glEnum(GL_PACK_ALIGNMENT), 1)
        bitmap.pixels.withUnsafeMutableBytes {
            glReadPixels(0, 0, GLsizei(list.width), GLsizei(list.height), glEnum(GL_RGBA), glEnum(GL_UNSIGNED_BYTE),
                         $0.baseAddress)
        }
        try GPURenderer.checkGLError("readback")
        return bitmap
    }
}
