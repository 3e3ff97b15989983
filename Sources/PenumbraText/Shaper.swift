// Shaper: HarfBuzz calls. The text is one run's piece in one font, one
// direction and one script (given by the itemizer, else guessed); the
// language is undetermined (`und`: the font's default language system),
// never HarfBuzz's default, which is the process's locale (under a Chinese
// locale Noto Sans CJK's `locl` would turn Japanese forms into Chinese ones,
// and a render would depend on its environment). HarfBuzz applies the font's
// default features (kerning,
// ligatures, marks) plus the run's `features`, and returns glyphs in visual
// order with advances and offsets in font units (the hb_font's scale is its
// units per em). Clusters are scalar indices into the text (HarfBuzz's
// default cluster level keeps graphemes together and a ligature is one
// cluster). The font is immutable, so shaping takes no lock (FontFace.swift).
//
// Bounded pieces: HarfBuzz's work on one cluster grows with the square of its
// length (each mark looks back past the marks before it for its base), so
// "a" followed by 99,999 combining marks is one call of tens of seconds that
// nothing can interrupt. A run is therefore shaped in pieces cut where a
// cluster has gone on for `maximumClusterLength` scalars (marks beyond it
// start a new piece, as if after a break); text whose clusters are shorter,
// which is all real text, is one piece and shapes exactly as before. Between
// pieces the current cancellation token is looked at.
import CHarfBuzz
import PenumbraModel

enum Shaper {
    /// The most scalars one cluster may hold before the rest is shaped as a piece of its own
    /// (Unicode's stream-safe text format allows 30 non-starters in a row).
    static let maximumClusterLength = 64

    static func shape(_ face: FontFace, _ text: [Unicode.Scalar], rtl: Bool, script: UInt32? = nil, features: [FontFeature]) -> [ShapedGlyph] {
        guard !text.isEmpty else { return [] }
        let hbFeatures = features.map { f in
            hb_feature_t(tag: f.tag.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }, value: UInt32(f.value), start: 0, end: UInt32.max)
        }
        let cuts = pieces(of: text)
        let cancellation = RenderCancellation.current
        var shaped: [[ShapedGlyph]] = []
        for piece in cuts {
            if cancellation?.isCancelled == true { break }
            let glyphs = shapePiece(face, text[piece].map(\.value), rtl: rtl, script: script, features: hbFeatures)
            shaped.append(glyphs.map { var g = $0; g.cluster += piece.lowerBound; return g })
        }
        // Visual order: a right-to-left run's later pieces come first.
        return (rtl ? shaped.reversed() : shaped).flatMap { $0 }
    }

    /// The ranges the text is shaped in: one for text whose clusters are all short.
    static func pieces(of text: [Unicode.Scalar]) -> [Range<Int>] {
        var cuts: [Range<Int>] = []
        var start = 0, clusterLength = 0
        for (i, scalar) in text.enumerated() {
            let continuesCluster = i > 0 && (scalar.properties.canonicalCombiningClass.rawValue != 0
                || scalar.properties.isGraphemeExtend)
            clusterLength = continuesCluster ? clusterLength + 1 : 1
            if clusterLength > maximumClusterLength {
                cuts.append(start..<i)
                start = i
                clusterLength = 1
            }
        }
        cuts.append(start..<text.count)
        return cuts
    }

    private static func shapePiece(_ face: FontFace, _ codepoints: [UInt32], rtl: Bool, script: UInt32?,
                                   features: [hb_feature_t]) -> [ShapedGlyph] {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        hb_buffer_add_utf32(buffer, codepoints, Int32(codepoints.count), 0, Int32(codepoints.count))
        hb_buffer_set_direction(buffer, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        if let script { hb_buffer_set_script(buffer, hb_script_t(rawValue: script)) }
        hb_buffer_set_language(buffer, hb_language_from_string("und", -1))  // not the locale (see the top)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(face.hb.pointer, buffer, features, UInt32(features.count))
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
        return (0..<Int(count)).map { i in
            ShapedGlyph(glyph: infos[i].codepoint, cluster: Int(infos[i].cluster), advance: Double(positions[i].x_advance),
                        offsetX: Double(positions[i].x_offset), offsetY: Double(positions[i].y_offset))
        }
    }
}
