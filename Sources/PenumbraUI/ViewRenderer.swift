// ViewRenderer: renders a view tree again and again, redrawing only what
// changed. Each render snapshots the tree (Core's ViewNode) and compares it
// with the last one (ViewNode+Damage.swift): the damage is the old and new
// device extents of what changed, grown by the tree's reach (shadows and
// backdrop blurs that spread a change), and the pixels it repaints must be
// drawn from everything within that reach of them. So the renderer draws a
// window of the damage grown by the reach once more (the display list's
// viewport: every coordinate stays in the canvas's device space, so each
// pixel comes out as in a full render), with the views that cannot reach the
// window left out, and copies the damage into the previous frame. The bytes
// are those of a full render (tests compare them after random changes).
//
// A damage larger than half the canvas, a new size or scale, or the first
// render draws everything.

import Penumbra

/// Renders a view and its subviews into images, redrawing only the damaged region after changes.
public final class ViewRenderer {
    /// The view drawn, in its own bounds coordinates (its frame and transform are not applied).
    public let view: View
    /// Pixels per point.
    public let scale: Double
    /// The canvas colour under the view; nil is transparent.
    public let background: Color?
    /// The direction of the root (a view with `unspecified` semantic content takes it).
    public let layoutDirection: LayoutDirection
    private let renderer: Renderer
    private var previous: (root: ViewNode, bitmap: Bitmap)?

    /// What the last render drew, in device pixels of the image: nil when it changed nothing,
    /// the whole image when it drew everything.
    public private(set) var lastRepaint: (x: Int, y: Int, width: Int, height: Int)?

    /// A renderer of `view` at `scale` drawing with `renderer`.
    public init(view: View, scale: Double = 1, background: Color? = nil, layoutDirection: LayoutDirection = .leftToRight,
                renderer: Renderer) {
        self.view = view; self.scale = scale; self.background = background; self.layoutDirection = layoutDirection
        self.renderer = renderer
    }

    /// A renderer of `view` at `scale` drawing with a renderer of `backend` (the CPU by default).
    /// Throws `BackendUnavailable` when the backend cannot make a renderer.
    public convenience init(view: View, scale: Double = 1, background: Color? = nil,
                            layoutDirection: LayoutDirection = .leftToRight, backend: Backend = .cpu) throws {
        self.init(view: view, scale: scale, background: background, layoutDirection: layoutDirection,
                  renderer: try backend.makeRenderer().renderer)
    }

    /// Renders the view as it is now: the damaged region since the last render drawn into a copy
    /// of the last image, or everything on the first render. Throws the renderer's errors.
    public func render() throws -> Image {
        let root = view.rootNode(direction: layoutDirection)
        let canvas = GraphicsContext(size: root.bounds.size, scale: scale, background: background)
        let full = PixelRect(x: 0, y: 0, width: canvas.pixelWidth, height: canvas.pixelHeight)
        guard let oldRoot = previous?.root, previous?.bitmap.width == full.width, previous?.bitmap.height == full.height else {
            return try renderEverything(root, into: canvas)
        }
        let base = AffineTransform(scaleX: scale, y: scale)
        func unchanged() -> Image {
            let bitmap = previous!.bitmap
            previous = (root, bitmap)
            lastRepaint = nil
            return Image(bitmap: bitmap, scale: scale)
        }
        guard let damage = ViewNode.damage(from: oldRoot, to: root, ctm: base, scale: scale) else { return unchanged() }
        func grown(_ r: Rect, by d: Double) -> Rect { r.insetBy(dx: -d, dy: -d) }
        // A change spreads by the old tree's effects and the new one's: the larger reach holds both.
        let oldEffects = oldRoot.effects(ctm: base, scale: scale), newEffects = root.effects(ctm: base, scale: scale)
        func reach(into region: Rect) -> Double {
            max(ViewEffect.reach(of: oldEffects, into: region), ViewEffect.reach(of: newEffects, into: region))
        }
        let repaint = PixelRect(enclosing: grown(damage, by: reach(into: damage))).intersection(full)
        guard !repaint.isEmpty else { return unchanged() }
        let window = PixelRect(enclosing: grown(Rect(repaint), by: reach(into: Rect(repaint)))).intersection(full)
        guard window.area * 2 <= full.area else { return try renderEverything(root, into: canvas) }

        DrawViewOp(root: root, layoutDirection: layoutDirection).draw(into: canvas, visible: Rect(window))
        var list = canvas.displayList
        list.viewport = window
        let drawn = try renderer.render(list)
        // The last image's pixels, taken rather than copied when the caller no longer holds them.
        var pixels = previous!.bitmap.pixels
        previous = nil
        drawn.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                let rowBytes = repaint.width * 4
                for y in repaint.y..<repaint.maxY {
                    let from = ((y - window.y) * window.width + (repaint.x - window.x)) * 4
                    let to = (y * full.width + repaint.x) * 4
                    dst.baseAddress!.advanced(by: to).update(from: src.baseAddress!.advanced(by: from), count: rowBytes)
                }
            }
        }
        let bitmap = Bitmap(width: full.width, height: full.height, pixels: pixels)
        previous = (root, bitmap)
        lastRepaint = (repaint.x, repaint.y, repaint.width, repaint.height)
        return Image(bitmap: bitmap, scale: scale)
    }

    /// Forgets the last image: the next ``render()`` draws everything.
    public func invalidate() { previous = nil }

    private func renderEverything(_ root: ViewNode, into canvas: GraphicsContext) throws -> Image {
        DrawViewOp(root: root, layoutDirection: layoutDirection).draw(into: canvas)
        let bitmap = try renderer.render(canvas.displayList)
        previous = (root, bitmap)
        lastRepaint = (0, 0, bitmap.width, bitmap.height)
        return Image(bitmap: bitmap, scale: scale)
    }
}

