// ContentMode: UIView.ContentMode as placement. `drawImage` with a content
// mode is lowered, before anything reaches a renderer, to an ordinary draw
// in the placed rectangle; `clipsToBounds` to save, clip to the bounds,
// draw, restore. So neither renderer knows about content modes, and both
// draw them alike.

/// Where an image goes inside a rectangle (UIView.ContentMode).
public enum ContentMode: String, Hashable, Sendable, CaseIterable {
    case scaleToFill, scaleAspectFit, scaleAspectFill
    case center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight

    /// The rectangle an image of `size` (points) occupies when placed in `bounds`: the bounds
    /// (scaleToFill), scaled uniformly by the smaller (aspect fit) or larger (aspect fill) of the
    /// two ratios and centred, or at its natural size aligned as the mode says.
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

/// drawImage's `interpolation` (CGInterpolationQuality): `none` samples the texel under the
/// sample point, `low` bilinearly, `high` and `default` bilinearly in the mip level the scale
/// calls for (ImageSamplingPlan+Mipmaps.swift).
public enum ImageInterpolation: String, Hashable, Sendable, CaseIterable {
    case none, low, high, `default`
}
