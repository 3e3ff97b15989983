// Image: the UIImage analogue. Pixels (premultiplied, shared copy-on-write)
// plus the presentation attributes that UIKit keeps on the image rather than
// in the context: scale, cap insets and resizing mode, rendering mode, a
// horizontal flip. Cropping is eager and exact: the crop rectangle is
// rounded out to whole pixels (CGRectIntegral), so cutting the pixels out is
// the same as sampling the sub-rectangle clamped to its edges.

/// A premultiplied RGBA8 image with a scale and UIKit's drawing attributes.
public struct Image: Hashable, Sendable {
    /// The image's pixels, premultiplied RGBA8, upright (any orientation already applied); with
    /// ``scale`` they set the image's size in points. An image a scene draws (an offscreen image,
    /// a filter chain's result, a view snapshot) is drawn when the scene is rendered, or here
    /// when its pixels are read first.
    public var bitmap: Bitmap {
        get { pixels.bitmap }
        set { pixels = .held(newValue) }
    }
    /// The pixels, held or made on first use (DeferredPixels.swift).
    package var pixels: ImagePixels
    /// Pixels per point (2 for an @2x image).
    public var scale: Double
    /// Nine-slice resizing, nil for a plain image (UIImage.resizableImage(withCapInsets:resizingMode:)).
    public var slicing: NineSlice?
    /// `.template` draws the tint with the image's alpha (UIImage.withRenderingMode(_:)).
    public var renderingMode: RenderingMode
    /// The tint used in template mode (black when nil, like a UIImageView with no tint).
    public var tint: Color?
    /// Mirrors the drawing within its rectangle (UIImage.withHorizontallyFlippedOrientation()).
    public var isFlippedHorizontally: Bool
    /// An image view mirrors it in a right-to-left layout
    /// (UIImage.imageFlippedForRightToLeftLayoutDirection); drawing it in a context does not.
    public var flipsForRightToLeftLayoutDirection = false
    /// The drawing this image shows instead of its pixels where a draw allows it (an SVG image;
    /// VectorImage.swift); the bitmap is its rasterization for draws that need pixels.
    package var vector: VectorContent? = nil

    /// Wraps a bitmap; `scale` is pixels per point.
    public init(bitmap: Bitmap, scale: Double = 1) {
        self.init(pixels: .held(bitmap), scale: scale)
    }

    /// An image of `pixels`, held or deferred.
    package init(pixels: ImagePixels, scale: Double) {
        self.pixels = pixels; self.scale = scale
        slicing = nil; renderingMode = .original; tint = nil; isFlippedHorizontally = false
    }

    /// Width in pixels, known before deferred pixels are made.
    package var pixelWidth: Int { pixels.width }
    /// Height in pixels, known before deferred pixels are made.
    package var pixelHeight: Int { pixels.height }

    /// The pixels, made now if they are deferred: the producer's failure is thrown.
    package func madePixels() throws -> Bitmap {
        switch pixels {
        case .held(let b): b
        case .deferred(let d): try d.make()
        }
    }

    /// Size in points: pixel size divided by the scale.
    public var size: Size { Size(width: Double(pixelWidth) / scale, height: Double(pixelHeight) / scale) }

    /// A resizable (nine-slice) copy with cap insets in points.
    public func resizable(capInsets: EdgeInsets, mode: ResizingMode = .tile) -> Image {
        var copy = self; copy.slicing = NineSlice(capInsets: capInsets, mode: mode); return copy
    }
    /// A copy drawn as `mode` says; `tint` is the template colour.
    public func withRenderingMode(_ mode: RenderingMode, tint: Color? = nil) -> Image {
        var copy = self; copy.renderingMode = mode; copy.tint = tint ?? self.tint; return copy
    }
    /// A copy that image views mirror in a right-to-left layout
    /// (UIImage.imageFlippedForRightToLeftLayoutDirection()).
    public func imageFlippedForRightToLeftLayoutDirection() -> Image {
        var copy = self; copy.flipsForRightToLeftLayoutDirection = true; return copy
    }
    /// A copy mirrored horizontally within its drawing rectangle.
    public func flippedHorizontally() -> Image {
        var copy = self; copy.isFlippedHorizontally.toggle(); return copy
    }

    /// The pixels inside `rect` (image points): scaled to pixels, rounded out to whole pixels and
    /// intersected with the image (CGImageCreateWithImageInRect). Nil when nothing remains. A
    /// deferred image's crop is deferred too: it is cut when the image is made.
    public func cropped(to rect: Rect) -> Image? {
        let px = Rect(x: rect.minX * scale, y: rect.minY * scale, width: rect.width * scale, height: rect.height * scale).integral
        guard let r = px.intersection(Rect(x: 0, y: 0, width: Double(pixelWidth), height: Double(pixelHeight))) else { return nil }
        let cut = PixelRect(x: Int(r.minX), y: Int(r.minY), width: Int(r.width), height: Int(r.height))
        var copy = self
        switch pixels {
        case .held(let bitmap):
            copy.pixels = .held(Self.cut(cut, from: bitmap))
        case .deferred(let whole):
            copy.pixels = .deferred(DeferredPixels(width: cut.width, height: cut.height, place: whole.place) { Self.cut(cut, from: try whole.make()) })
        }
        if let vector {
            let shown = vector.crop?.origin ?? Point(x: 0, y: 0)
            copy.vector?.crop = Rect(x: shown.x + r.minX / scale, y: shown.y + r.minY / scale, width: r.width / scale, height: r.height / scale)
        }
        return copy
    }

    private static func cut(_ r: PixelRect, from bitmap: Bitmap) -> Bitmap {
        var out = [UInt8](repeating: 0, count: r.width * r.height * 4)
        bitmap.pixels.withUnsafeBufferPointer { src in
            for row in 0..<r.height {
                let s = ((r.y + row) * bitmap.width + r.x) * 4
                for i in 0..<(r.width * 4) { out[row * r.width * 4 + i] = src[s + i] }
            }
        }
        return Bitmap(width: r.width, height: r.height, pixels: out)
    }
}
