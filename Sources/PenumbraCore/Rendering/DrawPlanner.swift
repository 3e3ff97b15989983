// DrawPlanner: the plans of a display list's draws, in the order a renderer
// executes them. A draw is a fill, an image, a gradient, a backdrop
// blur, the composite of a finished layer (at its endLayer, or at the end of
// the list for a layer left open) or a finished layer's mask on the filtered
// backdrop (at its endLayerMaskingBackdrop). Its plan is everything about it that does not
// depend on pixels: the clip's coverage, the shadow's plan and the op's plan
// (DrawPlan.swift), over the frame of the target it draws into (layers grow
// their frame by their shadow's margin, cut to what they hold: LayerExtents.swift).
//
// Planning is split in two: a cheap sequential walk (DrawSequence: which
// geometry, over which frame, with which state), taken once per render into
// an array of steps (DrawStream), and the costly, pure part
// (`DrawPlanner.plan`: rasterizing), which depends on nothing but its input
// and the clips' coverage, computed once per clip node and frame. So plans can be
// computed ahead of time, on several cores at once (PlanAhead.swift), while
// a renderer composites earlier draws.
import PenumbraModel
import Foundation
import Synchronization

/// What a renderer needs, besides the paint, to execute one draw.
@usableFromInline package struct PlannedDraw: Sendable {
    /// The coverage of the draw's clip chain over the target's frame (nil: no clip).
    @usableFromInline package let clip: ClipPlan?
    /// The shadow to composite first (nil: no shadow, or one that changes no pixel).
    @usableFromInline package let shadow: ShadowPlan?
    /// The draw itself (nil: it changes no pixel).
    @usableFromInline package let op: OpPlan?
}

/// One draw before planning: its geometry, the frame of the target it draws into, its state.
@usableFromInline package struct DrawInput: Sendable {
    @usableFromInline package let geometry: DrawGeometry
    @usableFromInline package let frame: PixelRect
    @usableFromInline package let state: CompositeState
}

/// What a draw paints, before its paint is lowered (DrawStream).
@usableFromInline package enum DrawSource: Sendable {
    case fill(Color)
    case image(ImageDraw)
    case gradient(GradientDraw)
    /// The composite of the finished layer whose frame this is (its pixels' luminance as alpha
    /// with `luminanceToAlpha`: LuminanceMask.swift).
    case layer(PixelRect, luminanceToAlpha: Bool)
    case backdrop(BackdropBlur)
    /// The finished layer whose frame this is, ended as a mask of the filtered backdrop
    /// (BackdropMask.swift): the draw writes, with its state's `copy` and clip, over the target.
    case backdropMask(BackdropMaskFilter, layer: PixelRect)
}

/// One step of a display list as renderers execute it: a layer begins over a frame, or a draw.
@usableFromInline package enum SequencedStep: Sendable {
    case beginLayer(PixelRect)
    case draw(DrawInput, DrawSource)
}

/// The steps of a display list in the order renderers execute them (layers left open are
/// closed at the end), each draw with the frame of the target it draws into.
@usableFromInline package struct DrawSequence: Sendable, Sequence, IteratorProtocol {
    private let list: DisplayList
    private var nextCommand = 0
    private var frame: PixelRect
    /// The frames (and states) of the targets below the open layers.
    private var layers: [(frame: PixelRect, state: CompositeState)] = []
    /// What each layer can hold, and each clip's extent (the layers' frames are cut to them).
    private let extents: LayerExtents

    @usableFromInline package init(_ list: DisplayList) {
        self.list = list
        frame = list.canvasFrame
        extents = LayerExtents(list)
    }

    /// The index of the command the last step came from (`commands.count` for the composites of
    /// layers left open at the end).
    package private(set) var lastCommand = -1

    @usableFromInline package mutating func next() -> SequencedStep? {
        while nextCommand < list.commands.count {
            let command = list.commands[nextCommand]
            lastCommand = nextCommand
            nextCommand += 1
            switch command {
            case .fill(let shape, let color, let state):
                return .draw(DrawInput(geometry: .shape(shape), frame: frame, state: state), .fill(color))
            case .image(let image, let state):
                return .draw(DrawInput(geometry: .shape(DrawPlanner.coverageShape(of: image)), frame: frame, state: state), .image(image))
            case .gradient(let gradient, let state):
                return .draw(DrawInput(geometry: .clipArea(state.clip), frame: frame, state: state), .gradient(gradient))
            case .blurBackdrop(let blur, let state):
                return .draw(DrawInput(geometry: .shape(blur.shape), frame: frame, state: state), .backdrop(blur))
            case .beginLayer(var state):
                if extents.masksBackdrop(layerAt: nextCommand - 1) { state = state.maskingBackdrop }
                layers.append((frame, state))
                frame = LayerExtents.frame(for: state, over: frame, content: extents.content(ofLayerAt: nextCommand - 1),
                                           clips: extents.clips)
                return .beginLayer(frame)
            case .endLayer:
                if let draw = closeLayer() { return draw }
            case .endLayerConvertingLuminanceToAlpha:
                if let draw = closeLayer(luminanceToAlpha: true) { return draw }
            case .endLayerMaskingBackdrop(let filter):
                if let draw = closeLayer(maskingBackdropWith: filter) { return draw }
            }
        }
        lastCommand = list.commands.count
        return closeLayer()
    }

    /// The draw that ends the innermost open layer: its composite (of its luminance as alpha with
    /// `luminanceToAlpha`), or with `filter` the mask of the filtered backdrop (whose state is
    /// the beginning's clip alone, with `copy`).
    private mutating func closeLayer(maskingBackdropWith filter: BackdropMaskFilter? = nil,
                                     luminanceToAlpha: Bool = false) -> SequencedStep? {
        guard let (below, state) = layers.popLast() else { return nil }
        let layer = frame
        frame = below
        guard let filter else {
            let geometry: DrawGeometry = GraphicsContext.modesKeepingBackdrop.contains(state.blendMode) ? .layer(layer) : .plane
            return .draw(DrawInput(geometry: geometry, frame: frame, state: state), .layer(layer, luminanceToAlpha: luminanceToAlpha))
        }
        return .draw(DrawInput(geometry: .plane, frame: frame, state: state.maskingBackdrop), .backdropMask(filter, layer: layer))
    }

    /// The draws alone, in order.
    @usableFromInline package static func draws(of list: DisplayList) -> [DrawInput] {
        draws(in: Array(DrawSequence(list)))
    }

    /// The draws of `steps`, in order.
    @usableFromInline package static func draws(in steps: [SequencedStep]) -> [DrawInput] {
        steps.compactMap { if case .draw(let input, _) = $0 { return input } else { return nil } }
    }
}

