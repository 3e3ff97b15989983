// The vocabulary of the graphics state: line style, blend modes, shadows.
// Names and defaults are Quartz's (CGLineCap, CGLineJoin, CGBlendMode).

/// How the ends of open subpaths and dashes are drawn, as `CGLineCap`.
///
/// Raw values are the scene format's names. A zero-length subpath or dash draws a dot
/// with ``round`` and ``square`` caps and nothing with ``butt``.
public enum LineCap: String, Sendable, Hashable, CaseIterable {
    /// The stroke ends exactly at the endpoint, squared off (`CGLineCap.butt`); the default.
    case butt
    /// The stroke ends in a semicircle of diameter the line width, centred on the endpoint
    /// (`CGLineCap.round`).
    case round
    /// The stroke is extended past the endpoint by half the line width and squared off
    /// (`CGLineCap.square`).
    case square
}

/// How corners between segments are drawn, as `CGLineJoin`.
///
/// Raw values are the scene format's names.
public enum LineJoin: String, Sendable, Hashable, CaseIterable {
    /// The outer edges are extended until they meet in a sharp point, or beveled when the
    /// miter is longer than ``StrokeStyle/miterLimit`` times the line width
    /// (`CGLineJoin.miter`); the default.
    case miter
    /// The corner is rounded with a circular arc of diameter the line width (`CGLineJoin.round`).
    case round
    /// The corner is cut off by a straight line across the outer edges (`CGLineJoin.bevel`).
    case bevel
}

/// The stroke parameters of the graphics state.
public struct StrokeStyle: Hashable, Sendable {
    /// Line width in user space; 0 strokes nothing.
    public var width: Double = 1
    /// How open subpaths and dashes end; ``LineCap/butt`` by default.
    public var cap: LineCap = .butt
    /// How segments meet at corners; ``LineJoin/miter`` by default.
    public var join: LineJoin = .miter
    /// Miter joins longer than `miterLimit * width` become bevels.
    public var miterLimit: Double = 10
    /// Distance into the dash pattern at each subpath's start.
    public var dashPhase: Double = 0
    /// Alternating on and off lengths; empty means solid.
    public var dashLengths: [Double] = []
    /// Creates a stroke style; the defaults are Quartz's: width 1 (user-space units), butt caps,
    /// miter joins, miter limit 10, no dash.
    public init(width: Double = 1, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 10,
                dashPhase: Double = 0, dashLengths: [Double] = []) {
        self.width = width; self.cap = cap; self.join = join; self.miterLimit = miterLimit
        self.dashPhase = dashPhase; self.dashLengths = dashLengths
    }
}

/// The blend modes of `CGBlendMode`; raw values are the scene format's names.
///
/// The separable and non-separable modes (``normal`` to ``luminosity``) follow the W3C
/// Compositing and Blending Level 1 formulas, the others Porter-Duff, on premultiplied sRGB
/// values (no linearisation). Whatever the mode, a drawing changes only the pixels it covers:
/// `result = destination + coverage * (blend(source, destination) - destination)`, so even
/// ``clear`` and ``copy`` leave pixels outside the drawn shape (and its shadow) as they were.
public enum BlendMode: String, Sendable, Hashable, CaseIterable {
    /// Source over destination (`CGBlendMode.normal`); the default.
    case normal
    /// Multiplies source and destination colours: the result is never lighter
    /// (`CGBlendMode.multiply`).
    case multiply
    /// Multiplies the complements of source and destination: the result is never darker
    /// (`CGBlendMode.screen`).
    case screen
    /// Multiplies or screens depending on the destination colour (`CGBlendMode.overlay`).
    case overlay
    /// Keeps the darker of source and destination, per channel (`CGBlendMode.darken`).
    case darken
    /// Keeps the lighter of source and destination, per channel (`CGBlendMode.lighten`).
    case lighten
    /// Brightens the destination to reflect the source (`CGBlendMode.colorDodge`).
    case colorDodge
    /// Darkens the destination to reflect the source (`CGBlendMode.colorBurn`).
    case colorBurn
    /// Darkens or lightens depending on the source colour, softly (`CGBlendMode.softLight`).
    case softLight
    /// Multiplies or screens depending on the source colour (`CGBlendMode.hardLight`).
    case hardLight
    /// The absolute difference of source and destination, per channel (`CGBlendMode.difference`).
    case difference
    /// Like ``difference`` with lower contrast (`CGBlendMode.exclusion`).
    case exclusion
    /// The source's hue with the destination's saturation and luminosity (`CGBlendMode.hue`).
    case hue
    /// The source's saturation with the destination's hue and luminosity
    /// (`CGBlendMode.saturation`).
    case saturation
    /// The source's hue and saturation with the destination's luminosity (`CGBlendMode.color`).
    case color
    /// The source's luminosity with the destination's hue and saturation
    /// (`CGBlendMode.luminosity`).
    case luminosity
    /// Clears the covered pixels to transparent (`CGBlendMode.clear`).
    case clear
    /// Replaces the covered pixels with the source (`CGBlendMode.copy`).
    case copy
    /// The source where the destination is opaque: source x destination alpha
    /// (`CGBlendMode.sourceIn`).
    case sourceIn
    /// The source where the destination is transparent: source x (1 - destination alpha)
    /// (`CGBlendMode.sourceOut`).
    case sourceOut
    /// The source over the destination, only where the destination is
    /// (`CGBlendMode.sourceAtop`).
    case sourceAtop
    /// The destination over the source: the source shows only through transparent parts
    /// (`CGBlendMode.destinationOver`).
    case destinationOver
    /// The destination where the source is opaque: destination x source alpha
    /// (`CGBlendMode.destinationIn`).
    case destinationIn
    /// The destination where the source is transparent: destination x (1 - source alpha)
    /// (`CGBlendMode.destinationOut`).
    case destinationOut
    /// The destination over the source, only where the source is
    /// (`CGBlendMode.destinationAtop`).
    case destinationAtop
    /// Source and destination where either is, but not where both are (`CGBlendMode.xor`).
    case xor
    /// Quartz's darkening addition (`CGBlendMode.plusDarker`), on premultiplied values:
    /// `αo = min(1, αs + αb)`, `co = max(0, αo - ((αs - cs) + (αb - cb)))`.
    case plusDarker
    /// Adds source and destination, clamped (`CGBlendMode.plusLighter`), on premultiplied
    /// values: `co = min(1, cs + cb)`, `αo = min(1, αs + αb)`.
    case plusLighter
}

/// A drop shadow as the graphics state holds it (CGContextSetShadowWithColor): offset and blur
/// in base-space points, unaffected by the current transform.
public struct Shadow: Hashable, Sendable {
    /// Offset in points of base space (y down).
    public var offset: Size
    /// Blur in points: the Gaussian's sigma is `blur * scale / 2` pixels.
    public var blur: Double
    /// The shadow's colour; its alpha scales the shadow's opacity.
    public var color: Color
    /// Creates a shadow; `color` defaults to black at alpha 1/3 (``Color/defaultShadow``), Quartz's.
    public init(offset: Size, blur: Double, color: Color = .defaultShadow) {
        self.offset = offset; self.blur = blur; self.color = color
    }
    /// True when the shadow draws something: its colour's alpha is above 0 (false for a clear colour).
    public var isVisible: Bool { color.alpha > 0 }
}
