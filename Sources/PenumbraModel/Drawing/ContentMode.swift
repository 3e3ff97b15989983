// ContentMode: UIView.ContentMode as placement. `drawImage` with a content
// mode is lowered, before anything reaches a renderer, to an ordinary draw
// in the placed rectangle; `clipsToBounds` to save, clip to the bounds,
// draw, restore. So neither renderer knows about content modes, and both
// draw them alike.

/// Where an image goes inside a rectangle, as `UIView.ContentMode`.
///
/// Raw values are the scene format's names. ``placedRect(imageSize:in:)`` computes the
/// rectangle; the modes other than the three scaling ones never scale the image, so it may
/// overflow the bounds (clip to the bounds to cut it off, as `clipsToBounds` does).
public enum ContentMode: String, Hashable, Sendable, CaseIterable {
    /// The image is stretched to fill the bounds exactly, ignoring its aspect ratio
    /// (`UIView.ContentMode.scaleToFill`); the default.
    case scaleToFill
    /// The image is scaled uniformly by the smaller of the two ratios, so all of it shows, and
    /// centred (`UIView.ContentMode.scaleAspectFit`).
    case scaleAspectFit
    /// The image is scaled uniformly by the larger of the two ratios, so it covers the bounds,
    /// and centred (`UIView.ContentMode.scaleAspectFill`).
    case scaleAspectFill
    /// The image at its natural size, centred in the bounds (`UIView.ContentMode.center`).
    case center
    /// The image at its natural size, centred horizontally at the top edge (`UIView.ContentMode.top`).
    case top
    /// The image at its natural size, centred horizontally at the bottom edge
    /// (`UIView.ContentMode.bottom`).
    case bottom
    /// The image at its natural size, centred vertically at the left edge (`UIView.ContentMode.left`).
    case left
    /// The image at its natural size, centred vertically at the right edge
    /// (`UIView.ContentMode.right`).
    case right
    /// The image at its natural size in the top-left corner (`UIView.ContentMode.topLeft`).
    case topLeft
    /// The image at its natural size in the top-right corner (`UIView.ContentMode.topRight`).
    case topRight
    /// The image at its natural size in the bottom-left corner (`UIView.ContentMode.bottomLeft`).
    case bottomLeft
    /// The image at its natural size in the bottom-right corner (`UIView.ContentMode.bottomRight`).
    case bottomRight

    /// The rectangle an image of `size` (points) occupies when placed in `bounds`: the bounds
    /// (scaleToFill), scaled uniformly by the smaller (aspect fit) or larger (aspect fill) of the
    /// two ratios and centred, or at its natural size aligned as the mode says. An aspect mode with
    /// an image of zero width or height gives an empty rectangle at the bounds' centre.
    public func placedRect(imageSize size: Size, in bounds: Rect) -> Rect {
        var w = size.width, h = size.height
        switch self {
        case .scaleToFill:
            return bounds
        case .scaleAspectFit, .scaleAspectFill:
            guard w > 0, h > 0 else { return Rect(x: bounds.midX, y: bounds.midY, width: 0, height: 0) }
            let rx = bounds.width / w, ry = bounds.height / h
            let s = self == .scaleAspectFit ? min(rx, ry) : max(rx, ry)
            w *= s; h *= s
        default:
            break
        }
        let x: Double, y: Double
        switch self {
        case .left, .topLeft, .bottomLeft: x = bounds.minX
        case .right, .topRight, .bottomRight: x = bounds.maxX - w
        default: x = bounds.minX + (bounds.width - w) / 2
        }
        switch self {
        case .top, .topLeft, .topRight: y = bounds.minY
        case .bottom, .bottomLeft, .bottomRight: y = bounds.maxY - h
        default: y = bounds.minY + (bounds.height - h) / 2
        }
        return Rect(x: x, y: y, width: w, height: h)
    }
}

/// How a drawn image is sampled, as `CGInterpolationQuality`; raw values are the scene format's
/// names.
///
/// Set it for later draws with ``GraphicsContext/setInterpolationQuality(_:)`` or for one draw
/// with the `interpolation` argument of ``GraphicsContext/draw(_:in:blendMode:alpha:interpolation:)``.
public enum ImageInterpolation: String, Hashable, Sendable, CaseIterable {
    /// Nearest neighbour: the texel under the sample point (the lower one on an exact boundary)
    /// (`CGInterpolationQuality.none`).
    case none
    /// Bilinear sampling of the full-size image, however small it is drawn
    /// (`CGInterpolationQuality.low`).
    case low
    /// Mipmapped: the same as `default` (`CGInterpolationQuality.high`).
    case high
    /// Mipmapped bilinear sampling; the default. With `s` the square root of the absolute
    /// determinant of the image-to-device transform, the image is sampled bilinearly in mip level
    /// `max(0, floor(log2(1 / s)))`, each level half the size of the one above; so an image drawn
    /// at more than half its pixel size is sampled plainly bilinearly (`CGInterpolationQuality.default`).
    case `default`
}
