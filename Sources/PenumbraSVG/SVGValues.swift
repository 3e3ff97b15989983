// Values: numbers, lengths and units, colours (names, hex, rgb/rgba/hsl/hsla), paints and
// transform lists.
import Foundation
import PenumbraModel

/// A number scanner over the bytes of an attribute value.
struct NumberScanner {
    let b: [UInt8]
    var i = 0
    init(_ s: String) { b = Array(s.utf8) }
    var atEnd: Bool { i >= b.count }
    mutating func skipSeparators() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x2C { i += 1 }
    }
    mutating func skipSpaces() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 }
    }
    mutating func number() -> Double? {
        let start = i
        if i < b.count, b[i] == 0x2B || b[i] == 0x2D { i += 1 }
        var digits = 0
        while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 { i += 1; digits += 1 }
        if i < b.count, b[i] == 0x2E {
            i += 1
            while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 { i += 1; digits += 1 }
        }
        guard digits > 0 else { i = start; return nil }
        if i < b.count, b[i] == 0x65 || b[i] == 0x45 {
            var j = i + 1
            if j < b.count, b[j] == 0x2B || b[j] == 0x2D { j += 1 }
            if j < b.count, b[j] >= 0x30 && b[j] <= 0x39 {
                while j < b.count, b[j] >= 0x30 && b[j] <= 0x39 { j += 1 }
                i = j
            }
        }
        return Double(String(decoding: b[start..<i], as: UTF8.self))
    }
    /// The letters (or %) that follow, lowercased.
    mutating func unit() -> String {
        let start = i
        while i < b.count, (b[i] >= 0x61 && b[i] <= 0x7A) || (b[i] >= 0x41 && b[i] <= 0x5A) || b[i] == 0x25 { i += 1 }
        return String(decoding: b[start..<i], as: UTF8.self).lowercased()
    }
}

/// Numbers of a list attribute (`points`, `viewBox`, `stroke-dasharray` without units).
func parseNumberList(_ s: String) -> [Double] {
    var sc = NumberScanner(s)
    var out: [Double] = []
    sc.skipSeparators()
    while !sc.atEnd {
        guard let n = sc.number() else { break }
        out.append(n)
        sc.skipSeparators()
    }
    return out
}

/// A length with its unit, resolved against a reference for percentages.
struct SVGLength {
    var value: Double
    var unit: String
    static let zero = SVGLength(value: 0, unit: "")

    static func parse(_ s: String?) -> SVGLength? {
        guard let s else { return nil }
        var sc = NumberScanner(s.trimmingCharacters())
        guard let v = sc.number(), v.isFinite else { return nil }
        let u = sc.unit()
        sc.skipSpaces()
        guard sc.atEnd else { return nil }
        switch u {
        case "", "px", "pt", "pc", "mm", "cm", "in", "q", "em", "ex", "ch", "%", "vw", "vh", "vmin", "vmax": return SVGLength(value: v, unit: u)
        default: return nil
        }
    }

    /// In user units; `percentOf` is the reference length for `%`.
    func resolve(percentOf reference: Double, fontSize: Double = 16) -> Double {
        switch unit {
        case "pt": return value * 4 / 3
        case "pc": return value * 16
        case "mm": return value * 96 / 25.4
        case "cm": return value * 96 / 2.54
        case "in": return value * 96
        case "q": return value * 96 / 101.6
        case "em": return value * fontSize
        case "ex", "ch": return value * fontSize / 2 // without the font's metrics, as resvg
        case "%": return value * reference / 100
        default: return value
        }
    }
}

/// What a fill or stroke paints with.
enum SVGPaint {
    case none
    case color(Color)
    case currentColor
    case server(id: String, fallback: Fallback?)
    /// `context-fill` and `context-stroke` (SVG 2), resolved by SVGStyle against the context element.
    case contextFill, contextStroke
    enum Fallback { case none, color(Color), currentColor }

