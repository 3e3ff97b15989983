// GPUFrame: the state of one GPU render, a mirror of the CPU's CPUFrame:
// the current target (canvas or layer, each an RGBA8 texture placed on the
// device grid by its frame), the layers below it, and the clip masks (the
// CPU's masks, uploaded once per clip node and render). Commands run in
// order through `draw`, as on the CPU; layers are begun and ended here.
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
    let list: DisplayList
    let programs: ProgramCache
    let lease: GLLease
    let images: GLImageCache
    let shared: GPUSharedObjects
    /// Passes shade only occupied tiles when these cover less than this share of the region.
    let sparseLimit: Double
    var target: GLTarget
    private var layers: [(target: GLTarget, state: CompositeState)] = []
    private var clips: [Int: GPUClip] = [:]

    init(list: DisplayList, programs: ProgramCache, lease: GLLease, images: GLImageCache, shared: GPUSharedObjects,
         sparseLimit: Double) throws {
        self.list = list; self.programs = programs; self.lease = lease; self.images = images; self.shared = shared
        self.sparseLimit = sparseLimit
        var clear = SIMD4<Float>.zero
        if let bg = list.background {
            let p = bg.premultiplied
            for i in 0..<4 { clear[i] = Float(roundHalfUp(min(1, max(0, p[i])) * 255)) / 255 }
        }
        target = try lease.colorTarget(frame: PixelRect(x: 0, y: 0, width: list.width, height: list.height), "canvas",
                                       clear: clear)
    }

    func run() throws {
        for (index, command) in list.commands.enumerated() {
            switch command {
            case .fill(let shape, let color, let state):
                try draw(.shape(shape), .solid(SIMD4<Float>(color.premultiplied)), state)
            case .image(let image, let state):
                let texture = try images.texture(for: image.bitmap, pool: lease.pool)
                try draw(.shape(GPUPaint.coverageShape(of: image)), .image(image, texture: texture), state)
            case .gradient(let gradient, let state):
                let stops = try GPUPaint.stopTexture(gradient, lease)
                try draw(.clipArea(state.clip), .gradient(gradient, stops: stops.name), state)
                lease.giveBack(texture: stops.name)
            case .beginLayer(let state):
                layers.append((target, state))
                target = try lease.colorTarget(frame: target.frame.grown(by: ShadowPlan.margin(for: state.shadow)), "layer")
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
        lease.giveBack(layer)
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
        let rects = occupied(plan.coverage.map(CoverageTiles.init), within: plan.region)
        let coverage = try plan.coverage.map { try lease.mask($0, only: rects) }
        try composite(region: plan.region, coverage: coverage, rects: rects, clip: clip?.texture,
                      paint: paint, alpha: Float(state.alpha), mode: state.blendMode)
        if let coverage { lease.giveBack(texture: coverage.name) }
    }

    func clipMask(_ index: Int) throws -> GPUClip {
        if let c = clips[index] { return c }
        let mask = ClipCoverage.mask(ofClip: index, in: list.clips, within: target.frame)
            ?? .empty
        let clip = GPUClip(mask: mask, texture: try lease.mask(mask))
        clips[index] = clip
        return clip
    }
}
