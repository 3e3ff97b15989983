// DrawPlan: the geometry decisions of one op, made once for both renderers.
// Which pixels an op writes, what coverage it has there, and for a shadow,
// the kernel, the plane its caster is rendered over, the caster's coverage
// and the pixels the shadow's composite writes. The CPU and GPU renderers
// differ in how they execute a plan, never in the plan: parity of geometry
// holds by construction.
//
// The shadow is a filter graph (FilterAlpha.swift): the caster's alpha, a
// stand-in node whose extent is the caster's bounds within the target's
// frame grown by the kernel radius (what lies outside the canvas still casts
// its shadow in), blurred by gaussianBlur. The caster is the op's geometry
// translated by the offset (so fractional offsets are exact). The graph's
// rules decide the rectangles: the composite writes the blur's extent within
// the frame and the clip's region, and the caster's plane is the blur's
// region of interest for it (FilterRegions.swift), so a shadow clipped to a
// small region renders and blurs only what that region reads. A layer that
// casts a shadow is grown by `ShadowPlan.margin` so that its content outside
// the canvas exists to cast it.

import PenumbraModel

/// What a command covers before the clip.
@usableFromInline package enum DrawGeometry: Sendable {
    /// The anti-aliased coverage of a device shape (fills, strokes, images).
    case shape(DeviceShape)
    /// Coverage 1 everywhere; the shadow is cast by the area inside the given clip (gradients).
    case clipArea(Int?)
    /// Coverage 1 everywhere; the shadow is cast by the paint's own alpha (layers).
    case plane
    /// A layer whose blend mode leaves the backdrop where the source is transparent: coverage 1
    /// over the layer's frame only, its shadow cast by the paint's alpha there. Outside the
    /// frame the layer's paint is transparent, so neither its composite nor its shadow changes a
    /// pixel there, and a small layer costs its own size rather than the target's.
    case layer(PixelRect)
}

/// How plans carry the coverage of a shape: as its clipped fixed-point edges (the GPU
/// renderer's: it accumulates them itself, CoverageEdges.swift), or as what a renderer's own
/// rasterizer makes of them on the planning threads (the CPU's masks, and bands it resolves as it
/// composites: PenumbraCPU/Coverage). The planner never reads rasterized coverage; every form
/// gives the same coverage. Clips follow the form too (ClipPlan): edges for the GPU, the
/// rasterizer's product of the chain otherwise.
@usableFromInline package enum CoverageForm: Sendable {
    case edges
    case rasterized(any CoverageRasterizer)

    /// The coverage of `shape` over `region` in this form: exactly one of the two is non-nil.
    func coverage(of shape: DeviceShape, in region: PixelRect) -> ((any RasterizedCoverage)?, CoverageEdges?) {
        switch self {
        case .edges: return (nil, Rasterizer.edges(of: shape, in: region))
        case .rasterized(let rasterizer): return (rasterizer.coverage(of: shape, in: region), nil)
        }
    }

    /// The coverage of a shadow caster, which is rendered into a plane and blurred.
    func casterCoverage(of shape: DeviceShape, in region: PixelRect) -> ((any RasterizedCoverage)?, CoverageEdges?) {
        switch self {
        case .edges: return (nil, Rasterizer.edges(of: shape, in: region))
        case .rasterized(let rasterizer): return (rasterizer.casterCoverage(of: shape, in: region), nil)
        }
    }
}

/// A renderer's rasterizer, called by the planner on its threads (PenumbraCPU's).
@usableFromInline package protocol CoverageRasterizer: Sendable {
    /// The coverage of `shape` over `region` (non-empty), in the form the renderer composites.
    func coverage(of shape: DeviceShape, in region: PixelRect) -> any RasterizedCoverage
    /// The coverage of a shadow caster over its plane (non-empty), which the renderer renders and blurs.
    func casterCoverage(of shape: DeviceShape, in region: PixelRect) -> any RasterizedCoverage
    /// The coverage of a clip chain (the node times its ancestors, translated by `offset`) within
    /// `bounds`, over the node's region; nil when it covers nothing there.
    func clipCoverage(ofClip index: Int, in clips: [ClipNode], offset: Point, within bounds: PixelRect) -> (any RasterizedCoverage)?
}

/// Coverage a renderer's rasterizer made: opaque to the planner but for its pixels.
@usableFromInline package protocol RasterizedCoverage: Sendable {
    /// The pixels it covers (zero outside).
    var region: PixelRect { get }
}

