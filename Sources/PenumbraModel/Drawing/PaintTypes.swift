// Paint commands beyond solid colour: images and gradients, as the display
// list carries them to the renderers (user-space geometry plus the device
// transform; renderers map pixel centres back through its inverse).

/// How the middle regions of a nine-slice image fill their space, as `UIImage.ResizingMode`.
public enum ResizingMode: String, Sendable, Hashable, CaseIterable {
    /// The middle regions repeat at the image's natural size, each tiling from its region's
    /// top-left corner (`UIImage.ResizingMode.tile`); the default, as in UIKit.
    case tile
    /// The middle regions are scaled to fill their space (`UIImage.ResizingMode.stretch`).
    case stretch
}

/// Whether an image draws its own colours or the tint with its alpha, as `UIImage.RenderingMode`.
public enum RenderingMode: String, Sendable, Hashable, CaseIterable {
    /// The image draws its own colours (`UIImage.RenderingMode.alwaysOriginal`); the default.
    case original
    /// The image draws its tint colour (black when none is set; the tint's alpha counts) where the
    /// image has alpha, ignoring its colours (`UIImage.RenderingMode.alwaysTemplate`).
    case template
}

/// Cap insets (image points) and resizing mode of a resizable image.
public struct NineSlice: Hashable, Sendable {
    /// The fixed corners and edges, in image points: the parts of the image outside these insets
    /// keep their size, the middle is tiled or stretched.
    public var capInsets: EdgeInsets
    /// How the middle regions fill their space.
    public var mode: ResizingMode
    /// Creates a nine-slice description; `mode` defaults to ``ResizingMode/tile``, as in
    /// `UIImage.resizableImage(withCapInsets:resizingMode:)`.
    public init(capInsets: EdgeInsets, mode: ResizingMode = .tile) { self.capInsets = capInsets; self.mode = mode }
}

/// An image drawn into a destination rectangle.
@usableFromInline package struct ImageDraw: Hashable, Sendable {
    /// The (already cropped) premultiplied pixels, held or deferred: a renderer that keeps an
    /// image on its device draws it from there without making them (DeferredPixels.swift).
    @usableFromInline package var pixels: ImagePixels
    /// Image pixels per image point.
    @usableFromInline package var scale: Double
    /// User space to device pixels.
    @usableFromInline package var transform: AffineTransform
    /// Destination rectangle in user space.
    @usableFromInline package var rect: Rect
    /// Nine-slice resizing, nil for a plain image.
    @usableFromInline package var slicing: NineSlice?
    /// Template tint: draws this colour with the image's alpha; nil draws the image's colours.
    @usableFromInline package var tint: Color?
    /// Mirror the finished drawing horizontally within `rect`.
    @usableFromInline package var flippedHorizontally: Bool
    /// How texels are sampled: nearest, bilinear, or mipmapped (`high` and `default`).
    @usableFromInline package var interpolation: ImageInterpolation
    @usableFromInline package init(pixels: ImagePixels, scale: Double, transform: AffineTransform, rect: Rect,
                slicing: NineSlice? = nil, tint: Color? = nil, flippedHorizontally: Bool = false,
                interpolation: ImageInterpolation = .default) {
        self.pixels = pixels; self.scale = scale; self.transform = transform; self.rect = rect
        self.slicing = slicing; self.tint = tint; self.flippedHorizontally = flippedHorizontally
        self.interpolation = interpolation
    }
    @usableFromInline package init(bitmap: Bitmap, scale: Double, transform: AffineTransform, rect: Rect,
                slicing: NineSlice? = nil, tint: Color? = nil, flippedHorizontally: Bool = false,
                interpolation: ImageInterpolation = .default) {
        self.init(pixels: .held(bitmap), scale: scale, transform: transform, rect: rect, slicing: slicing, tint: tint,
                  flippedHorizontally: flippedHorizontally, interpolation: interpolation)
    }

    /// The pixels, made now if they are deferred.
    @usableFromInline package var bitmap: Bitmap { pixels.bitmap }
}

/// One colour stop of a gradient.
public struct GradientStop: Hashable, Sendable {
    /// Position along the gradient in 0...1; a gradient's stops must be in non-decreasing order,
    /// and an equal pair is a hard step.
    public var offset: Double
    /// The colour at this stop; colours are interpolated premultiplied between stops.
    public var color: Color
    /// Creates a stop at `offset` (0...1) with `color`.
    public init(offset: Double, color: Color) { self.offset = offset; self.color = color }
}

/// A gradient that fills the current clip.
@usableFromInline package struct GradientDraw: Hashable, Sendable {
    @usableFromInline package enum Kind: Hashable, Sendable {
        /// Parameter 0 at `start`, 1 at `end`, constant along perpendiculars.
        case linear(start: Point, end: Point)
        /// The canvas two-circle gradient: the largest t whose circle (lerped centre and radius) holds the point.
        case radial(startCenter: Point, startRadius: Double, endCenter: Point, endRadius: Double)
    }
    @usableFromInline package var kind: Kind
    @usableFromInline package var stops: [GradientStop]
    /// Paint the first colour before t = 0.
    @usableFromInline package var extendStart: Bool
    /// Paint the last colour after t = 1.
    @usableFromInline package var extendEnd: Bool
    /// User space to device pixels.
    @usableFromInline package var transform: AffineTransform
    @usableFromInline package init(kind: Kind, stops: [GradientStop], extendStart: Bool = true, extendEnd: Bool = true,
                transform: AffineTransform) {
        self.kind = kind; self.stops = stops; self.extendStart = extendStart; self.extendEnd = extendEnd
        self.transform = transform
    }
}