    static func parse(_ raw: String) -> SVGPaint? {
        let s = raw.trimmingCharacters()
        if s == "none" { return SVGPaint.none }
        if s.lowercased() == "currentcolor" { return .currentColor }
        if s == "context-fill" { return .contextFill }
        if s == "context-stroke" { return .contextStroke }
        if s.hasPrefix("url(") {
            guard let close = s.firstIndex(of: ")") else { return nil }
            var ref = String(s[s.index(s.startIndex, offsetBy: 4)..<close]).trimmingCharacters()
            if ref.count >= 2, ref.first == "'" || ref.first == "\"" { ref = String(ref.dropFirst().dropLast()) }
            guard ref.hasPrefix("#") else { return nil }
            let rest = String(s[s.index(after: close)...]).trimmingCharacters()
            var fallback: Fallback?
            if rest == "none" { fallback = Fallback.none } else if rest.lowercased() == "currentcolor" { fallback = .currentColor }
            else if let c = parseColor(rest) { fallback = .color(c) }
            return .server(id: String(ref.dropFirst()), fallback: fallback)
        }
        if let c = parseColor(s) { return .color(c) }
        return nil
    }
}

/// `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()`, `rgba()`, `hsl()`, `hsla()`, names and `transparent`.
func parseColor(_ raw: String) -> Color? {
    let s = raw.trimmingCharacters().lowercased()
    if s.isEmpty { return nil }
    if s.hasPrefix("#") {
        let hex = Array(s.dropFirst())
        guard hex.allSatisfy(\.isHexDigit) else { return nil }
        func v(_ i: Int, _ n: Int) -> Double {
            let text = String(hex[i..<i + n])
            let x = Double(Int(text, radix: 16)!)
            return n == 1 ? x * 17 / 255 : x / 255
        }
        switch hex.count {
        case 3: return Color(red: v(0, 1), green: v(1, 1), blue: v(2, 1))
        case 4: return Color(red: v(0, 1), green: v(1, 1), blue: v(2, 1), alpha: v(3, 1))
        case 6: return Color(red: v(0, 2), green: v(2, 2), blue: v(4, 2))
        case 8: return Color(red: v(0, 2), green: v(2, 2), blue: v(4, 2), alpha: v(6, 2))
        default: return nil
        }
    }
    if let open = s.firstIndex(of: "("), s.hasSuffix(")") {
        let fn = s[..<open].trimmingCharacters(in: " ")
        let inner = s[s.index(after: open)..<s.index(before: s.endIndex)]
        var comps: [(Double, Bool)] = []
        var sc = NumberScanner(String(inner))
        sc.skipSeparators()
        while !sc.atEnd {
            if sc.b[sc.i] == 0x2F { sc.i += 1; sc.skipSeparators(); continue } // "/"
            guard let n = sc.number() else { return nil }
            let u = sc.unit()
            comps.append((n, u == "%"))
            sc.skipSeparators()
        }
        func clamp(_ x: Double) -> Double { min(1, max(0, x)) }
        func alpha(_ i: Int) -> Double { comps.count > i ? clamp(comps[i].1 ? comps[i].0 / 100 : comps[i].0) : 1 }
        switch fn {
        case "rgb", "rgba":
            guard comps.count == 3 || comps.count == 4 else { return nil }
            // The three channels are all numbers or all percentages.
            guard comps[0].1 == comps[1].1, comps[1].1 == comps[2].1 else { return nil }
            func ch(_ c: (Double, Bool)) -> Double { clamp(c.1 ? c.0 / 100 : c.0 / 255) }
            return Color(red: ch(comps[0]), green: ch(comps[1]), blue: ch(comps[2]), alpha: alpha(3))
        case "hsl", "hsla":
            guard comps.count == 3 || comps.count == 4 else { return nil }
            var h = comps[0].0.truncatingRemainder(dividingBy: 360); if h < 0 { h += 360 }
            let sat = clamp(comps[1].0 / 100), l = clamp(comps[2].0 / 100)
            let c = (1 - abs(2 * l - 1)) * sat
            let x = c * (1 - abs((h / 60).truncatingRemainder(dividingBy: 2) - 1))
            let m = l - c / 2
            let (r, g, b): (Double, Double, Double)
            switch h {
            case ..<60: (r, g, b) = (c, x, 0)
            case ..<120: (r, g, b) = (x, c, 0)
            case ..<180: (r, g, b) = (0, c, x)
            case ..<240: (r, g, b) = (0, x, c)
            case ..<300: (r, g, b) = (x, 0, c)
            default: (r, g, b) = (c, 0, x)
            }
            return Color(red: r + m, green: g + m, blue: b + m, alpha: alpha(3))
        default: return nil
        }
    }
    if s == "transparent" { return Color(red: 0, green: 0, blue: 0, alpha: 0) }
    guard let hex = namedColors[s] else { return nil }
    return Color(red: Double((hex >> 16) & 0xFF) / 255, green: Double((hex >> 8) & 0xFF) / 255, blue: Double(hex & 0xFF) / 255)
}