/// Where an op writes and with which coverage (before the clip).
@usableFromInline package struct OpPlan: Sendable {
    /// The pixels the op may change: its bounds within the frame and the clip's region.
    package let region: PixelRect
    /// The geometry's coverage over `region` as the renderer's rasterizer made it
    /// (CoverageForm.rasterized); nil with `edges`, and when both are nil the coverage is 1
    /// everywhere.
    package let rasterized: (any RasterizedCoverage)?
    /// The geometry's edges over `region` (CoverageForm.edges).
    package let edges: CoverageEdges?

    /// Nil when the op can change no pixel.
    package init?(geometry: DrawGeometry, frame: PixelRect, clipRegion: PixelRect?, form: CoverageForm) {
        var region = frame
        if case .shape(let shape) = geometry {
            guard let r = Rasterizer.region(of: shape, within: frame) else { return nil }
            region = r
        }
        if case .layer(let content) = geometry { region = region.intersection(content) }
        if let clipRegion { region = region.intersection(clipRegion) }
        guard !region.isEmpty else { return nil }
        self.region = region
        if case .shape(let shape) = geometry {
            (rasterized, edges) = form.coverage(of: shape, in: region)
        } else {
            (rasterized, edges) = (nil, nil)
        }
    }

    private init(region: PixelRect) {
        self.region = region; rasterized = nil; edges = nil
    }

    /// A plane's plan (coverage 1 everywhere) cut to `rect`; nil when nothing of it is left.
    package func within(_ rect: PixelRect) -> OpPlan? {
        precondition(rasterized == nil && edges == nil, "only a plane's plan is cut to a rectangle")
        let r = region.intersection(rect)
        return r.isEmpty ? nil : OpPlan(region: r)
    }
}

/// The shadow of one op, resolved to pixels.
@usableFromInline package struct ShadowPlan: Sendable {
    /// The caster's alpha in the shadow's graph: a stand-in node of the caster's extent, for
    /// which each renderer substitutes the plane it renders the caster into.
    package let caster: FilterNode
    /// The shadow's graph: the caster blurred by sigma. Its value over `compositeRegion` is the
    /// coverage of the shadow colour's fill.
    package let filter: FilterNode
    /// The graph lowered for `compositeRegion` (the caster's plane, then its blur): what both
    /// renderers execute, on one channel.
    package let lowered: FilterPlan
    /// Device offset of the shadow (the paint is sampled at the pixel centre minus it).
    package let offset: Point
    /// The rectangle the caster's alpha is rendered over and blurred in.
    package let plane: PixelRect
    /// The caster's coverage (zero outside its own region) as the renderer's rasterizer made it;
    /// nil with `casterEdges` or `casterClip`, and when all three are nil the coverage is 1 over
    /// the plane.
    package let casterRasterized: (any RasterizedCoverage)?
    /// A shape caster's edges over the plane (CoverageForm.edges).
    package let casterEdges: CoverageEdges?
    /// A clip caster's chain (a gradient under a clip) as edges, moved by the offset
    /// (CoverageForm.edges: ClipPlan.edges); its coverage is the caster's.
    package let casterClip: [CoverageEdges]?
    /// The pixels the shadow's composite may change: plane within the frame and the clip's region.
    package let compositeRegion: PixelRect

    /// Nil when the shadow can change no pixel.
    package init?(shadow: DeviceShadow, geometry: DrawGeometry, frame: PixelRect, clips: [ClipNode], clipRegion: PixelRect?,
                  form: CoverageForm) {
        let reach = frame.grown(by: BlurReach.radius(forSigma: shadow.sigma))
        // The caster's extent: its bounds within the reach (all of it for a layer's plane).
        var extent = reach
        var moved: DeviceShape?, clipCaster: ClipPlan?
        switch geometry {
        case .shape(let shape):
            let offset = shape.offsetBy(shadow.offset)
            guard let region = Rasterizer.region(of: offset, within: reach) else { return nil }
            (moved, extent) = (offset, region)
        case .clipArea(let clipIndex):
            if let clipIndex {
                guard let clip = ClipCoverage.plan(ofClip: clipIndex, in: clips, offset: shadow.offset, within: reach,
                                                   form: form) else { return nil }
                extent = clip.region
                clipCaster = clip
            }
        case .plane:
            break
        case .layer(let content):
            // The paint moved by the offset, one pixel more for its bilinear reach.
            let moved = PixelRect(enclosing: Rect(x: Double(content.x) + shadow.offset.x, y: Double(content.y) + shadow.offset.y,
                                                  width: Double(content.width), height: Double(content.height))).grown(by: 1)
            extent = moved.intersection(reach)
            guard !extent.isEmpty else { return nil }
        }
        let caster = FilterNode.standIn(extent: extent)
        let filter = FilterNode.filtered(caster, .gaussianBlur(radius: shadow.sigma))
        guard case .finite(let blurred) = filter.extent else { return nil }
        var region = blurred.intersection(frame)
        if let clipRegion { region = region.intersection(clipRegion) }
        guard !extent.isEmpty, !region.isEmpty,
              let lowered = try? FilterPlan(filter, in: region, input: caster, maxPixels: Int.max / 4) else { return nil }
        let plane = ImageFilter.blurInputRegion(region, radius: shadow.sigma, inputExtent: .finite(extent))
        self.caster = caster; self.filter = filter; self.lowered = lowered
        offset = shadow.offset; self.plane = plane; compositeRegion = region
        (casterRasterized, casterEdges) = moved.map { form.casterCoverage(of: $0, in: plane) } ?? (clipCaster?.rasterized, nil)
        casterClip = clipCaster.flatMap { $0.edges.isEmpty ? nil : $0.edges }
    }

    /// The blur's kernel (resolved once, by the lowering).
    package var kernel: GaussianKernel {
        for pass in lowered.passes { if case .blur(_, let kernel, _) = pass.operation { return kernel } }
        return .identity
    }

    /// How far outside a target a shadow's caster can lie and still reach it, in pixels: the
    /// growth of a layer composited with this shadow.
    package static func margin(for shadow: DeviceShadow?) -> Int {
        guard let shadow else { return 0 }
        let reach = max(abs(shadow.offset.x), abs(shadow.offset.y)).rounded(.up) + 1
        return BlurReach.radius(forSigma: shadow.sigma) + Int(min(reach, Double(1 << 20)))
    }
}

