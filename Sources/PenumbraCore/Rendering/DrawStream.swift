// DrawStream: a display list lowered once, for both renderers, into the
// steps they execute: a layer begins, a draw, a layer ends (its composite is
// a draw), a backdrop is blurred (its replacement is a draw), a layer ends as
// a mask on the filtered backdrop (the filtered backdrop's write is a draw). Each draw
// carries everything about it that does not depend on pixels: the planned
// coverage of its geometry, clip and shadow (DrawPlan.swift, computed ahead
// on worker threads by PlanAhead), its paint resolved to integers
// (PaintPlan.swift: at the op's position and, for a shadow, at the shadow's
// offset), its context alpha as U8 and its blend mode; a backdrop's
// replacement comes as its filter graph lowered into passes (FilterPlan).
// Renderers never walk `DisplayList.commands` themselves: what they execute is this sequence, so
// the order of draws, the frames of layers and every constant are the same
// on the CPU and the GPU by construction.

import PenumbraModel

/// A draw lowered for execution.
@usableFromInline package struct LoweredDraw: Sendable {
    /// The paint at the op's own position.
    @usableFromInline package let paint: PaintPlan
    /// The shadow to composite first; nil when there is none or it changes no pixel.
    @usableFromInline package let shadow: LoweredShadow?
    /// The clip node and its coverage over the target's frame; nil without a clip.
    package let clip: (index: Int, coverage: ClipPlan)?
    /// Where the op writes and with which coverage; nil when it changes no pixel.
    @usableFromInline package let op: OpPlan?
    /// The context alpha, U8.
    @usableFromInline package let alpha8: UInt8
    @usableFromInline package let mode: BlendMode
}

/// A draw's shadow, lowered.
@usableFromInline package struct LoweredShadow: Sendable {
    @usableFromInline package let plan: ShadowPlan
    /// The shadow colour, premultiplied U8.
    @usableFromInline package let color8: SIMD4<UInt8>
    /// The op's paint moved by the shadow's offset: what the caster's alpha is sampled from.
    @usableFromInline package let casterPaint: PaintPlan
}

/// One step of a lowered display list.
@usableFromInline package enum DrawStep: Sendable {
    /// A layer begins: later draws go to a new transparent target over `frame`.
    case beginLayer(frame: PixelRect)
    /// A draw into the current target.
    case draw(LoweredDraw)
    /// The current layer ends: it is popped, and the draw (its paint `placed` at the layer's
    /// frame) composites it into the target below.
    case endLayer(LoweredDraw)
    /// The backdrop under `bounds` (the shape's pixels within the target's frame, non-empty) is
    /// replaced by `replacement` (the blur's graph over the target, lowered for `bounds`:
    /// FilterPlan.backdrop); the draw (its paint `placed` at `bounds`) writes it.
    case blurBackdrop(replacement: FilterPlan, bounds: PixelRect, LoweredDraw)
    /// The current layer ends as a mask on the backdrop (BackdropMask.swift): it is popped, and
    /// the draw (alpha 255, `copy`, the clip of the layer's beginning, no shadow) writes the
    /// target's pixels through the mask's filter (`replacement`, lowered for the op's region)
    /// over its op's region (within the layer's frame and the clip's region; its paint is
    /// `placed` there) with coverage = the layer's alpha times the clip. Without an op (and
    /// then without a replacement) nothing is written.
    case maskBackdrop(replacement: FilterPlan?, LoweredDraw)
}

