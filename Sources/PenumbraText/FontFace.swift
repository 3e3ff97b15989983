// FontFace: one face of one font file, opened once and shared. FreeType reads
// outlines, metrics and colour bitmaps; HarfBuzz (its own OpenType code, on
// the same bytes) shapes. The bytes live in one allocation owned by the face,
// since both libraries read them in place.
//
// Threads: FreeType's FT_Face is not thread-safe and creating or destroying a
// face touches its FT_Library, so each face has its own FT_Library, and the
// face's FreeType handles sit behind the face's own Mutex. Callers go through
// FontCache, which also caches outlines, so that lock is held briefly (one
// glyph's outline). HarfBuzz's font is made immutable once set up, and an
// immutable hb_font_t is safe to shape with from any number of threads at
// once, so shaping and cmap look-ups take no lock: one worker's long shaping
// job never holds up another worker's text.
//
// Checking: FreeType opens some damaged files lazily, so a face is accepted
// only when its sfnt table directory lies inside the file, the tables a
// font needs (head, hhea, hmtx, maxp, cmap) are there, it has glyphs and a
// sane units-per-em, and its first glyphs load.
import CFreeType
import CHarfBuzz
import PenumbraModel
import Synchronization

/// Vertical metrics of a face, in font units (y up), as the line-box rule reads them.
struct FaceMetrics: Sendable {
    var unitsPerEm: Double
    var ascender: Double
    var descender: Double
    var lineGap: Double
    /// The underline's top edge above the baseline (post table; negative below it), and its thickness.
    var underlinePosition: Double
    var underlineThickness: Double
    /// The strikethrough's top edge above the baseline, and its thickness (OS/2).
    var strikeoutPosition: Double
    var strikeoutSize: Double
}

/// Raw FreeType handles of a face, used only under the face's lock.
struct FaceHandles: ~Copyable {
    var library: FT_Library?
    var ft: FT_Face?
}

/// A HarfBuzz font after `hb_font_make_immutable`: HarfBuzz reads it from any thread at once.
struct ImmutableHBFont: @unchecked Sendable {
    let pointer: OpaquePointer?
}

/// The font file's bytes, read in place by both libraries; freed with the face.
struct FaceBytes: @unchecked Sendable {
    let buffer: UnsafeMutableRawBufferPointer
}

/// One opened face.
final class FontFace: Sendable {
    /// A number unique to this face in the process: the key of its cached outlines and shapings.
    let id: Int
    let metrics: FaceMetrics
    let glyphCount: Int
    /// A bitmap colour font (CBDT/sbix: Noto Color Emoji): glyphs are images.
    let isColorBitmap: Bool
    /// Pixels per em of the bitmap strike used for colour glyphs.
    let strikePPEM: Double
    let familyName: String
    let handles: Mutex<FaceHandles>
    /// The shaping font, used without a lock.
    let hb: ImmutableHBFont
    private let bytes: FaceBytes

    private static let nextID = Atomic<Int>(1)

