// TextWarnings: what a layout drew otherwise than asked, as the messages of
// TextDrawing.warnings. Two things: characters that no installed font has,
// found in the lines drawn where HarfBuzz gave the missing glyph (glyph 0),
// so a shaping taken from the cache reports them as a fresh one does, and
// text a line limit leaves out is not reported; and families that no
// installed font has (drawn in a generic family). Messages are bounded: a
// text of 100,000 unknown characters names the first few and counts the rest.
import PenumbraModel

/// The warnings of one layout, in the order first met, each once.
struct TextWarnings {
    /// The most characters one message names.
    static let charactersNamed = 8

    private(set) var missing: [Unicode.Scalar] = []
    private var missingSet: Set<Unicode.Scalar> = []
    private(set) var substitutions: [(family: String, generic: String)] = []

    mutating func noteMissing(_ scalars: [Unicode.Scalar]) {
        for s in scalars where missingSet.insert(s).inserted { missing.append(s) }
    }

    mutating func noteSubstitution(_ family: String, by generic: String) {
        guard !substitutions.contains(where: { $0.family == family }) else { return }
        substitutions.append((family, generic))
    }

    /// The messages: each substitution, then the missing characters.
    var messages: [String] {
        var out = substitutions.map { "no installed font family \(TextWarnings.quote($0.family)); drawn in \($0.generic) instead" }
        if !missing.isEmpty {
            let named = missing.prefix(TextWarnings.charactersNamed).map(TextWarnings.describe).joined(separator: ", ")
            let rest = missing.count - min(missing.count, TextWarnings.charactersNamed)
            out.append("no installed font has \(named)\(rest > 0 ? " and \(rest) more characters" : "") (drawn as missing-glyph boxes)")
        }
        return out
    }

    /// `U+4E16 '世'`; the character itself only where it shows as one (not a control, format,
    /// private-use, surrogate or unassigned code point, nor a separator).
    static func describe(_ s: Unicode.Scalar) -> String {
        let hex = String(s.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        switch s.properties.generalCategory {
        case .control, .format, .privateUse, .surrogate, .unassigned, .lineSeparator, .paragraphSeparator, .spaceSeparator:
            return code
        default:
            return "\(code) '\(Character(s))'"
        }
    }

    /// A family name in double quotes.
    static func quote(_ s: String) -> String { "\"" + s.map { $0 == "\"" ? "\\\"" : String($0) }.joined() + "\"" }

    /// True for a character whose lack draws nothing (whitespace, controls, joiners, variation
    /// selectors, other default-ignorable code points): never reported as missing.
    static func drawsNothing(_ s: Unicode.Scalar) -> Bool {
        let p = s.properties
        return p.isDefaultIgnorableCodePoint || p.isWhitespace || p.generalCategory == .control
            || (0xFE00...0xFE0F).contains(s.value) || (0xE0000...0xE007F).contains(s.value)
    }

    /// The characters of a drawn unit that are drawn as the missing glyph: where its glyphs
    /// include glyph 0, those of its characters its face lacks.
    static func missing(in unit: LineUnit) -> [Unicode.Scalar] {
        guard unit.glyphs.contains(where: { $0.glyph == 0 }) else { return [] }
        return unit.text.filter { !drawsNothing($0) && unit.face.glyph(for: $0) == nil }
    }
}
