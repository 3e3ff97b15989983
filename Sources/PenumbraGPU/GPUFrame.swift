// GPUFrame: the state of one GPU render, a mirror of the CPU's CPUFrame:
// the current target (canvas or layer, each an RGBA8 texture placed on the
// device grid by its frame), the layers below it, and the clip masks (the
// CPU's masks, uploaded once per clip node and render). Commands run in
// order through `draw`, as on the CPU, each with its plan from the shared
// DrawPlanner, computed ahead on another core (PlanAhead) so that the CPU
// rasterizes later ops while the GPU draws earlier ones; layers are begun
// and ended here.
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
    private var clips: [Int: GLTexture] = [:]
    private let plans: PlanAhead

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
        plans = PlanAhead(list)
    }

    func run(cancellation: RenderCancellation? = nil) throws {
        for (index, command) in list.commands.enumerated() {
            try cancellation?.check()
            switch command {
            case .fill(let shape, let color, let state):
                try draw(.solid(color.premultiplied8), state)
            case .image(let image, let state):
                let atlas = ImageSamplingPlan(image).mipmaps.map { image.bitmap.mipAtlas($0) }
                let (texture, mipmaps) = try images.textures(for: image.bitmap, atlas: atlas, pool: lease.pool)
                try draw(.image(image, texture: texture, mipmaps: mipmaps), state)
            case .gradient(let gradient, let state):
                let stops = try GPUPaint.stopTexture(gradient, lease)
                try draw(.gradient(gradient, stops: stops.name), state)
                lease.giveBack(texture: stops.name)
            case .beginLayer(let state):
                layers.append((target, state))
                target = try lease.colorTarget(frame: DrawPlanner.layerFrame(for: state, over: target.frame), "layer")
            case .endLayer:
                try endLayer()
            case .blurBackdrop(let blur, let state):
                try drawBackdrop(blur, state)
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
        try draw(.layer(layer), state)
        lease.giveBack(layer)
    }

    /// Draws the next planned op: its shadow first, then the op itself, each as the plan says.
    func draw(_ paint: GPUPaint, _ state: CompositeState) throws {
        guard let planned = plans.next() else { preconditionFailure("the planner ran out of draws") }
        var clip: GPUClip?
        if let index = state.clip {
            let mask = planned.clip ?? .empty
            clip = GPUClip(mask: mask, texture: try clipTexture(index, mask))
        }
        if let shadow = state.shadow, let plan = planned.shadow {
            try drawShadow(plan, shadow.color, paint, state, clip: clip)
        }
        guard let plan = planned.op else { return }
        let rects = occupied(plan.coverage.map(CoverageTiles.init), within: plan.region)
        let coverage = try plan.coverage.map { try lease.mask($0, only: rects) }
        try composite(region: plan.region, coverage: coverage, rects: rects, clip: clip?.texture,
                      paint: paint, alpha: Fixed.unit8(state.alpha), mode: state.blendMode)
        if let coverage { lease.giveBack(texture: coverage.name) }
    }

    /// The clip node's mask as a texture, uploaded once per node and render.
    private func clipTexture(_ index: Int, _ mask: CoverageMask) throws -> GLTexture {
        if let texture = clips[index] { return texture }
        let texture = try lease.mask(mask)
        clips[index] = texture
        return texture
    }
}
