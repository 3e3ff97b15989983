// FilterGraph: the Core Image analogue's one mechanism (SCENE_FORMAT.md,
// "Filters"). A filtered image is a tree of nodes: a source bitmap, a
// generator (constant colour, linear or radial gradient) or a filter applied
// to another node. Nothing here touches pixels; the graph answers two
// questions that planning needs before any pixel is computed:
//
// - extent: the rectangle of pixels a node defines (or infinite), from the
//   table's "extent" column. Outside it a node is transparent.
// - region of interest: which pixels of each input a requested output region
//   reads (a blur reads its region grown by the kernel's radius, a colour
//   filter the same pixels, clampToExtent the edge rows and columns).
//
// Lowering (FilterPlan.swift) walks the tree with these two answers, so a crop after a
// blur blurs only the pixels that are kept, and the result of a crop after a
// blur is exactly the blur cropped (each output pixel depends only on the
// pixels its filter reads). Coordinates are the input image's pixel grid,
// origin top-left, one unit per pixel; every extent is whole pixels
// (fractional rectangles are rounded out, CGRectIntegral).

/// The rectangle of pixels an image defines: finite whole pixels, or the whole plane.
package enum FilterExtent: Hashable, Sendable {
    case finite(PixelRect)
    case infinite

    /// The finite rectangle, nil when infinite.
    package var rect: PixelRect? {
        if case .finite(let r) = self { return r }
        return nil
    }

    /// The pixels of both (an infinite extent is the identity).
    package func intersection(_ o: FilterExtent) -> FilterExtent {
        switch (self, o) {
        case (.infinite, _): return o
        case (_, .infinite): return self
        case (.finite(let a), .finite(let b)): return .finite(a.intersection(b))
        }
    }

    /// The smallest extent holding both (an empty rectangle adds nothing).
    package func union(_ o: FilterExtent) -> FilterExtent {
        switch (self, o) {
        case (.finite(let a), .finite(let b)):
            if a.isEmpty { return o }
            if b.isEmpty { return self }
            let x0 = min(a.x, b.x), y0 = min(a.y, b.y)
            return .finite(PixelRect(x: x0, y: y0, width: max(a.maxX, b.maxX) - x0, height: max(a.maxY, b.maxY) - y0))
        default: return .infinite
        }
    }
}

/// A generated image of infinite extent (CIConstantColorGenerator, CILinearGradient,
/// CIRadialGradient); positions are in pixels.
public enum FilterGenerator: Hashable, Sendable {
    /// Every pixel the colour, everywhere (`CIConstantColorGenerator`).
    case constantColor(Color)
    /// The `linearGradient` op's meaning, in pixels.
    case linearGradient(start: Point, end: Point, stops: [GradientStop], extendStart: Bool, extendEnd: Bool)
    /// The `radialGradient` op's meaning (the two-circle canvas gradient), in pixels.
    case radialGradient(startCenter: Point, startRadius: Double, endCenter: Point, endRadius: Double,
                        stops: [GradientStop], extendStart: Bool, extendEnd: Bool)
}