/// A display list's steps, lowered, in order: the walk (DrawSequence) taken once into an array
/// of `count` steps, each lowered when the renderer reaches it (`next()`) or looks ahead at it
/// (`peek(_:)`, for batching). One consumer; plans come from the planning pool (PlanAhead).
@usableFromInline package struct DrawStream {
    private let steps: [SequencedStep]
    private let plans: PlanAhead
    /// Steps lowered ahead of their turn by `peek`, in order from `position`.
    private var ahead: [DrawStep] = []
    /// The index of the step `next()` returns.
    @usableFromInline package private(set) var position = 0

    /// `form`: how shapes' coverage is planned (rasterized by the CPU renderer, edges for the GPU).
    @usableFromInline package init(_ list: DisplayList, form: CoverageForm) {
        steps = Array(DrawSequence(list))
        plans = PlanAhead(DrawPlanner(list, form: form), draws: DrawSequence.draws(in: steps))
    }

    /// How many steps the list lowers to.
    @usableFromInline package var count: Int { steps.count }

    /// The next step, lowered; nil after the last.
    @usableFromInline package mutating func next() -> DrawStep? {
        if !ahead.isEmpty {
            position += 1
            return ahead.removeFirst()
        }
        guard position < steps.count else { return nil }
        defer { position += 1 }
        return lower(steps[position])
    }

    /// The step `offset` places after the next one (0: the one `next()` returns), lowered now and
    /// kept until `next()` returns it; nil past the last.
    @usableFromInline package mutating func peek(_ offset: Int) -> DrawStep? {
        while ahead.count <= offset {
            let index = position + ahead.count
            guard index < steps.count else { return nil }
            ahead.append(lower(steps[index]))
        }
        return ahead[offset]
    }

    /// Step `step`, lowered. Steps are lowered in order: a draw takes the next plan.
    private func lower(_ step: SequencedStep) -> DrawStep {
        switch step {
        case .beginLayer(let frame):
            return .beginLayer(frame: frame)
        case .draw(let input, let source):
            guard let planned = plans.next() else { preconditionFailure("the planner ran out of draws") }
            switch source {
            case .fill(let color):
                return .draw(lower(planned, input.state) { _ in PaintPlan(color: color) })
            case .image(let image):
                return .draw(lower(planned, input.state) { PaintPlan(image: image, offset: $0) })
            case .gradient(let gradient):
                return .draw(lower(planned, input.state) { PaintPlan(gradient: gradient, offset: $0) })
            case .layer(let frame, let luminanceToAlpha):
                return .endLayer(lower(planned, input.state) {
                    PaintPlan(placedAt: frame, offset: $0, luminanceToAlpha: luminanceToAlpha)
                })
            case .backdrop(let blur):
                let bounds = blur.shape.bounds.map { PixelRect(enclosing: $0).intersection(input.frame) }
                guard let bounds, !bounds.isEmpty else {
                    return .draw(lower(planned, input.state) { _ in .solid(.zero) })
                }
                let replacement = FilterPlan.backdrop(blur.replacement(over:), frame: input.frame, bounds: bounds)
                return .blurBackdrop(replacement: replacement, bounds: bounds,
                                     lower(planned, input.state) { PaintPlan(placedAt: bounds, offset: $0) })
            case .backdropMask(let filter, let layer):
                let op = planned.op?.within(layer)
                let placed = op?.region ?? layer
                let draw = lower(PlannedDraw(clip: planned.clip, shadow: nil, op: op), input.state) {
                    PaintPlan(placedAt: placed, offset: $0)
                }
                let replacement = op.map { FilterPlan.backdrop(filter.replacement(over:), frame: input.frame, bounds: $0.region) }
                return .maskBackdrop(replacement: replacement, draw)
            }
        }
    }

    /// The draw with its paint resolved at the op's position and, for a shadow, at its offset.
    private func lower(_ planned: PlannedDraw, _ state: CompositeState, paint: (Point) -> PaintPlan) -> LoweredDraw {
        var shadow: LoweredShadow?
        if let deviceShadow = state.shadow, let plan = planned.shadow {
            shadow = LoweredShadow(plan: plan, color8: deviceShadow.color.premultiplied8, casterPaint: paint(plan.offset))
        }
        let coverage: ClipPlan = planned.clip ?? ClipPlan.empty
        let clip = state.clip.map { (index: $0, coverage: coverage) }
        return LoweredDraw(paint: paint(.zero), shadow: shadow, clip: clip, op: state.shadowOnly ? nil : planned.op,
                           alpha8: Fixed.unit8(state.alpha), mode: state.blendMode)
    }
}