/// Coverage of the clip tree.
@usableFromInline package enum ClipCoverage {
    /// The nodes of a clip chain as edges, the node first and then its ancestors, each over its
    /// own region within `bounds` (translated by `offset`); nil when the chain covers nothing
    /// there. Their product is the rasterizer's `clipCoverage`, over the first one's region.
    package static func edges(ofClip index: Int, in clips: [ClipNode], offset: Point = .zero,
                              within bounds: PixelRect) -> [CoverageEdges]? {
        let node = clips[index]
        let shape = offset == .zero ? node.shape : node.shape.offsetBy(offset)
        guard let region = Rasterizer.region(of: shape, within: bounds) else { return nil }
        var chain = [Rasterizer.edges(of: shape, in: region)]
        if let parent = node.parent {
            guard let outer = ClipCoverage.edges(ofClip: parent, in: clips, offset: offset, within: bounds) else { return nil }
            chain += outer
        }
        return chain
    }

    /// A clip chain's coverage in `form`'s clip form: the edges of its nodes for the GPU
    /// (CoverageForm.edges: no clip is rasterized on the CPU for it), else the rasterizer's.
    package static func plan(ofClip index: Int, in clips: [ClipNode], offset: Point = .zero, within bounds: PixelRect,
                             form: CoverageForm) -> ClipPlan? {
        switch form {
        case .edges:
            return edges(ofClip: index, in: clips, offset: offset, within: bounds).map { ClipPlan(edges: $0) }
        case .rasterized(let rasterizer):
            return rasterizer.clipCoverage(ofClip: index, in: clips, offset: offset, within: bounds).map { ClipPlan(rasterized: $0) }
        }
    }
}

/// A clip chain's coverage over a target's frame, as a renderer takes it: its rasterizer's
/// product of the chain (the CPU's one mask), or the edges of the chain's nodes (the GPU's, which computes each node's coverage
/// and their product itself). Both give the same bytes: the product of the nodes' coverages,
/// `div255(c0 div255(c1 ...))`, over the innermost node's region.
/// A class: one clip's coverage is shared by every draw under it.
@usableFromInline package final class ClipPlan: Sendable {
    /// The pixels the clip may keep: its node's region within the frame (empty: none).
    package let region: PixelRect
    /// The chain's coverage as the renderer's rasterizer made it (nil in the edges form, and for
    /// the clip that keeps nothing).
    package let rasterized: (any RasterizedCoverage)?
    /// The chain's nodes, the clip's own first, each over its own region (empty in the
    /// rasterized form).
    package let edges: [CoverageEdges]

    package init(rasterized: any RasterizedCoverage) {
        region = rasterized.region; self.rasterized = rasterized; edges = []
    }

    package init(edges: [CoverageEdges]) {
        precondition(!edges.isEmpty, "a clip chain has a node")
        region = edges[0].region; rasterized = nil; self.edges = edges
    }

    private init(keepingNothing: ()) { region = PixelRect(x: 0, y: 0, width: 0, height: 0); rasterized = nil; edges = [] }

    /// A clip that keeps nothing.
    package static let empty = ClipPlan(keepingNothing: ())
}
