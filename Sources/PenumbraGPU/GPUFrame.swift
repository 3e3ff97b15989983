// GPUFrame: the state of one GPU render, a mirror of the CPU's CPUFrame:
// the current target (canvas or layer, each an RGBA8 texture placed on the
// device grid by its frame), the layers below it, and the clips' coverage
// (computed from their edges once per clip node and render: GPUFrame+Clips.swift). It executes Core's
// lowered draw stream (DrawStream), the same steps the CPU executes: every
// draw through `draw`, with its plans computed ahead on other cores
// (PlanAhead) so that the CPU clips later ops' edges while the GPU draws
// earlier ones, and its paint resolved in Core (PaintPlan). Shapes' coverage
// arrives as edges (CoverageForm.edges) and is computed on the GPU
// (GPUCoverage).
// Textures come from the renderer's pool through `lease` (given back when
// the render ends) and images from its content-keyed cache.
import CEGL
import PenumbraModel
import PenumbraCore

/// One render on the GPU.
final class GPUFrame {
    let programs: ProgramCache
    let lease: GLLease
    let images: GLImageCache
    let shared: GPUSharedObjects
    var target: GLTarget
    private var layers: [GLTarget] = []
    /// Clip coverage textures by node and region: a node used over two frames (a hand-built list
    /// may use one inside and outside a layer) has a mask for each, as the planner does.
    private var clips: [ClipTextureKey: GLTexture] = [:]
    private struct ClipTextureKey: Hashable { let clip: Int; let region: PixelRect }
    private var stream: DrawStream
    /// The coverage of the next plain draws with edges, computed in one batch, in order.
    private var batched: [GPUCoverageMask] = []
    /// The most draws whose coverage is computed in one batch, and the most atlas rows.
    static let maxBatch = 32, maxBatchRows = 4096

