// Color: an sRGB colour with straight (not premultiplied) alpha, components in 0...1.
// Compositing happens on premultiplied sRGB values without linearisation, as in
// Quartz and Skia by default.

/// An sRGB colour with straight alpha; components are in 0...1.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// The red component, 0...1.
    public var red: Double
    /// The green component, 0...1.
    public var green: Double
    /// The blue component, 0...1.
    public var blue: Double
    /// The opacity, 0 (transparent) ... 1 (opaque); the colour components are not multiplied by it.
    public var alpha: Double
    /// Creates a colour from sRGB components in 0...1 and straight (not premultiplied) alpha,
    /// as `UIColor(red:green:blue:alpha:)`; `alpha` defaults to 1 (opaque).
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    /// Opaque black.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = Color(red: 1, green: 1, blue: 1)
    /// Fully transparent (black with alpha 0).
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    /// The default shadow colour: black at alpha 1/3 (Quartz's).
    public static let defaultShadow = Color(red: 0, green: 0, blue: 0, alpha: 1.0 / 3.0)

    /// Parses `#RRGGBB` or `#RRGGBBAA`.
    public init?(hex: String) {
        guard hex.hasPrefix("#") else { return nil }
        let digits = hex.dropFirst()
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit),
              let v = UInt32(digits, radix: 16) else { return nil }
        let full = digits.count == 6 ? (v << 8) | 0xFF : v
        self.init(red: Double((full >> 24) & 0xFF) / 255, green: Double((full >> 16) & 0xFF) / 255,
                  blue: Double((full >> 8) & 0xFF) / 255, alpha: Double(full & 0xFF) / 255)
    }

    /// Premultiplied components (r a, g a, b a, a).
    public var premultiplied: SIMD4<Double> { SIMD4(red * alpha, green * alpha, blue * alpha, alpha) }
    public var description: String { "Color(\(red), \(green), \(blue), \(alpha))" }
}
