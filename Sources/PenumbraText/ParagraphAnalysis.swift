// ParagraphAnalysis: the Unicode properties one paragraph's layout needs,
// per scalar: bidi embedding levels from FriBidi (base direction from the
// first strong character: FRIBIDI_PAR_ON, rules P2-P3, with bracket pairs),
// line-break opportunities from libunibreak (UAX #14), and grapheme cluster
// boundaries from Swift's String (UAX #29, current Unicode). Plus the
// visual reordering of a line's pieces (rule L2).
import CFriBidi
import CHarfBuzz
import CUnibreak

enum ParagraphAnalysis {
    /// FriBidi's embedding level of each scalar, and whether the paragraph is right-to-left.
    static func bidiLevels(_ text: [Unicode.Scalar]) -> (levels: [UInt8], rtl: Bool) {
        let n = text.count
        guard n > 0 else { return ([], false) }
        let chars = text.map { FriBidiChar($0.value) }
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: n)
        var brackets = [FriBidiBracketType](repeating: 0, count: n)
        var levels = [FriBidiLevel](repeating: 0, count: n)
        fribidi_get_bidi_types(chars, FriBidiStrIndex(n), &types)
        fribidi_get_bracket_types(chars, FriBidiStrIndex(n), types, &brackets)
        var base = FriBidiParType(rawValue: 0x40)  // FRIBIDI_PAR_ON: from the first strong character, else LTR
        let ok = fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(n), &base, &levels)
        guard ok != 0 else { return ([UInt8](repeating: 0, count: n), false) }
        return (levels.map { UInt8(bitPattern: $0) }, base.rawValue & 1 == 1)
    }

    /// HarfBuzz's script of each scalar (ISO 15924 tags as numbers); Common and Inherited
    /// characters (spaces, punctuation, marks) take the script before them, or after them at the
    /// start, so that a paragraph mixing scripts in one direction is shaped script by script.
    static func scripts(_ text: [Unicode.Scalar]) -> [UInt32] {
        let funcs = hb_unicode_funcs_get_default()
        let common = HB_SCRIPT_COMMON.rawValue, inherited = HB_SCRIPT_INHERITED.rawValue, unknown = HB_SCRIPT_UNKNOWN.rawValue
        var raw = text.map { hb_unicode_script(funcs, $0.value).rawValue }
        var last: UInt32?
        for i in raw.indices {
            if raw[i] == common || raw[i] == inherited || raw[i] == unknown {
                if let last { raw[i] = last }
            } else {
                last = raw[i]
            }
        }
        let firstReal = raw.first { $0 != common && $0 != inherited && $0 != unknown } ?? common
        for i in raw.indices {
            guard raw[i] == common || raw[i] == inherited || raw[i] == unknown else { break }
            raw[i] = firstReal
        }
        return raw
    }

    private static let unibreakReady: Bool = { init_linebreak(); return true }()

    /// Whether a line may break after each scalar (UAX #14); `mandatory` marks hard breaks.
    static func breaks(_ text: [Unicode.Scalar]) -> (allowed: [Bool], mandatory: [Bool]) {
        _ = unibreakReady
        let n = text.count
        guard n > 0 else { return ([], []) }
        var brks = [CChar](repeating: 0, count: n)
        // libunibreak 1.1 (Debian 12) aborts on classes its resolver does not know: the regional
        // indicators (U+1F1E6...U+1F1FF, class RI) and U+FFFF. They are given class AL here (a flag
        // pair stays together, as RI RI does, and grapheme clusters already keep it whole).
        let utf32 = text.map { s -> utf32_t in
            (0x1F1E6...0x1F1FF).contains(s.value) || s.value == 0xFFFF ? 0x41 : utf32_t(s.value)
        }
        set_linebreaks_utf32(utf32, n, nil, &brks)
        return (brks.map { $0 == LINEBREAK_ALLOWBREAK || $0 == LINEBREAK_MUSTBREAK }, brks.map { $0 == LINEBREAK_MUSTBREAK })
    }

    /// `result[i]` is true when a grapheme cluster starts at scalar i (and at i == count).
    static func graphemeStarts(_ text: [Unicode.Scalar]) -> [Bool] {
        var starts = [Bool](repeating: false, count: text.count + 1)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: text)
        var i = 0
        for character in String(view) {
            starts[i] = true
            i += character.unicodeScalars.count
        }
        starts[text.count] = true
        return starts
    }

    /// The visual order of pieces with these levels (rule L2): from the highest level down to the
    /// lowest odd one, every maximal sequence at that level or above is reversed.
    static func visualOrder(_ levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let maxLevel = levels.max(), let minOdd = levels.filter({ $0 & 1 == 1 }).min() else { return order }
        var level = maxLevel
        while level >= minOdd {
            var i = 0
            while i < order.count {
                guard levels[order[i]] >= level else { i += 1; continue }
                var j = i
                while j < order.count, levels[order[j]] >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
            if level == 0 { break }
            level -= 1
        }
        return order
    }
}
