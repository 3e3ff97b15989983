// View: UIKit's UIView for servers. A view tree is built and changed from one
// thread at a time and rendered from any: every view keeps its properties
// behind its own lock, so a render that reads a tree while nobody changes it
// sees each view whole, and views can be handed between threads.
//
// A view draws nothing by itself: rendering takes a value snapshot of the
// tree (Core's ViewNode) and lowers that onto a GraphicsContext's own calls
// (layers, clips, shadows, images, text, backdrop blur), the same lowering a
// scene's `drawView` op uses, so a tree built here and the same tree written
// as a scene give the same bytes. Geometry follows UIKit: `frame` is derived
// from `center`, `bounds` and `transform`; setting it with a non-identity
// transform is undefined in UIKit and here sets the bounds' size and the
// centre of the given rectangle.

import Synchronization
import Penumbra

/// A rectangular area that draws its background, its content and its subviews (UIView).
open class View: @unchecked Sendable {
    struct Geometry {
        var center = Point(x: 0, y: 0)
        var bounds = Rect.zero
        var transform = AffineTransform.identity

        /// Core's placement: a frame under the identity transform, else the centre and transform.
        var placement: ViewPlacement {
            guard transform.isIdentity else { return .center(center, transform: transform) }
            return .frame(Rect(x: center.x - bounds.width / 2, y: center.y - bounds.height / 2,
                               width: bounds.width, height: bounds.height))
        }
    }

    struct State {
        var geometry = Geometry()
        var alpha = 1.0
        var isHidden = false
        var clipsToBounds = false
        var backgroundColor: Color?
        var tintColor: Color?
        var semanticContentAttribute = SemanticContentAttribute.unspecified
        var subviews: [View] = []
        weak var superview: View?
        var drawingHandler: (@Sendable (Rect, GraphicsContext) -> Void)?
        var displayGeneration = 0
        /// The view's `draw(_:in:)` as Core calls it, made once (its identity is its equality).
        var procedure: ViewDrawProcedure?
    }

    let state = Mutex(State())
    /// The view's layer: corner radius, border and shadow (CALayer).
    public let layer = Layer()
    /// Pairs this view between two snapshots of its tree (damage tracking).
    let identity: Int
    private static let nextIdentity = Atomic<Int>(1)

    /// A view occupying `frame` in its superview's coordinates.
    public init(frame: Rect = .zero) {
        identity = View.nextIdentity.wrappingAdd(1, ordering: .relaxed).oldValue
        self.frame = frame
    }

    // MARK: Geometry

    /// The view's rectangle in its superview's bounds coordinates: derived from ``center``,
    /// ``bounds`` and ``transform``. Setting it keeps the transform and sets the bounds' size
    /// and the centre (UIKit leaves it undefined under a transform).
    public var frame: Rect {
        get {
            let g = state.withLock { $0.geometry }
            return ViewNode(placement: g.placement, bounds: g.bounds).frame
        }
        set {
            let r = newValue.standardized
            state.withLock {
                $0.geometry.bounds.size = r.size
                $0.geometry.center = Point(x: r.midX, y: r.midY)
            }
        }
    }

    /// The view's own coordinate space: origin (0, 0) unless scrolled, size the frame's.
    /// Subviews and drawing are placed in it: an origin (x, y) moves them by (-x, -y).
    public var bounds: Rect {
        get { state.withLock { $0.geometry.bounds } }
        set { state.withLock { $0.geometry.bounds = newValue.standardized } }
    }

    /// The centre of the bounds in the superview's bounds coordinates.
    public var center: Point {
        get { state.withLock { $0.geometry.center } }
        set { state.withLock { $0.geometry.center = newValue } }
    }

    /// Applied about the centre (anchor point 0.5, 0.5), as UIView.transform.
    public var transform: AffineTransform {
        get { state.withLock { $0.geometry.transform } }
        set { state.withLock { $0.geometry.transform = newValue } }
    }

    // MARK: Appearance

    /// 0...1: the view and its subviews are composited as one group with this opacity.
    public var alpha: Double {
        get { state.withLock { $0.alpha } }
        set { state.withLock { $0.alpha = min(1, max(0, newValue)) } }
    }

    /// A hidden view and its subviews draw nothing.
    public var isHidden: Bool {
        get { state.withLock { $0.isHidden } }
        set { state.withLock { $0.isHidden = newValue } }
    }

    /// Clips the view's content and subviews to its bounds rounded by the layer's corner radius
    /// (anti-aliased); a clipping view casts no shadow.
    public var clipsToBounds: Bool {
        get { state.withLock { $0.clipsToBounds } }
        set { state.withLock { $0.clipsToBounds = newValue } }
    }

    /// Fills the bounds (rounded by the layer's corner radius) before anything else; nil for none.
    public var backgroundColor: Color? {
        get { state.withLock { $0.backgroundColor } }
        set { state.withLock { $0.backgroundColor = newValue } }
    }

    /// The tint colour template images and custom drawing use: the one set here, else the
    /// superview's, else UIKit's system blue (#007AFF). Setting nil inherits again.
    public var tintColor: Color! {
        get {
            if let own = state.withLock({ $0.tintColor }) { return own }
            return superview?.tintColor ?? ViewNode.defaultTint
        }
        set { state.withLock { $0.tintColor = newValue } }
    }