/// The CSS named colours.
let namedColors: [String: UInt32] = [
    "aliceblue": 0xF0F8FF, "antiquewhite": 0xFAEBD7, "aqua": 0x00FFFF, "aquamarine": 0x7FFFD4, "azure": 0xF0FFFF,
    "beige": 0xF5F5DC, "bisque": 0xFFE4C4, "black": 0x000000, "blanchedalmond": 0xFFEBCD, "blue": 0x0000FF,
    "blueviolet": 0x8A2BE2, "brown": 0xA52A2A, "burlywood": 0xDEB887, "cadetblue": 0x5F9EA0, "chartreuse": 0x7FFF00,
    "chocolate": 0xD2691E, "coral": 0xFF7F50, "cornflowerblue": 0x6495ED, "cornsilk": 0xFFF8DC, "crimson": 0xDC143C,
    "cyan": 0x00FFFF, "darkblue": 0x00008B, "darkcyan": 0x008B8B, "darkgoldenrod": 0xB8860B, "darkgray": 0xA9A9A9,
    "darkgreen": 0x006400, "darkgrey": 0xA9A9A9, "darkkhaki": 0xBDB76B, "darkmagenta": 0x8B008B, "darkolivegreen": 0x556B2F,
    "darkorange": 0xFF8C00, "darkorchid": 0x9932CC, "darkred": 0x8B0000, "darksalmon": 0xE9967A, "darkseagreen": 0x8FBC8F,
    "darkslateblue": 0x483D8B, "darkslategray": 0x2F4F4F, "darkslategrey": 0x2F4F4F, "darkturquoise": 0x00CED1,
    "darkviolet": 0x9400D3, "deeppink": 0xFF1493, "deepskyblue": 0x00BFFF, "dimgray": 0x696969, "dimgrey": 0x696969,
    "dodgerblue": 0x1E90FF, "firebrick": 0xB22222, "floralwhite": 0xFFFAF0, "forestgreen": 0x228B22, "fuchsia": 0xFF00FF,
    "gainsboro": 0xDCDCDC, "ghostwhite": 0xF8F8FF, "gold": 0xFFD700, "goldenrod": 0xDAA520, "gray": 0x808080,
    "grey": 0x808080, "green": 0x008000, "greenyellow": 0xADFF2F, "honeydew": 0xF0FFF0, "hotpink": 0xFF69B4,
    "indianred": 0xCD5C5C, "indigo": 0x4B0082, "ivory": 0xFFFFF0, "khaki": 0xF0E68C, "lavender": 0xE6E6FA,
    "lavenderblush": 0xFFF0F5, "lawngreen": 0x7CFC00, "lemonchiffon": 0xFFFACD, "lightblue": 0xADD8E6, "lightcoral": 0xF08080,
    "lightcyan": 0xE0FFFF, "lightgoldenrodyellow": 0xFAFAD2, "lightgray": 0xD3D3D3, "lightgreen": 0x90EE90, "lightgrey": 0xD3D3D3,
    "lightpink": 0xFFB6C1, "lightsalmon": 0xFFA07A, "lightseagreen": 0x20B2AA, "lightskyblue": 0x87CEFA,
    "lightslategray": 0x778899, "lightslategrey": 0x778899, "lightsteelblue": 0xB0C4DE, "lightyellow": 0xFFFFE0,
    "lime": 0x00FF00, "limegreen": 0x32CD32, "linen": 0xFAF0E6, "magenta": 0xFF00FF, "maroon": 0x800000,
    "mediumaquamarine": 0x66CDAA, "mediumblue": 0x0000CD, "mediumorchid": 0xBA55D3, "mediumpurple": 0x9370DB,
    "mediumseagreen": 0x3CB371, "mediumslateblue": 0x7B68EE, "mediumspringgreen": 0x00FA9A, "mediumturquoise": 0x48D1CC,
    "mediumvioletred": 0xC71585, "midnightblue": 0x191970, "mintcream": 0xF5FFFA, "mistyrose": 0xFFE4E1, "moccasin": 0xFFE4B5,
    "navajowhite": 0xFFDEAD, "navy": 0x000080, "oldlace": 0xFDF5E6, "olive": 0x808000, "olivedrab": 0x6B8E23,
    "orange": 0xFFA500, "orangered": 0xFF4500, "orchid": 0xDA70D6, "palegoldenrod": 0xEEE8AA, "palegreen": 0x98FB98,
    "paleturquoise": 0xAFEEEE, "palevioletred": 0xDB7093, "papayawhip": 0xFFEFD5, "peachpuff": 0xFFDAB9, "peru": 0xCD853F,
    "pink": 0xFFC0CB, "plum": 0xDDA0DD, "powderblue": 0xB0E0E6, "purple": 0x800080, "rebeccapurple": 0x663399,
    "red": 0xFF0000, "rosybrown": 0xBC8F8F, "royalblue": 0x4169E1, "saddlebrown": 0x8B4513, "salmon": 0xFA8072,
    "sandybrown": 0xF4A460, "seagreen": 0x2E8B57, "seashell": 0xFFF5EE, "sienna": 0xA0522D, "silver": 0xC0C0C0,
    "skyblue": 0x87CEEB, "slateblue": 0x6A5ACD, "slategray": 0x708090, "slategrey": 0x708090, "snow": 0xFFFAFA,
    "springgreen": 0x00FF7F, "steelblue": 0x4682B4, "tan": 0xD2B48C, "teal": 0x008080, "thistle": 0xD8BFD8,
    "tomato": 0xFF6347, "turquoise": 0x40E0D0, "violet": 0xEE82EE, "wheat": 0xF5DEB3, "white": 0xFFFFFF,
    "whitesmoke": 0xF5F5F5, "yellow": 0xFFFF00, "yellowgreen": 0x9ACD32,
]