/// Plans a display list's draws, one draw at a time, from any thread (`plan(_:)`).
@usableFromInline package final class DrawPlanner: Sendable {
    private let clips: [ClipNode]
    /// Clip coverage per clip node and frame, each computed once by the first draw that needs
    /// it. A GraphicsContext starts a layer with no clip, so its lists use a clip node within one
    /// frame; a list built by hand may use one on both sides of a layer boundary, and a cache
    /// keyed by the node alone then served whichever frame's coverage was planned first (the
    /// planning threads' order: different bytes from run to run). The table's lock is held only
    /// to find a clip's cell: a draw under one clip never waits for another clip's rasterizing.
    private let clipPlans = Mutex<[ClipPlanKey: ClipPlanCell]>([:])
    private struct ClipPlanKey: Hashable { let clip: Int; let frame: PixelRect }
    private final class ClipPlanCell: Sendable { let plan = Mutex<ClipPlan?>(nil) }
    /// How shapes' coverage is planned (rasterized by the renderer, or as edges for the GPU).
    private let form: CoverageForm

    @usableFromInline package init(_ list: DisplayList, form: CoverageForm) {
        self.form = form
        clips = list.clips
    }

    /// The device shape an image covers: its transformed destination rectangle.
    @usableFromInline package static func coverageShape(of image: ImageDraw) -> DeviceShape {
        let r = image.rect, t = image.transform
        let corners = [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)]
        return DeviceShape(contours: [corners.map(t.apply)], rule: .nonzero)
    }

    /// The plan of one draw of this planner's list. Safe to call from several threads at once.
    @usableFromInline package func plan(_ input: DrawInput) -> PlannedDraw {
        let geometry = input.geometry, frame = input.frame, state = input.state
        let clip = state.clip.map { clipPlan($0, within: frame) }
        let shadow = state.shadow.flatMap {
            ShadowPlan(shadow: $0, geometry: geometry, frame: frame, clips: clips, clipRegion: clip?.region, form: form)
        }
        return PlannedDraw(clip: clip, shadow: shadow,
                           op: OpPlan(geometry: geometry, frame: frame, clipRegion: clip?.region, form: form))
    }

    /// The clip node's coverage over `frame`, computed once, under its own cell's lock (draws
    /// under the same clip wait for the one computing it; clips are few and shared by many draws).
    private func clipPlan(_ index: Int, within frame: PixelRect) -> ClipPlan {
        let key = ClipPlanKey(clip: index, frame: frame)
        let cell = clipPlans.withLock { cells in
            if let cell = cells[key] { return cell }
            let cell = ClipPlanCell()
            cells[key] = cell
            return cell
        }
        return cell.plan.withLock { plan -> ClipPlan in
            if let known = plan { return known }
            let computed = ClipCoverage.plan(ofClip: index, in: clips, within: frame, form: form) ?? ClipPlan.empty
            plan = computed
            return computed
        }
    }
}
