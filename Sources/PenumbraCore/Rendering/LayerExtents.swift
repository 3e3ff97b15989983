// LayerExtents: where a transparency layer's content can be, so that the
// layer is no bigger than what it holds.
//
// A layer starts transparent, and a transparent source composited over a
// transparent destination stays transparent in every blend mode (each
// mode's result is 0 for a source and a destination of 0; a layer read as a
// luminance mask turns (0, 0, 0, 0) into 0 as well). So after its
// draws, a layer's pixels are transparent outside the union of what those
// draws can write: an op's coverage bounds and its shadow's reach, within
// its clip (a gradient without a clip is unbounded), a nested layer's own
// content (and its shadow). Pixels outside the layer's frame are read as
// transparent too (placed paint, shadow casters, backdrop blurs), so a
// frame cut down to that union gives the same bytes as the whole one.
//
// The frame a layer would have is the target's frame grown by its shadow's
// margin (content outside the canvas may still cast its shadow in), up to
// 2^20 pixels a side. Cut to its content, a layer whose shadow is offset a
// million pixels and whose content is a small rectangle is that rectangle,
// not a terabyte. A layer ended as a backdrop mask is composited with no
// shadow (BackdropMask.swift), so its frame has no shadow margin. Both
// renderers read layer frames from DrawSequence, so they agree by construction.

import PenumbraModel

/// Where something can write: nothing, a rectangle of pixels, or anywhere.
@usableFromInline package enum PixelExtent: Hashable, Sendable {
    case empty, rect(PixelRect), unbounded

    /// The extent of a real rectangle (rounded out); nil is empty.
    init(_ r: Rect?) {
        guard let r else { self = .empty; return }
        let p = PixelRect(enclosing: r)
        self = p.isEmpty ? .empty : .rect(p)
    }

    func union(_ o: PixelExtent) -> PixelExtent {
        switch (self, o) {
        case (.empty, _): return o
        case (_, .empty): return self
        case (.unbounded, _), (_, .unbounded): return .unbounded
        case (.rect(let a), .rect(let b)):
            let x0 = min(a.x, b.x), y0 = min(a.y, b.y)
            return .rect(PixelRect(x: x0, y: y0, width: max(a.maxX, b.maxX) - x0, height: max(a.maxY, b.maxY) - y0))
        }
    }

    func intersection(_ o: PixelExtent) -> PixelExtent {
        switch (self, o) {
        case (.empty, _), (_, .empty): return .empty
        case (.unbounded, _): return o
        case (_, .unbounded): return self
        case (.rect(let a), .rect(let b)):
            let r = a.intersection(b)
            return r.isEmpty ? .empty : .rect(r)
        }
    }

    func grown(by n: Int) -> PixelExtent {
        if case .rect(let r) = self { return .rect(r.grown(by: n)) }
        return self
    }

    func offset(by d: Point) -> PixelExtent {
        guard case .rect(let r) = self else { return self }
        return PixelExtent(Rect(x: Double(r.x) + d.x, y: Double(r.y) + d.y, width: Double(r.width), height: Double(r.height)))
    }
}

