// DrawPlanner: the plans of a display list's draws, one after another, as a
// renderer executes them. A draw is a fill, an image, a gradient, or the
// composite of a finished layer (at its endLayer, or at the end of the list
// for a layer left open). Its plan is everything about it that does not
// depend on pixels: the clip's coverage, the shadow's plan and the op's plan
// (DrawPlan.swift), over the frame of the target it draws into (layers grow
// their frame by their shadow's margin). Because plans depend on geometry
// only, a renderer can compute them ahead of time on another core
// (PlanAhead.swift) while it composites earlier draws.

/// What a renderer needs, besides the paint, to execute one draw.
public struct PlannedDraw: Sendable {
    /// The coverage of the draw's clip chain over the target's frame (nil: no clip).
    public let clip: CoverageMask?
    /// The shadow to composite first (nil: no shadow, or one that changes no pixel).
    public let shadow: ShadowPlan?
    /// The draw itself (nil: it changes no pixel).
    public let op: OpPlan?
}

/// Walks a display list's commands and plans each draw, in the order renderers draw them.
public struct DrawPlanner: Sendable {
    private let list: DisplayList
    private var nextCommand = 0
    private var frame: PixelRect
    /// The frames (and states) of the targets below the open layers.
    private var layers: [(frame: PixelRect, state: CompositeState)] = []
    /// Clip coverage per clip node; clip nodes never span a layer boundary, so one frame serves each.
    private var clipMasks: [Int: CoverageMask] = [:]

    public init(_ list: DisplayList) {
        self.list = list
        frame = PixelRect(x: 0, y: 0, width: list.width, height: list.height)
    }

    /// The frame a layer opened with `state` over `frame` has: grown so that content outside
    /// it can still cast its shadow in.
    public static func layerFrame(for state: CompositeState, over frame: PixelRect) -> PixelRect {
        frame.grown(by: ShadowPlan.margin(for: state.shadow))
    }

    /// The device shape an image covers: its transformed destination rectangle.
    public static func coverageShape(of image: ImageDraw) -> DeviceShape {
        let r = image.rect, t = image.transform
        let corners = [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)]
        return DeviceShape(contours: [corners.map(t.apply)], rule: .nonzero)
    }

    /// The plan of the next draw, nil after the last one (including the composites of layers
    /// left open at the end).
    public mutating func next() -> PlannedDraw? {
        while nextCommand < list.commands.count {
            let command = list.commands[nextCommand]
            nextCommand += 1
            switch command {
            case .fill(let shape, _, let state): return plan(.shape(shape), state)
            case .image(let image, let state): return plan(.shape(DrawPlanner.coverageShape(of: image)), state)
            case .gradient(_, let state): return plan(.clipArea(state.clip), state)
            case .beginLayer(let state):
                layers.append((frame, state))
                frame = DrawPlanner.layerFrame(for: state, over: frame)
            case .endLayer:
                if let draw = closeLayer() { return draw }
            }
        }
        return closeLayer()
    }

    private mutating func closeLayer() -> PlannedDraw? {
        guard let (below, state) = layers.popLast() else { return nil }
        frame = below
        return plan(.plane, state)
    }

    private mutating func plan(_ geometry: DrawGeometry, _ state: CompositeState) -> PlannedDraw {
        let clip = state.clip.map { clipMask($0) }
        let shadow = state.shadow.flatMap {
            ShadowPlan(shadow: $0, geometry: geometry, frame: frame, clips: list.clips, clipRegion: clip?.region)
        }
        return PlannedDraw(clip: clip, shadow: shadow, op: OpPlan(geometry: geometry, frame: frame, clipRegion: clip?.region))
    }

    private mutating func clipMask(_ index: Int) -> CoverageMask {
        if let mask = clipMasks[index] { return mask }
        let mask = ClipCoverage.mask(ofClip: index, in: list.clips, within: frame) ?? .empty
        clipMasks[index] = mask
        return mask
    }
}