/// One Core Image-style filter, with its parameters resolved (docs/scene-format.md lists them
/// with their defaults and how each changes the extent).
///
/// Filters work in the input image's pixel grid (origin top-left, one unit per pixel). The colour
/// filters (``isColorFilter``) work on un-premultiplied sRGB values in 0...1 (no linearisation),
/// change r, g, b and keep alpha unless said otherwise, clamp the result to 0...1 and keep the
/// extent; luma is `0.2126 r + 0.7152 g + 0.0722 b`. Each filter's output is stored as 8-bit
/// premultiplied pixels.
public enum ImageFilter: Hashable, Sendable {
    /// Gaussian of sigma `radius` pixels (the shadow's integer kernel and passes).
    case gaussianBlur(radius: Double)
    /// Saturation, brightness and contrast, in that order (`CIColorControls`):
    /// `c = luma + saturation (c - luma)`, then `c + brightness`, then `(c - 0.5) contrast + 0.5`.
    /// The identity is saturation 1, brightness 0, contrast 1.
    case colorControls(saturation: Double, brightness: Double, contrast: Double)
    /// Rows of 4 (r, g, b, a coefficients) for r, g, b and a, and a bias of 4.
    case colorMatrix(r: [Double], g: [Double], b: [Double], a: [Double], bias: [Double])
    /// Mixes each colour with its sepia version by `intensity` (0: unchanged, 1: full sepia)
    /// (`CISepiaTone`); sepia rows (0.393 0.769 0.189), (0.349 0.686 0.168), (0.272 0.534 0.131).
    case sepiaTone(intensity: Double)
    /// Mixes each colour with `luma(c) x color` by `intensity` (0: unchanged, 1: fully tinted)
    /// (`CIColorMonochrome`).
    case colorMonochrome(color: Color, intensity: Double)
    /// Multiplies each component by `2^ev`, like changing a camera's exposure by `ev` stops
    /// (`CIExposureAdjust`); 0 is the identity.
    case exposureAdjust(ev: Double)
    /// Raises each component to `power` (`CIGammaAdjust`); 1 is the identity, and the power must be
    /// above 0.
    case gammaAdjust(power: Double)
    /// Rotation about the grey axis; a positive angle (radians) turns red towards green.
    case hueAdjust(angle: Double)
    /// Replaces each component `c` by `1 - c`, alpha kept (`CIColorInvert`).
    case colorInvert
    /// nil `center` / `radius`: the input extent's centre / half its shorter side.
    case vignette(center: Point?, radius: Double?, intensity: Double, falloff: Double)
    /// Sharpens: `c + intensity (c - gaussianBlur(c, radius))`, `radius` a sigma in pixels, on
    /// premultiplied values (the blur stored as 8 bits first), alpha kept, colour clamped to
    /// 0...alpha (`CIUnsharpMask`). The extent is unchanged.
    case unsharpMask(radius: Double, intensity: Double)
    /// mix(background, input, luma of the mask); a nil background is transparent.
    case blendWithMask(mask: FilterNode, background: FilterNode?)
    /// The input blended over the background with `mode`, coverage 1.
    case composite(mode: BlendMode, background: FilterNode)
    /// The input resampled as `drawImage` draws it under `matrix`.
    case affineTransform(AffineTransform)
    /// Transparent outside `rect` (rounded out to whole pixels).
    case crop(Rect)
    /// Edge pixels repeated outwards: an infinite extent.
    case clampToExtent

    /// The largest blur radius (sigma, pixels) a filter accepts: the range of a shadow's `blur`.
    public static let maxBlurRadius = 256.0

    /// True for the per-pixel colour filters (`colorControls` to `vignette`).
    public var isColorFilter: Bool {
        switch self {
        case .colorControls, .colorMatrix, .sepiaTone, .colorMonochrome, .exposureAdjust, .gammaAdjust,
             .hueAdjust, .colorInvert, .vignette: return true
        default: return false
        }
    }
}

/// A node of a filter graph: an image, lazily described.
public indirect enum FilterNode: Hashable, Sendable {
    /// Premultiplied pixels with extent [0, 0, width, height].
    case bitmap(Bitmap)
    /// A generator, infinite.
    case generator(FilterGenerator)
    /// `filter` applied to `input`.
    case filtered(FilterNode, ImageFilter)

    /// The rectangle of pixels this node defines (SCENE_FORMAT.md's extent column).
    package var extent: FilterExtent {
        switch self {
        case .bitmap(let b): return .finite(PixelRect(x: 0, y: 0, width: b.width, height: b.height))
        case .generator: return .infinite
        case .filtered(let input, let filter):
            let e = input.extent
            switch filter {
            case .gaussianBlur(let radius):
                guard case .finite(let r) = e, !r.isEmpty else { return e }
                return .finite(r.grown(by: BlurReach.radius(forSigma: radius)))
            case .blendWithMask(_, let background):
                return background.map { e.union($0.extent) } ?? e
            case .composite(_, let background): return e.union(background.extent)
            case .affineTransform(let m):
                guard case .finite(let r) = e else { return .infinite }
                guard m.isInvertible, !r.isEmpty else { return .finite(PixelRect(x: 0, y: 0, width: 0, height: 0)) }
                let bounds = m.apply(Rect(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height)))
                return .finite(PixelRect(enclosing: bounds))
            case .crop(let rect): return e.intersection(.finite(PixelRect(enclosing: rect)))
            case .clampToExtent: return .infinite
            default: return e  // colour filters, unsharpMask
            }
        }
    }

    /// The node cropped to `rect` (`cropped(to:)`, the `crop` filter).
    public func cropped(to rect: Rect) -> FilterNode { .filtered(self, .crop(rect)) }
}