    /// Opens face `index` of `data`; throws a message for anything that is not a usable font.
    init(data: [UInt8], index: Int) throws(TextEngineError) {
        guard !data.isEmpty else { throw TextEngineError("the font file is empty") }
        try FontFace.checkTableDirectory(data, index: index)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
        buffer.copyBytes(from: data)
        var face: FT_Face?
        var library: FT_Library?
        var error = FT_Init_FreeType(&library)
        if error == 0 {
            error = FT_New_Memory_Face(library, buffer.baseAddress!.assumingMemoryBound(to: FT_Byte.self),
                                       FT_Long(data.count), FT_Long(index), &face)
        }
        guard error == 0, let face else {
            if library != nil { FT_Done_FreeType(library) }
            buffer.deallocate()
            throw TextEngineError(error == 6 ? "face index \(index) is out of range" : "the font does not parse (FreeType error \(error))")
        }
        let fail = { (message: String) -> TextEngineError in
            FT_Done_Face(face)
            FT_Done_FreeType(library)
            buffer.deallocate()
            return TextEngineError(message)
        }
        let f = face.pointee
        let isScalable = f.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0
        let hasColor = f.face_flags & FT_Long(FT_FACE_FLAG_COLOR) != 0
        guard f.num_glyphs > 0 else { throw fail("the font has no glyphs") }
        // HarfBuzz reads head's unitsPerEm even where FreeType zeroes it (bitmap-only fonts).
        let upem: UInt32 = {
            let blob = hb_blob_create(UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self),
                                      UInt32(data.count), HB_MEMORY_MODE_READONLY, nil, nil)
            let hbFace = hb_face_create(blob, UInt32(index))
            defer { hb_face_destroy(hbFace); hb_blob_destroy(blob) }
            return hb_face_get_upem(hbFace)
        }()
        guard upem >= 16, upem <= 16384 else { throw fail("the font's units per em (\(upem)) is not in 16...16384") }
        var strike = 0.0
        if !isScalable {
            guard hasColor, f.num_fixed_sizes > 0, let sizes = f.available_sizes else { throw fail("the font has no outlines") }
            var best = 0
            for i in 0..<Int(f.num_fixed_sizes) where sizes[i].y_ppem > sizes[best].y_ppem { best = i }
            guard FT_Select_Size(face, FT_Int(best)) == 0 else { throw fail("the font's bitmap strike does not load") }
            strike = Double(face.pointee.size.pointee.metrics.y_ppem)
            guard strike > 0 else { throw fail("the font's bitmap strike has no size") }
        }
        // The first glyphs must load (catches damaged glyph data that opening does not read).
        for gid in 0..<min(Int(f.num_glyphs), 4) {
            let flags = isScalable ? FontFace.outlineFlags : Int32(FT_LOAD_COLOR)
            if FT_Load_Glyph(face, FT_UInt(gid), flags) != 0 { throw fail("glyph \(gid) of the font does not load") }
        }

