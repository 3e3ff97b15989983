// ViewNode: a UIKit-style view tree as a value (SCENE_FORMAT.md, "Views"),
// the one form both ways in share: a scene's `drawView` op and a snapshot
// image decode into it, and PenumbraUI's View objects build it. It says what
// each view is (geometry, layer style, content, subviews) and nothing about
// pixels: drawing it is lowering it onto a GraphicsContext's own calls
// (ViewNode+Drawing.swift), so no renderer learns what a view is.
//
// A view's content is one of: nothing of its own (a plain view), its `draw`
// (scene ops or a Swift closure, in bounds coordinates), an image view's
// image, a label's laid-out text, or a visual effect (blur or vibrancy).
// Inherited values (tint colour, layout direction) are resolved while the
// tree is drawn, as UIKit resolves them when a view moves to a window.

/// Where a view sits in its superview's bounds coordinates.
package enum ViewPlacement: Hashable, Sendable {
    /// `frame`: the rectangle (an identity transform).
    case frame(Rect)
    /// `center` and `transform`: the bounds' centre in the superview, the transform applied
    /// about it (anchor point 0.5, 0.5), as UIView.transform.
    case center(Point, transform: AffineTransform)
}

/// UIView.semanticContentAttribute, as the scene format names it.
public enum SemanticContentAttribute: String, Hashable, Sendable, CaseIterable {
    /// The superview's direction (the root's is the layout direction it is drawn with).
    case unspecified
    /// Always left to right.
    case forceLeftToRight
    /// Always right to left.
    case forceRightToLeft
}

extension SemanticContentAttribute {
    /// The direction of a view with this attribute whose superview lays out in `inherited`.
    package func direction(inheriting inherited: LayoutDirection) -> LayoutDirection {
        switch self {
        case .unspecified: return inherited
        case .forceLeftToRight: return .leftToRight
        case .forceRightToLeft: return .rightToLeft
        }
    }
}

/// UIUserInterfaceLayoutDirection.
public enum LayoutDirection: String, Hashable, Sendable, CaseIterable {
    /// Left to right (the default).
    case leftToRight
    /// Right to left: labels with natural alignment align right, flipping images mirror.
    case rightToLeft
}

/// The CALayer properties a view draws with.
package struct ViewLayerStyle: Hashable, Sendable {
    package var cornerRadius: Double = 0
    package var borderWidth: Double = 0
    package var borderColor: Color = .black
    package var shadowColor: Color = .black
    package var shadowOpacity: Double = 0
    package var shadowOffset = Size(width: 0, height: -3)
    package var shadowRadius: Double = 3
    /// In bounds coordinates; nil: the shadow is cast by the composited view's alpha.
    package var shadowPath: Path?
    package init() {}
}