    init(list: DisplayList, programs: ProgramCache, lease: GLLease, images: GLImageCache, shared: GPUSharedObjects) throws {
        self.programs = programs; self.lease = lease; self.images = images; self.shared = shared
        var clear = SIMD4<Float>.zero
        if let bg = list.background {
            let p = bg.premultiplied
            for i in 0..<4 { clear[i] = Float(roundHalfUp(min(1, max(0, p[i])) * 255)) / 255 }
        }
        target = try lease.colorTarget(frame: list.canvasFrame, "canvas",
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
                try self.draw(draw, coverage: try batchedCoverage(draw))
            case .endLayer(let draw):
                guard let below = layers.popLast() else { preconditionFailure("a layer ended that did not begin") }
                let layer = target
                target = below
                try self.draw(draw, placed: layer.texture.name)
                lease.giveBack(layer)
            case .blurBackdrop(let replacement, let bounds, let draw):
                let pixels = try backdropReplacement(replacement, bounds)
                try self.draw(draw, placed: pixels.texture.name)
                lease.giveBack(pixels)
            case .maskBackdrop(let replacement, let draw):
                guard let below = layers.popLast() else { preconditionFailure("a layer ended that did not begin") }
                let layer = target
                target = below
                if let replacement { try maskBackdrop(replacement, layer: layer, draw) }
                lease.giveBack(layer)
            }
            #if DEBUG
            try GPURenderer.checkGLError("step \(index)")
            #endif
            index += 1
        }
    }

    /// The GPU coverage of a plain draw's op: computed now together with the ops of the plain
    /// draws that follow it (the stream's next steps, looked at ahead of their turn, as many as
    /// fit one batch: GPUCoverage.fits), or the one computed for it in such a batch. Nil
    /// without edges.
    private func batchedCoverage(_ draw: LoweredDraw) throws -> GPUCoverageMask? {
        guard let edges = draw.op?.edges else { return nil }
        if !batched.isEmpty { return batched.removeFirst() }
        var batch = [edges]
        let rowLimit = min(GPUFrame.maxBatchRows, lease.pool.maxSize)
        while batch.count < GPUFrame.maxBatch, case .draw(let next)? = stream.peek(batch.count - 1), let more = next.op?.edges,
              shared.coverage.fits(batch + [more], maxTextureSize: rowLimit) {
            batch.append(more)
        }
        batched = try shared.coverage.masks(batch, programs: programs, uniforms: shared.uniforms, lease: lease, listingTiles: true)
        return batched.removeFirst()
    }

    /// Executes a lowered draw: its shadow first, then the op itself, each as planned.
    /// `placed`: the texture of a `placed` paint's pixels. `coverage`: the op's coverage,
    /// computed in a batch (computed here when nil and the op has edges). `alphaCoverage`: a
    /// layer whose alpha is the op's coverage instead (a plane's op: a backdrop mask).
    func draw(_ draw: LoweredDraw, placed: GLuint? = nil, coverage batchedMask: GPUCoverageMask? = nil,
              alphaCoverage: GLTexture? = nil) throws {
        var clip: GLTexture?
        if let (index, coverage) = draw.clip {
            // A clip that keeps nothing leaves the op and its shadow nothing to change.
            if coverage.region.isEmpty { return }
            clip = try clipTexture(index, coverage)
        }
        let (paint, stops) = try textures(for: draw.paint, placed: placed)
        defer { if let stops { lease.giveBack(texture: stops.name) } }
        if let shadow = draw.shadow {
            try drawShadow(shadow, paint, alpha8: draw.alpha8, mode: draw.mode, clip: clip)
        }
        guard let plan = draw.op else { return }
        precondition(plan.rasterized == nil, "the GPU's plans carry edges, not rasterized coverage")
        if let alphaCoverage {
            precondition(plan.edges == nil && batchedMask == nil, "a layer's alpha is the coverage of a plane's op only")
            try composite(region: plan.region, coverage: alphaCoverage, coverageKind: .layerAlpha, clip: clip,
                          paint: paint, plan: draw.paint, alpha: draw.alpha8, mode: draw.mode)
            return
        }
        let mask = try batchedMask ?? plan.edges.map {
            try shared.coverage.mask($0, programs: programs, uniforms: shared.uniforms, lease: lease, listingTiles: true)
        }
        try composite(region: plan.region, coverage: mask?.texture, atlasRow: mask?.atlasRow ?? 0, tileList: mask?.tileList,
                      clip: clip, paint: paint, plan: draw.paint, alpha: draw.alpha8, mode: draw.mode)
        // A batch's masks share one atlas: it goes back after the batch's last draw.
        if let mask, batched.isEmpty { lease.giveBack(texture: mask.texture.name) }
    }

    /// The coverage of a shape's edges, computed on the GPU (GPUCoverage), as a mask texture
    /// of its own (its row 0 at the texture's top).
    func coverageMask(_ edges: CoverageEdges) throws -> GLTexture {
        try shared.coverage.mask(edges, programs: programs, uniforms: shared.uniforms, lease: lease).texture
    }

    /// The paint's textures: an image's (kept on the GPU, or cached per content) and its atlas's, a gradient's ramp
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
            let (texture, mipmaps) = try images.textures(for: image.pixels, atlas: image.atlas, pool: lease.pool)
            return (GPUPaint(kind: .image, textures: [(texture, .image), (mipmaps, .mipmaps)]), nil)
        case .placed:
            guard let placed else { preconditionFailure("a placed paint without its pixels") }
            return (GPUPaint(kind: .placed, textures: [(placed, .layer)]), nil)
        }
    }

    /// The clip node's coverage as a texture, computed once per node, region and render
    /// (GPUFrame+Clips.swift).
    private func clipTexture(_ index: Int, _ coverage: ClipPlan) throws -> GLTexture {
        let key = ClipTextureKey(clip: index, region: coverage.region)
        if let texture = clips[key] { return texture }
        precondition(coverage.rasterized == nil, "the GPU's plans carry clips as edges, not rasterized coverage")
        let texture = try clipCoverage(coverage.edges)
        clips[key] = texture
        return texture
    }
}
