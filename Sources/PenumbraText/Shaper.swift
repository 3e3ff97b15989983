// Shaper: one HarfBuzz call. The text is one run's piece in one font, one
// direction and one script (given by the itemizer, else guessed); HarfBuzz
// guesses the language, applies the
// font's default features (kerning, ligatures, marks) plus the run's
// `features`, and returns glyphs in visual order with advances and offsets
// in font units (the hb_font's scale is its units per em). Clusters are
// scalar indices into the text (HarfBuzz's default cluster level keeps
// graphemes together and a ligature is one cluster).
import CHarfBuzz
import PenumbraCore

enum Shaper {
    static func shape(_ face: FontFace, _ text: [Unicode.Scalar], rtl: Bool, script: UInt32? = nil, features: [FontFeature]) -> [ShapedGlyph] {
        guard !text.isEmpty else { return [] }
        let codepoints = text.map(\.value)
        let hbFeatures = features.map { f in
            hb_feature_t(tag: f.tag.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }, value: UInt32(f.value), start: 0, end: UInt32.max)
        }
        return face.handles.withLock { h -> [ShapedGlyph] in
            let buffer = hb_buffer_create()
            defer { hb_buffer_destroy(buffer) }
            hb_buffer_add_utf32(buffer, codepoints, Int32(codepoints.count), 0, Int32(codepoints.count))
            hb_buffer_set_direction(buffer, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
            if let script { hb_buffer_set_script(buffer, hb_script_t(rawValue: script)) }
            hb_buffer_guess_segment_properties(buffer)
            hb_shape(h.hb, buffer, hbFeatures, UInt32(hbFeatures.count))
            var count: UInt32 = 0
            guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
                  let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
            return (0..<Int(count)).map { i in
                ShapedGlyph(glyph: infos[i].codepoint, cluster: Int(infos[i].cluster), advance: Double(positions[i].x_advance),
                            offsetX: Double(positions[i].x_offset), offsetY: Double(positions[i].y_offset))
            }
        }
    }
}