/// A `transform` attribute: matrix, translate, scale, rotate (with an optional centre), skewX,
/// skewY, in order; nil when malformed (SVG then ignores the whole attribute... as an identity).
func parseTransform(_ s: String?) -> AffineTransform? {
    guard let s else { return .identity }
    var t = AffineTransform.identity
    var rest = Substring(s)
    while true {
        rest = rest.trimmingCharacters(in: " \t\r\n,")
        if rest.isEmpty { break }
        guard let open = rest.firstIndex(of: "("), let close = rest.firstIndex(of: ")"), open < close else { return nil }
        let name = rest[..<open].trimmingCharacters(in: " \t\r\n")
        let args = parseNumberList(String(rest[rest.index(after: open)..<close]))
        rest = rest[rest.index(after: close)...]
        var m: AffineTransform
        switch (name, args.count) {
        case ("matrix", 6): m = AffineTransform(a: args[0], b: args[1], c: args[2], d: args[3], tx: args[4], ty: args[5])
        case ("translate", 1): m = AffineTransform(translationX: args[0], y: 0)
        case ("translate", 2): m = AffineTransform(translationX: args[0], y: args[1])
        case ("scale", 1): m = AffineTransform(scaleX: args[0], y: args[0])
        case ("scale", 2): m = AffineTransform(scaleX: args[0], y: args[1])
        case ("rotate", 1): m = AffineTransform(rotationAngle: args[0] * .pi / 180)
        case ("rotate", 3):
            m = AffineTransform(translationX: -args[1], y: -args[2])
                .concatenating(AffineTransform(rotationAngle: args[0] * .pi / 180))
                .concatenating(AffineTransform(translationX: args[1], y: args[2]))
        case ("skewX", 1): m = AffineTransform(a: 1, b: 0, c: tan(args[0] * .pi / 180), d: 1, tx: 0, ty: 0)
        case ("skewY", 1): m = AffineTransform(a: 1, b: tan(args[0] * .pi / 180), c: 0, d: 1, tx: 0, ty: 0)
        default: return nil
        }
        // Later transforms apply first: t = m then t.
        t = m.concatenating(t)
    }
    return t
}