extension View {
    /// The tree as drawn into its own bounds: the root at the origin, its transform left out.
    func rootNode(direction: LayoutDirection) -> ViewNode {
        var root = node(inheriting: direction)
        root.placement = .frame(Rect(x: 0, y: 0, width: root.bounds.width, height: root.bounds.height))
        return root
    }

    /// The view and its subviews rendered into an image of its bounds' size at `scale`
    /// (UIGraphicsImageRenderer over `drawHierarchy(in:)`; `snapshotViewAfterScreenUpdates:`).
    /// Throws `BackendUnavailable` or the renderer's error.
    public func snapshot(scale: Double = 1, background: Color? = nil, layoutDirection: LayoutDirection = .leftToRight,
                         backend: Backend = .cpu) throws -> Image {
        try ViewRenderer(view: self, scale: scale, background: background, layoutDirection: layoutDirection,
                         backend: backend).render()
    }

    /// The view and its subviews as they are now, kept as a resolution-independent recording of
    /// the bounds' size: a snapshot that stays drawing. Lowered at a scale it gives the pixels of
    /// ``snapshot(scale:background:layoutDirection:backend:)`` at that scale. Each `draw(_:in:)`
    /// runs once, now, into a recording context (in bounds coordinates; its CTM starts as the
    /// identity), so later changes to the views do not reach the recording.
    public func recording(layoutDirection: LayoutDirection = .leftToRight) -> Recording {
        let root = rootNode(direction: layoutDirection).recordingProcedures()
        return Recording(size: root.bounds.size) { DrawViewOp(root: root, layoutDirection: layoutDirection).draw(into: $0) }
    }

    /// Draws the view and its subviews into `rect` of `context`, its bounds scaled to fill it
    /// (`drawHierarchy(in:afterScreenUpdates:)`); the context's alpha, blend mode, shadow and
    /// clip apply to the whole tree.
    public func drawHierarchy(in rect: Rect, context: GraphicsContext, layoutDirection: LayoutDirection = .leftToRight) {
        let root = rootNode(direction: layoutDirection)
        guard root.bounds.width > 0, root.bounds.height > 0 else { return }
        context.saveGState()
        context.translateBy(x: rect.minX, y: rect.minY)
        context.scaleBy(x: rect.width / root.bounds.width, y: rect.height / root.bounds.height)
        DrawViewOp(root: root, layoutDirection: layoutDirection).draw(into: context)
        context.restoreGState()
    }

    /// An image view of the view's snapshot at the view's frame (`snapshotView(afterScreenUpdates:)`).
    public func snapshotView(scale: Double = 1, backend: Backend = .cpu) throws -> ImageView {
        let imageView = ImageView(image: try snapshot(scale: scale, layoutDirection: effectiveUserInterfaceLayoutDirection,
                                                      backend: backend))
        imageView.frame = frame
        return imageView
    }
}

extension Rect {
    init(_ r: PixelRect) { self.init(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height)) }

}
