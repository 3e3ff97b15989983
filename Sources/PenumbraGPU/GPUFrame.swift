// GPUFrame: the state of one GPU render, a mirror of the CPU's CPUFrame:
// the current target (canvas or layer, each an RGBA8 texture placed on the
// device grid by its frame), the layers below it, and the clip masks (the
// CPU's masks, uploaded once per clip node and render). It executes Core's
// lowered draw stream (DrawStream), the same steps the CPU executes: every
// draw through `draw`, with its plans computed ahead on other cores
// (PlanAhead) so that the CPU clips later ops' edges while the GPU draws
// earlier ones, and its paint resolved in Core (PaintPlan). Shapes' coverage
// arrives as edges (CoverageForm.edges) and is computed on the GPU
// (GPUCoverage).
// Textures come from the renderer's pool through `lease` (given back when
// the render ends) and images from its content-keyed cache.
import CEGL
import PenumbraCore

/// A clip's coverage on the CPU and as a texture.
struct GPUClip {
    let mask: CoverageMask
    let texture: GLTexture
}

/// One render on the GPU.
final class GPUFrame {
    let programs: ProgramCache
    let lease: GLLease
    let images: GLImageCache
    let shared: GPUSharedObjects
    /// Passes shade only occupied tiles when these cover less than this share of the region.
    let sparseLimit: Double
    var target: GLTarget
    private var layers: [GLTarget] = []
    private var clips: [Int: GLTexture] = [:]
    private var stream: DrawStream

    init(list: DisplayList, programs: ProgramCache, lease: GLLease, images: GLImageCache, shared: GPUSharedObjects,
         sparseLimit: Double) throws {
        self.programs = programs; self.lease = lease; self.images = images; self.shared = shared
        self.sparseLimit = sparseLimit
        var clear = SIMD4<Float>.zero
        if let bg = list.background {
            let p = bg.premultiplied
            for i in 0..<4 { clear[i] = Float(roundHalfUp(min(1, max(0, p[i])) * 255)) / 255 }
        }
        target = try lease.colorTarget(frame: PixelRect(x: 0, y: 0, width: list.width, height: list.height), "canvas",
                                       clear: clear)
        stream = DrawStream(list, form: .edges)
    }

    func run(cancellation: RenderCancellation? = nil) throws {
        var index = 0
        while let step = stream.next() {
            try cancellation?.check()
            switch step {
            case .beginLayer(let frame):
                layers.append(target)
                target = try lease.colorTarget(frame: frame, "layer")
            case .draw(let draw):
                try self.draw(draw)
            case .endLayer(let draw):
                guard let below = layers.popLast() else { preconditionFailure("a layer ended that did not begin") }
                let layer = target
                target = below
                try self.draw(draw, placed: layer.texture.name)
                lease.giveBack(layer)
            case .blurBackdrop(let blur, let bounds, let draw):
                let replacement = try backdropReplacement(blur, bounds)
                try self.draw(draw, placed: replacement.texture.name)
                lease.giveBack(replacement)
            }
            #if DEBUG
            try GPURenderer.checkGLError("step \(index)")
            #endif
            index += 1
        }
    }

    /// Executes a lowered draw: its shadow first, then the op itself, each as planned.
    /// `placed`: the texture of a `placed` paint's pixels.
    func draw(_ draw: LoweredDraw, placed: GLuint? = nil) throws {
        var clip: GPUClip?
        if let (index, mask) = draw.clip {
            clip = GPUClip(mask: mask, texture: try clipTexture(index, mask))
        }
        let (paint, stops) = try textures(for: draw.paint, placed: placed)
        defer { if let stops { lease.giveBack(texture: stops.name) } }
        if let shadow = draw.shadow {
            try drawShadow(shadow, paint, alpha8: draw.alpha8, mode: draw.mode, clip: clip)
        }
        guard let plan = draw.op else { return }
        precondition(plan.coverage == nil, "the GPU's plans carry edges, not masks")
        let coverage = try plan.edges.map { try coverageMask($0, listingTiles: true) }
        try composite(region: plan.region, coverage: coverage, tileList: coverage != nil, clip: clip?.texture,
                      paint: paint, plan: draw.paint, alpha: draw.alpha8, mode: draw.mode)
        if let coverage { lease.giveBack(texture: coverage.name) }
    }

    /// The coverage of a shape's edges, computed on the GPU (GPUCoverage), as a mask texture;
    /// `listingTiles`: with its occupied tiles listed for the composite that follows.
    func coverageMask(_ edges: CoverageEdges, listingTiles: Bool = false) throws -> GLTexture {
        try shared.coverage.mask(edges, programs: programs, uniforms: shared.uniforms, lease: lease, listingTiles: listingTiles)
    }

    /// The paint's textures: an image's (cached per content) and its atlas's, a gradient's ramp
    /// (returned too, to give back after the draw), or the placed pixels.
    private func textures(for plan: PaintPlan, placed: GLuint?) throws -> (GPUPaint, stops: GLTexture?) {
        func ramp(_ ramp: GradientRamp, _ kind: GPUPaint.Kind) throws -> (GPUPaint, stops: GLTexture?) {
            let stops = try GPUPaint.stopTexture(ramp, lease)
            return (GPUPaint(kind: kind, textures: [(stops.name, .stops)]), stops)
        }
        switch plan {
        case .solid: return (GPUPaint(kind: .solid), nil)
        case .linearGradient(let g): return try ramp(g.ramp, .linear)
        case .radialGradient(let g): return try ramp(g.ramp, .radial)
        case .image(let image):
            let (texture, mipmaps) = try images.textures(for: image.bitmap, atlas: image.atlas, pool: lease.pool)
            return (GPUPaint(kind: .image, textures: [(texture, .image), (mipmaps, .mipmaps)]), nil)
        case .placed:
            guard let placed else { preconditionFailure("a placed paint without its pixels") }
            return (GPUPaint(kind: .placed, textures: [(placed, .layer)]), nil)
        }
    }

    /// The clip node's mask as a texture, uploaded once per node and render.
    private func clipTexture(_ index: Int, _ mask: CoverageMask) throws -> GLTexture {
        if let texture = clips[index] { return texture }
        let texture = try lease.mask(mask)
        clips[index] = texture
        return texture
    }
}