        let blob = hb_blob_create(UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self),
                                  UInt32(data.count), HB_MEMORY_MODE_READONLY, nil, nil)
        let hbFace = hb_face_create(blob, UInt32(index))
        hb_blob_destroy(blob)
        let hbFont = hb_font_create(hbFace)
        hb_face_destroy(hbFace)
        hb_font_set_scale(hbFont, Int32(upem), Int32(upem))
        hb_font_make_immutable(hbFont)

        id = FontFace.nextID.add(1, ordering: .relaxed).oldValue
        metrics = FontFace.readMetrics(face, unitsPerEm: Double(upem))
        glyphCount = Int(f.num_glyphs)
        isColorBitmap = !isScalable
        strikePPEM = strike
        familyName = f.family_name.map { String(cString: $0) } ?? ""
        hb = ImmutableHBFont(pointer: hbFont)
        bytes = FaceBytes(buffer: buffer)
        handles = Mutex(FaceHandles(library: library, ft: face))
    }

    deinit {
        hb_font_destroy(hb.pointer)
        handles.withLock { h in
            FT_Done_Face(h.ft)
            FT_Done_FreeType(h.library)
        }
        bytes.buffer.deallocate()
    }

    static let outlineFlags = Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)

    /// The glyph for a scalar, or nil when the face lacks it.
    func glyph(for scalar: Unicode.Scalar) -> UInt32? {
        var gid: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(hb.pointer, scalar.value, &gid) != 0 && gid != 0 ? gid : nil
    }

    private static func readMetrics(_ face: FT_Face, unitsPerEm: Double) -> FaceMetrics {
        let f = face.pointee
        var m = FaceMetrics(unitsPerEm: unitsPerEm, ascender: Double(f.ascender), descender: Double(f.descender),
                            lineGap: max(0, Double(f.height) - Double(f.ascender) + Double(f.descender)),
                            underlinePosition: Double(f.underline_position), underlineThickness: Double(f.underline_thickness),
                            strikeoutPosition: unitsPerEm * 0.25, strikeoutSize: Double(f.underline_thickness))
        // The underline as the post table gives it: its top edge and thickness. FreeType's
        // `underline_position` is the post value minus half the thickness (rounded towards zero),
        // for TrueType and OpenType/CFF fonts alike; the post table's own numbers are exact.
        if let post = FT_Get_Sfnt_Table(face, FT_SFNT_POST)?.assumingMemoryBound(to: TT_Postscript.self).pointee {
            m.underlinePosition = Double(post.underlinePosition); m.underlineThickness = Double(post.underlineThickness)
        } else {
            m.underlinePosition += Double(f.underline_thickness / 2)
        }
        if let hhea = FT_Get_Sfnt_Table(face, FT_SFNT_HHEA)?.assumingMemoryBound(to: TT_HoriHeader.self).pointee {
            m.ascender = Double(hhea.Ascender); m.descender = Double(hhea.Descender); m.lineGap = Double(hhea.Line_Gap)
        }
        if let os2 = FT_Get_Sfnt_Table(face, FT_SFNT_OS2)?.assumingMemoryBound(to: TT_OS2.self).pointee, os2.version != 0xFFFF {
            if os2.fsSelection & (1 << 7) != 0 {  // USE_TYPO_METRICS
                m.ascender = Double(os2.sTypoAscender); m.descender = Double(os2.sTypoDescender); m.lineGap = Double(os2.sTypoLineGap)
            }
            if os2.yStrikeoutSize > 0 {
                m.strikeoutPosition = Double(os2.yStrikeoutPosition); m.strikeoutSize = Double(os2.yStrikeoutSize)
            }
        }
        if m.underlineThickness <= 0 { m.underlineThickness = m.unitsPerEm / 20 }
        if m.strikeoutSize <= 0 { m.strikeoutSize = m.underlineThickness }
        return m
    }

    /// The sfnt table directory (of face `index` in a collection) must lie inside the file, with
    /// its tables, and hold the tables every font needs.
    static func checkTableDirectory(_ d: [UInt8], index: Int) throws(TextEngineError) {
        func u32(_ o: Int) -> Int? { o >= 0 && o + 4 <= d.count ? Int(d[o]) << 24 | Int(d[o + 1]) << 16 | Int(d[o + 2]) << 8 | Int(d[o + 3]) : nil }
        func u16(_ o: Int) -> Int? { o >= 0 && o + 2 <= d.count ? Int(d[o]) << 8 | Int(d[o + 1]) : nil }
        guard let tag = u32(0) else { throw TextEngineError("the file is too short to be a font (\(d.count) bytes)") }
        var offset = 0
        if tag == 0x7474_6366 {  // 'ttcf'
            guard let count = u32(8) else { throw TextEngineError("the font collection's header is truncated") }
            guard index >= 0, index < count else { throw TextEngineError("face index \(index) is out of range (the collection has \(count) faces)") }
            guard let o = u32(12 + 4 * index) else { throw TextEngineError("the font collection's header is truncated") }
            offset = o
        } else {
            guard [0x0001_0000, 0x4F54_544F, 0x7472_7565].contains(tag) else {
                throw TextEngineError("not a font file (no TrueType, OpenType or collection signature)")
            }
            guard index == 0 else { throw TextEngineError("face index \(index) is out of range (the file has 1 face)") }
        }
        guard let numTables = u16(offset + 4), numTables > 0 else { throw TextEngineError("the font's table directory is truncated or empty") }
        var tags: Set<Int> = []
        for i in 0..<numTables {
            let record = offset + 12 + 16 * i
            guard let t = u32(record), let start = u32(record + 8), let length = u32(record + 12) else {
                throw TextEngineError("the font's table directory is truncated")
            }
            guard start + length <= d.count else {
                throw TextEngineError("the font is truncated: a table ends at byte \(start + length) of \(d.count)")
            }
            tags.insert(t)
        }
        for (name, t) in [("head", 0x6865_6164), ("hhea", 0x6868_6561), ("hmtx", 0x686D_7478), ("maxp", 0x6D61_7870), ("cmap", 0x636D_6170)]
        where !tags.contains(t) && !(name == "head" && tags.contains(0x6268_6564)) {  // CBDT-only fonts may carry 'bhed'
            throw TextEngineError("the font has no \(name) table")
        }
    }
}