/// The content extent of every layer of a display list, by the index of its `beginLayer`.
@usableFromInline package struct LayerExtents: Sendable {
    private var content: [Int: PixelExtent] = [:]
    /// The `beginLayer` indices of the layers ended by `endLayerMaskingBackdrop`.
    private var masking: Set<Int> = []
    /// Each clip node's extent (empty when the list has no layer: only layers' frames read it).
    package private(set) var clips: [PixelExtent] = []

    /// True when the list has no layer.
    package var isEmpty: Bool { content.isEmpty }

    /// Walks the list once; empty when it has no layer.
    @usableFromInline package init(_ list: DisplayList) {
        guard list.commands.contains(where: { if case .beginLayer = $0 { return true } else { return false } }) else { return }
        clips = LayerExtents.clipExtents(list.clips)
        let clipExtents = clips
        var open: [(command: Int, state: CompositeState, extent: PixelExtent)] = []
        func add(_ extent: PixelExtent, _ state: CompositeState) {
            guard !open.isEmpty else { return }
            open[open.count - 1].extent = open[open.count - 1].extent.union(LayerExtents.drawn(extent, state, clipExtents))
        }
        // A layer ended as a backdrop mask writes (the filtered backdrop) where its alpha can be
        // non-zero, through its beginning's clip only.
        func close(maskingBackdrop: Bool = false) {
            let layer = open.removeLast()
            content[layer.command] = layer.extent
            if maskingBackdrop { masking.insert(layer.command) }
            add(layer.extent, maskingBackdrop ? layer.state.maskingBackdrop : layer.state)
        }
        for (index, command) in list.commands.enumerated() {
            switch command {
            case .fill(let shape, _, let state): add(PixelExtent(shape.bounds), state)
            case .image(let image, let state): add(PixelExtent(DrawPlanner.coverageShape(of: image).bounds), state)
            case .gradient(_, let state): add(state.clip.map { clipExtents[$0] } ?? .unbounded, state)
            case .blurBackdrop(let blur, let state): add(PixelExtent(blur.shape.bounds), state)
            case .beginLayer(let state): open.append((index, state, .empty))
            case .endLayer, .endLayerConvertingLuminanceToAlpha: if !open.isEmpty { close() }
            case .endLayerMaskingBackdrop: if !open.isEmpty { close(maskingBackdrop: true) }
            }
        }
        while !open.isEmpty { close() }
    }

    /// What the layer begun at `command` can hold (unbounded when unknown).
    package func content(ofLayerAt command: Int) -> PixelExtent { content[command] ?? .unbounded }

    /// Whether the layer begun at `command` is ended as a backdrop mask (`endLayerMaskingBackdrop`).
    package func masksBackdrop(layerAt command: Int) -> Bool { masking.contains(command) }

    /// Where a draw of `extent` under `state` writes: its extent and its shadow's reach, within its clip.
    static func drawn(_ extent: PixelExtent, _ state: CompositeState, _ clips: [PixelExtent]) -> PixelExtent {
        var written = extent
        if let shadow = state.shadow {
            written = written.union(extent.offset(by: shadow.offset).grown(by: BlurReach.radius(forSigma: shadow.sigma) + 1))
        }
        if let clip = state.clip { written = written.intersection(clips[clip]) }
        return written
    }

    /// Each clip node's extent: its shape's bounds within its parent's.
    static func clipExtents(_ clips: [ClipNode]) -> [PixelExtent] {
        var extents: [PixelExtent] = []
        extents.reserveCapacity(clips.count)
        for node in clips {
            var e = PixelExtent(node.shape.bounds)
            if let parent = node.parent, parent < extents.count { e = e.intersection(extents[parent]) }
            extents.append(e)
        }
        return extents
    }

    /// The frame of a layer opened with `state` over `frame` whose content is `content`: the part
    /// of it that can reach the target (through the clip, and through the shadow from up to its
    /// margin away), cut to the content; at least one pixel, so every layer has a surface.
    package static func frame(for state: CompositeState, over frame: PixelRect, content: PixelExtent,
                              clips: [PixelExtent]) -> PixelRect {
        var seen = PixelExtent.rect(frame)
        if let clip = state.clip { seen = seen.intersection(clips[clip]) }
        var reach = seen
        if let shadow = state.shadow {
            let back = Point(x: -shadow.offset.x, y: -shadow.offset.y)
            reach = seen.union(seen.offset(by: back).grown(by: BlurReach.radius(forSigma: shadow.sigma) + 1))
        }
        let grown = frame.grown(by: ShadowPlan.margin(for: state.shadow))
        if case .rect(let r) = reach.intersection(content.grown(by: 1)).intersection(.rect(grown)) { return r }
        return PixelRect(x: frame.x, y: frame.y, width: 1, height: 1)
    }
}