    /// Whether the view's content follows the layout direction (UIView.semanticContentAttribute).
    public var semanticContentAttribute: SemanticContentAttribute {
        get { state.withLock { $0.semanticContentAttribute } }
        set { state.withLock { $0.semanticContentAttribute = newValue } }
    }

    /// The direction the view lays out in: forced by ``semanticContentAttribute``, else the
    /// superview's, else left to right (a root drawn with a direction takes that one).
    public var effectiveUserInterfaceLayoutDirection: LayoutDirection {
        semanticContentAttribute.direction(inheriting: superview?.effectiveUserInterfaceLayoutDirection ?? .leftToRight)
    }

    // MARK: Hierarchy

    /// The view this one is a subview of.
    public var superview: View? { state.withLock { $0.superview } }

    /// The subviews, back to front.
    public var subviews: [View] { state.withLock { $0.subviews } }

    /// Adds `view` in front of the other subviews, taking it from its superview first.
    public func addSubview(_ view: View) { insertSubview(view, at: Int.max) }

    /// Inserts `view` among the subviews at `index` (clamped), taking it from its superview first.
    /// Adding a view to itself or to one of its own subviews does nothing.
    public func insertSubview(_ view: View, at index: Int) {
        guard view !== self, !isDescendant(of: view) else { return }
        view.removeFromSuperview()
        state.withLock { s in
            s.subviews.insert(view, at: min(max(0, index), s.subviews.count))
        }
        view.state.withLock { $0.superview = self }
    }

    /// Takes the view out of its superview's subviews.
    public func removeFromSuperview() {
        guard let parent = superview else { return }
        parent.state.withLock { $0.subviews.removeAll { $0 === self } }
        state.withLock { $0.superview = nil }
    }

    /// Moves a subview in front of its siblings.
    public func bringSubviewToFront(_ view: View) {
        guard view.superview === self else { return }
        addSubview(view)
    }

    /// True when this view is `view` or lies anywhere below it.
    public func isDescendant(of view: View) -> Bool {
        var v: View? = self
        while let current = v {
            if current === view { return true }
            v = current.superview
        }
        return false
    }

    // MARK: Drawing

    /// Draws the view's content in its bounds coordinates, clipped to the bounds, in a fresh
    /// graphics state, between the background and the subviews (UIView.draw(_:)). The default
    /// calls ``drawingHandler``; override it in a subclass to draw.
    open func draw(_ rect: Rect, in context: GraphicsContext) {
        state.withLock { $0.drawingHandler }?(rect, context)
    }

    /// A drawing body for a plain view, instead of a subclass overriding ``draw(_:in:)``.
    public var drawingHandler: (@Sendable (Rect, GraphicsContext) -> Void)? {
        get { state.withLock { $0.drawingHandler } }
        set { state.withLock { $0.drawingHandler = newValue; $0.displayGeneration += 1 } }
    }

    /// Marks the view's drawing as changed: the next render draws it again (UIView.setNeedsDisplay).
    /// Changes of properties are found without it; what ``draw(_:in:)`` draws is not.
    public func setNeedsDisplay() { state.withLock { $0.displayGeneration += 1 } }

    // MARK: Sizing

    /// The size that fits the view's content within `size` (UIView.sizeThatFits): the bounds'
    /// size for a plain view.
    open func sizeThatFits(_ size: Size) -> Size { bounds.size }

    /// Resizes the bounds to ``sizeThatFits(_:)`` of the current size, keeping the frame's origin.
    public func sizeToFit() {
        let origin = frame.origin
        let size = sizeThatFits(bounds.size)
        state.withLock { $0.geometry.bounds.size = size }
        if transform.isIdentity { frame = Rect(origin: origin, size: size) }
    }

    /// The natural size of the content, `(-1, -1)` (UIView.noIntrinsicMetric) for a plain view.
    open var intrinsicContentSize: Size { Size(width: -1, height: -1) }

    // MARK: Snapshots of the tree (ViewNode)

    /// The content a subclass draws (image, text, effect); nil: ``draw(_:in:)`` when a subclass or
    /// a handler draws, else nothing. `direction` is this view's own.
    func content(direction: LayoutDirection) -> ViewContent? { nil }

    /// True when ``draw(_:in:)`` may draw: a subclass of View or a drawing handler.
    private var drawsContent: Bool { type(of: self) != View.self || drawingHandler != nil }

    private var procedure: ViewDrawProcedure {
        state.withLock { s in
            if let p = s.procedure { return p }
            let p = ViewDrawProcedure { [weak self] bounds, context in self?.draw(bounds, in: context) }
            s.procedure = p
            return p
        }
    }

    /// The tree from this view down as Core's value form; `direction` is the superview's.
    func node(inheriting inherited: LayoutDirection) -> ViewNode {
        let s = state.withLock { $0 }
        var node = ViewNode(placement: s.geometry.placement, bounds: s.geometry.bounds)
        node.id = identity
        node.alpha = s.alpha
        node.isHidden = s.isHidden
        node.backgroundColor = s.backgroundColor
        node.clipsToBounds = s.clipsToBounds
        node.tintColor = s.tintColor
        node.semanticContentAttribute = s.semanticContentAttribute
        node.layer = layer.style
        let direction = node.direction(inheriting: inherited)
        if let content = content(direction: direction) {
            node.content = content
        } else if drawsContent {
            node.content = .procedure(procedure)
            node.contentVersion = s.displayGeneration
        }
        node.subviews = s.subviews.map { $0.node(inheriting: direction) }
        return node
    }
}
