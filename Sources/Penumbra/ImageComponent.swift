// Image decorators, the seeds' design: anything drawable in a rectangle is an
// ImageComponent (Image is one); a decorator wraps a component, applies its
// effect to the context (a transform, a shadow), then forwards the draw. They
// chain to any depth: a shadow around a transform around an image, or the
// reverse. Each decorator saves and restores the graphics state around its
// draw, so its effect reaches only what it wraps.
//
// Decorators are lazy: they draw into whatever context they are given. The
// eager style, which returns new Images, is in Image+Filters.swift.

/// Anything that can draw itself into a rectangle of a graphics context.
public protocol ImageComponent {
    /// The natural size in points.
    var size: Size { get }
    /// Draws into `rect` (user space of `context`).
    func draw(in rect: Rect, context: GraphicsContext)
}

extension ImageComponent {
    /// Draws at the natural size with the top-left corner at `point`.
    public func draw(at point: Point, context: GraphicsContext) {
        draw(in: Rect(origin: point, size: size), context: context)
    }
}

extension Image: ImageComponent {
    /// Draws the image into `rect` (UIImage drawInRect:).
    public func draw(in rect: Rect, context: GraphicsContext) { context.draw(self, in: rect) }
}

/// The base of all decorators: wraps a component and applies an effect to the context before
/// forwarding the draw. Subclasses override `apply(to:in:)`.
open class ImageDecorator: ImageComponent {
    /// The wrapped component.
    public let component: ImageComponent

    /// Wraps `component`; the decorator's size is the component's.
    public init(_ component: ImageComponent) { self.component = component }

    open var size: Size { component.size }

    /// Changes the context (transform, shadow, ...) for the wrapped component's drawing.
    open func apply(to context: GraphicsContext, in rect: Rect) {}

    public func draw(in rect: Rect, context: GraphicsContext) {
        context.saveGState()
        apply(to: context, in: rect)
        component.draw(in: rect, context: context)
        context.restoreGState()
    }
}

/// Draws the wrapped component under an extra transform, concatenated to the CTM (CGContextConcatCTM).
public final class TransformFilter: ImageDecorator {
    /// The transform concatenated to the CTM; it acts in user space, about the origin (not the
    /// rectangle's centre), before the current transform.
    public let transform: AffineTransform
    /// Wraps `component` so that it draws under `transform`.
    public init(_ component: ImageComponent, transform: AffineTransform) {
        self.transform = transform
        super.init(component)
    }
    public override func apply(to context: GraphicsContext, in rect: Rect) { context.concatenate(transform) }
}

/// Draws the wrapped component with a drop shadow (CGContextSetShadowWithColor): offset and blur
/// in base-space points, unaffected by transforms, as in Quartz.
public final class ShadowFilter: ImageDecorator {
    /// The shadow's offset in base-space points (y down), unaffected by transforms.
    public let offset: Size
    /// The blur in base-space points: the Gaussian's standard deviation is `blur * scale / 2`
    /// pixels, `scale` being the canvas's pixels per point; 0 is a hard shadow.
    public let blur: Double
    /// The shadow's colour; its alpha sets the shadow's opacity.
    public let color: Color
    /// Wraps `component` so that it casts a shadow; `color` defaults to black at alpha 1/3, Quartz's.
    public init(_ component: ImageComponent, offset: Size, blur: Double, color: Color = .defaultShadow) {
        self.offset = offset; self.blur = blur; self.color = color
        super.init(component)
    }
    public override func apply(to context: GraphicsContext, in rect: Rect) {
        context.setShadow(offset: offset, blur: blur, color: color)
    }
}