/// A Swift `draw(_:in:)` body: compared by identity (two closures are never equal).
package final class ViewDrawProcedure: Hashable, Sendable {
    package let body: @Sendable (_ bounds: Rect, _ context: GraphicsContext) -> Void
    package init(_ body: @escaping @Sendable (_ bounds: Rect, _ context: GraphicsContext) -> Void) { self.body = body }
    package static func == (a: ViewDrawProcedure, b: ViewDrawProcedure) -> Bool { a === b }
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// What a view draws between its background and its subviews.
package enum ViewContent: Hashable, Sendable {
    /// Nothing of its own.
    case none
    /// Scene ops in bounds coordinates (a scene view's `draw`).
    case ops([SceneOp])
    /// A Swift drawing body (PenumbraUI's `View.draw(_:in:)`).
    case procedure(ViewDrawProcedure)
    /// A Swift drawing body's calls, recorded in bounds coordinates (a recorded view tree:
    /// `recordingProcedures()`).
    case recording(Recording)
    /// An image view's image.
    case image(ViewImage)
    /// A label's text, laid out in the bounds.
    case label(LabelText)
    /// UIVisualEffectView with a blur effect.
    case blur(VisualEffectStyle)
    /// UIVisualEffectView with a vibrancy effect: the subviews become its mask.
    case vibrancy(VisualEffectStyle)
}

/// An image view's image and how it is shown.
package struct ViewImage: Hashable, Sendable {
    /// The key in the scene's `images` (empty for an image given by the Swift API); animated
    /// images are looked up by it when a scene moves to another time.
    package var name: String
    package var image: Image
    package var contentMode: ContentMode
    /// `imageWithRenderingMode: .alwaysTemplate`: drawn in the view's tint colour.
    package var isTemplate: Bool
    /// `imageFlippedForRightToLeftLayoutDirection`: mirrored in a right-to-left view.
    package var flipsForRightToLeft: Bool
    package init(name: String = "", image: Image, contentMode: ContentMode = .scaleToFill, isTemplate: Bool = false,
                 flipsForRightToLeft: Bool = false) {
        self.name = name; self.image = image; self.contentMode = contentMode; self.isTemplate = isTemplate
        self.flipsForRightToLeft = flipsForRightToLeft
    }
}

/// A label's laid-out text and the box of its ink (computed once: culling and damage read it on
/// every render).
package struct LabelText: Hashable, Sendable {
    package let drawing: TextDrawing
    /// The control-point box of every glyph outline and colour glyph; nil for no text.
    package let inkBounds: Rect?

    package init(_ drawing: TextDrawing) {
        self.drawing = drawing
        var box: Rect?
        for piece in drawing.pieces {
            let r: Rect?
            switch piece {
            case .fill(let path, _): r = path.controlPointBounds
            case .image(_, let rect): r = rect
            }
            if let r { box = box.map { $0.union(r) } ?? r }
        }
        inkBounds = box
    }
}

/// UIBlurEffect.Style, as far as Penumbra draws it.
public enum VisualEffectStyle: String, Hashable, Sendable, CaseIterable {
    /// A light blur (tint white at 30%).
    case light
    /// A lighter blur (tint white at 60%).
    case extraLight
    /// A dark blur (tint #1C1C1C at 60%).
    case dark
}

/// One view and its subviews.
package struct ViewNode: Hashable, Sendable {
    /// Stable across renders of the same tree (PenumbraUI's damage tracking pairs views by it).
    package var id: Int = 0
    package var placement: ViewPlacement
    /// The view's own coordinate space: origin (0, 0) unless scrolled, size the frame's.
    package var bounds: Rect
    package var alpha: Double = 1
    package var isHidden = false
    package var backgroundColor: Color?
    package var clipsToBounds = false
    /// Nil: the superview's.
    package var tintColor: Color?
    package var semanticContentAttribute: SemanticContentAttribute = .unspecified
    package var layer = ViewLayerStyle()
    package var content: ViewContent = .none
    /// Bumped when a Swift drawing body's output changes (UIView.setNeedsDisplay): the body is
    /// the same closure, so this is how two snapshots of the tree tell its drawings apart.
    package var contentVersion = 0
    package var subviews: [ViewNode] = []

    package init(placement: ViewPlacement, bounds: Rect) { self.placement = placement; self.bounds = bounds }

    /// A view at `frame` whose bounds have the frame's size at the origin.
    package init(frame: Rect) {
        self.init(placement: .frame(frame), bounds: Rect(x: 0, y: 0, width: frame.width, height: frame.height))
    }

    /// The root's default tint colour (#007AFF, UIKit's system blue).
    package static let defaultTint = Color(red: 0, green: 122.0 / 255, blue: 1)

    /// Views in the tree, this one included.
    package var count: Int { subviews.reduce(1) { $0 + $1.count } }

    /// Levels of the tree: 1 for a view without subviews.
    package var depth: Int { 1 + (subviews.map(\.depth).max() ?? 0) }

    /// The superview-to-bounds transform: maps this view's bounds coordinates into its
    /// superview's bounds coordinates (the bounds origin included).
    package var transformToSuperview: AffineTransform {
        let toBounds = AffineTransform(translationX: -bounds.origin.x, y: -bounds.origin.y)
        switch placement {
        case .frame(let frame):
            return toBounds.concatenating(AffineTransform(translationX: frame.minX, y: frame.minY))
        case .center(let center, let transform):
            return toBounds
                .concatenating(AffineTransform(translationX: -bounds.width / 2, y: -bounds.height / 2))
                .concatenating(transform)
                .concatenating(AffineTransform(translationX: center.x, y: center.y))
        }
    }

    /// The view's frame in its superview (the bounding box of its transformed bounds).
    package var frame: Rect {
        switch placement {
        case .frame(let frame): return frame
        case .center: return transformToSuperview.apply(bounds)
        }
    }

    /// The bounds rounded by the corner radius.
    package var roundedBounds: Path { Path(roundedRect: bounds, cornerRadius: layer.cornerRadius) }

    /// True when the view draws a shadow (a visible shadow colour and no clipping).
    package var castsShadow: Bool { layer.shadowOpacity > 0 && !clipsToBounds }

    /// The shadow the view casts, in the context's terms: blur 2 x radius, the colour's alpha
    /// times the opacity.
    package var shadowColor: Color {
        var c = layer.shadowColor
        c.alpha *= min(1, max(0, layer.shadowOpacity))
        return c
    }
}

/// A `drawView` op: a tree and the layout direction of its root.
package struct DrawViewOp: Hashable, Sendable {
    package var root: ViewNode
    package var layoutDirection: LayoutDirection
    package init(root: ViewNode, layoutDirection: LayoutDirection = .leftToRight) {
        self.root = root; self.layoutDirection = layoutDirection
    }
}

extension ViewNode {
    /// The tree with every image view of an animated image showing its frame at `time`.
    package func showingFrames(at time: Double, of animations: [String: AnimatedImage]) -> ViewNode {
        var copy = self
        if case .image(var shown) = content, let animation = animations[shown.name] {
            shown.image = animation.frame(at: time)
            copy.content = .image(shown)
        }
        copy.subviews = subviews.map { $0.showingFrames(at: time, of: animations) }
        return copy
    }
}
