// The vocabulary of the graphics state: line style, blend modes, shadows.
// Names and defaults are Quartz's (CGLineCap, CGLineJoin, CGBlendMode).

/// How the ends of open subpaths and dashes are drawn (CGLineCap).
public enum LineCap: String, Sendable, Hashable, CaseIterable { case butt, round, square }

/// How corners between segments are drawn (CGLineJoin).
public enum LineJoin: String, Sendable, Hashable, CaseIterable { case miter, round, bevel }

/// The stroke parameters of the graphics state.
public struct StrokeStyle: Hashable, Sendable {
    /// Line width in user space; 0 strokes nothing.
    public var width: Double = 1
    public var cap: LineCap = .butt
    public var join: LineJoin = .miter
    /// Miter joins longer than `miterLimit * width` become bevels.
    public var miterLimit: Double = 10
    /// Distance into the dash pattern at each subpath's start.
    public var dashPhase: Double = 0
    /// Alternating on and off lengths; empty means solid.
    public var dashLengths: [Double] = []
    public init(width: Double = 1, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 10,
                dashPhase: Double = 0, dashLengths: [Double] = []) {
        self.width = width; self.cap = cap; self.join = join; self.miterLimit = miterLimit
        self.dashPhase = dashPhase; self.dashLengths = dashLengths
    }
}

/// The blend modes of CGBlendMode; raw values are the scene format's names.
public enum BlendMode: String, Sendable, Hashable, CaseIterable {
    case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight
    case difference, exclusion, hue, saturation, color, luminosity
    case clear, copy, sourceIn, sourceOut, sourceAtop, destinationOver, destinationIn, destinationOut
    case destinationAtop, xor, plusDarker, plusLighter
}

/// A drop shadow as the graphics state holds it (CGContextSetShadowWithColor): offset and blur
/// in base-space points, unaffected by the current transform.
public struct Shadow: Hashable, Sendable {
    /// Offset in points of base space (y down).
    public var offset: Size
    /// Blur in points: the Gaussian's sigma is `blur * scale / 2` pixels.
    public var blur: Double
    public var color: Color
    public init(offset: Size, blur: Double, color: Color = .defaultShadow) {
        self.offset = offset; self.blur = blur; self.color = color
    }
    /// True when the shadow would draw nothing (clear colour).
    public var isVisible: Bool { color.alpha > 0 }
}
