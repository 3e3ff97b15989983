// FontMatcher: fontconfig, initialised once and used behind one Mutex. It
// answers three questions, each cached: does an installed family of this
// name exist (FcFontList; the generic sans-serif, serif and monospace always
// do), which file and face best match a family, weight and slant (FcFontMatch
// after the config and default substitutions, as every fontconfig client
// does), and which fonts, in fontconfig's fallback order for a pattern
// (FcFontSort), can stand in for characters a font lacks. Colour emoji are
// found by asking for the `emoji` family, which fontconfig's configuration
// maps to Noto Color Emoji on Debian.
//
// Determinism: fontconfig adds its default languages, taken from the
// process's environment (FC_LANG, else LC_ALL, LC_CTYPE, LANG), to every
// pattern, and its configuration reorders fonts by them: under a Chinese
// locale `sans-serif` itself becomes Noto Sans CJK SC, and Han characters
// fall back to the Chinese faces instead of Noto Sans CJK JP. So that a
// scene draws the same glyphs whatever the environment of the process that
// renders it, FC_LANG is set to `en` before fontconfig starts (under the C
// locale that is what fontconfig chose anyway), and every pattern names `en`.
//
// An unknown family is drawn in the generic family its name suggests
// (`genericFamily(suggestedBy:)`), as Quartz substitutes a font it lacks.
import CFontconfig
import Foundation
import PenumbraModel
import Synchronization

/// A font file and face index found by fontconfig.
struct FontLocation: Hashable, Sendable {
    var file: String
    var index: Int
}

/// Matching and fallback through fontconfig.
final class FontMatcher: Sendable {
    static let shared = FontMatcher()

    private struct State {
        var families: [String: Bool] = [:]
        var matches: [String: FontLocation] = [:]
        var fallbacks: [String: FontLocation?] = [:]
        var sorted: [String: UnsafeMutablePointer<FcFontSet>?] = [:]
    }
    private let state = Mutex(State())

    static let generic: Set<String> = ["sans-serif", "serif", "monospace"]

    /// fontconfig initialised once (Swift runs a static's initialiser exactly once, thread-safely),
    /// with its default language fixed (see the top of this file). Nothing in the process uses
    /// fontconfig before this: fontconfig reads FC_LANG when it first substitutes a pattern.
    private static let initialised: Bool = {
        setenv("FC_LANG", "en", 1)
        return FcInit() != 0
    }()

    /// True when an installed font has this family name (case and spaces as fontconfig compares them).
    func familyExists(_ family: String) -> Bool {
        if FontMatcher.generic.contains(family.lowercased()) { return true }
        _ = FontMatcher.initialised
        return state.withLock { s in
            if let known = s.families[family] { return known }
            let pattern = FcPatternCreate()
            defer { FcPatternDestroy(pattern) }
            family.withCString { _ = FcPatternAddString(pattern, FC_FAMILY, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
            let objects = FcObjectSetCreate()
            defer { FcObjectSetDestroy(objects) }
            _ = FcObjectSetAdd(objects, FC_FAMILY)
            let set = FcFontList(nil, pattern, objects)
            defer { if let set { FcFontSetDestroy(set) } }
            let found = (set?.pointee.nfont ?? 0) > 0
            s.families[family] = found
            return found
        }
    }

    /// The generic family a family name suggests: `monospace` for names of fixed-pitch fonts
    /// ("Mono", "Courier", "Code", "Consolas", "Menlo"), `serif` for serif ones ("Serif" without
    /// "Sans", "Times", "Georgia", "Garamond", ...), else `sans-serif`.
    static func genericFamily(suggestedBy family: String) -> String {
        let name = family.lowercased()
        let has = { (words: [String]) in words.contains { name.contains($0) } }
        if has(["mono", "courier", "code", "consol", "menlo", "typewriter", "terminal", "fixed"]) { return "monospace" }
        if has(["sans", "grotesk", "gothic"]) { return "sans-serif" }
        if has(["serif", "times", "georgia", "garamond", "baskerville", "palatino", "cambria", "didot", "bodoni",
                "minion", "caslon", "mincho", "batang"]) { return "serif" }
        return "sans-serif"
    }

    private static func pattern(family: String, weight: Int, italic: Bool) -> OpaquePointer? {
        let pattern = FcPatternCreate()
        family.withCString { _ = FcPatternAddString(pattern, FC_FAMILY, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        // A fixed language, not the process's locale (see the top of this file).
        let languages = FcLangSetCreate()
        _ = FcLangSetAdd(languages, "en")
        _ = FcPatternAddLangSet(pattern, FC_LANG, languages)
        FcLangSetDestroy(languages)
        _ = FcPatternAddInteger(pattern, FC_WEIGHT, FcWeightFromOpenType(Int32(weight)))
        _ = FcPatternAddInteger(pattern, FC_SLANT, italic ? Int32(FC_SLANT_ITALIC) : Int32(FC_SLANT_ROMAN))
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        return pattern
    }

    private static func location(_ font: OpaquePointer?) -> FontLocation? {
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
        return FontLocation(file: String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self)), index: Int(index))
    }

    /// The best installed match for a family, weight and slant.
    func match(family: String, weight: Int, italic: Bool) -> FontLocation? {
        let key = "\(family)\u{0}\(weight)\u{0}\(italic)"
        _ = FontMatcher.initialised
        return state.withLock { s in
            if let known = s.matches[key] { return known }
            let pattern = FontMatcher.pattern(family: family, weight: weight, italic: italic)
            defer { FcPatternDestroy(pattern) }
            var result = FcResultNoMatch
            guard let font = FcFontMatch(nil, pattern, &result) else { return nil }
            defer { FcPatternDestroy(font) }
            let found = FontMatcher.location(font)
            s.matches[key] = found
            return found
        }
    }

    /// The first installed font, in fontconfig's fallback order for this family, weight and slant,
    /// whose character set has `scalar`.
    func fallback(for scalar: Unicode.Scalar, family: String, weight: Int, italic: Bool) -> FontLocation? {
        let key = "\(family)\u{0}\(weight)\u{0}\(italic)"
        _ = FontMatcher.initialised
        return state.withLock { s in
            let fallbackKey = key + "\u{0}\(scalar.value)"
            if let known = s.fallbacks[fallbackKey] { return known }
            if s.sorted[key] == nil {
                let pattern = FontMatcher.pattern(family: family, weight: weight, italic: italic)
                defer { FcPatternDestroy(pattern) }
                var result = FcResultNoMatch
                s.sorted[key] = FcFontSort(nil, pattern, 0, nil, &result)
            }
            var found: FontLocation?
            if let set = s.sorted[key] ?? nil {
                for i in 0..<Int(set.pointee.nfont) {
                    let font = set.pointee.fonts[i]
                    var charset: OpaquePointer?
                    guard FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) == FcResultMatch,
                          FcCharSetHasChar(charset, scalar.value) != 0 else { continue }
                    found = FontMatcher.location(font)
                    if found != nil { break }
                }
            }
            s.fallbacks[fallbackKey] = found
            return found
        }
    }
}
