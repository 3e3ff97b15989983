// Itemizer: one paragraph to shaped segments and layout units. A segment is
// a maximal stretch of scalars with the same run, bidi level and font (the
// run's font, or a fallback for characters it lacks), shaped by HarfBuzz on
// its own. A unit is the smallest piece lines can break or truncate at: a
// stretch that no grapheme cluster and no HarfBuzz cluster crosses (so a
// ligature or a cluster is never split); its width is its glyphs' advances
// plus the run's kerning after each grapheme cluster.
//
// Fallback: a grapheme cluster whose characters the run's font lacks takes
// the first font, in fontconfig's fallback order for the run's font, that
// has its first character; one with emoji presentation (U+FE0F, or a
// character whose default presentation is emoji) asks the colour emoji font first.
import PenumbraModel

/// A run's resolved font.
struct RunFont: Sendable {
    var face: FontFace
    var size: Double
    /// For fallback: the family, weight and slant to ask fontconfig about.
    var family: String
    var weight: Int
    var italic: Bool
}

struct Segment {
    var run: Int
    var face: FontFace
    var size: Double
    var level: UInt8
    var range: Range<Int>
    /// Glyphs in visual order; clusters are paragraph scalar indices.
    var glyphs: [ShapedGlyph]
    var unitsToPoints: Double { size / face.metrics.unitsPerEm }
}

struct LayoutUnit {
    var segment: Int
    var range: Range<Int>
    /// Indices into the segment's glyphs, ascending (visual order).
    var glyphs: [Int]
    var width: Double
    var isSpace: Bool
    var breakAfter: Bool
    var mustBreakAfter: Bool
    var graphemes: Int
}

struct Paragraph {
    var text: [Unicode.Scalar]
    var runOfScalar: [Int]
    var segments: [Segment] = []
    var units: [LayoutUnit] = []
    var rtl = false
    /// The run in force where the paragraph starts (for an empty paragraph's line box).
    var firstRun: Int
}

struct Itemizer {
    let runs: [TextRun]
    let fonts: [RunFont]
    let emoji: FontFace?

    func paragraph(_ text: [Unicode.Scalar], runs runOfScalar: [Int], firstRun: Int) -> Paragraph {
        var p = Paragraph(text: text, runOfScalar: runOfScalar, firstRun: firstRun)
        guard !text.isEmpty else { return p }
        let (levels, rtl) = ParagraphAnalysis.bidiLevels(text)
        p.rtl = rtl
        let graphemeStarts = ParagraphAnalysis.graphemeStarts(text)
        let (allowed, mandatory) = ParagraphAnalysis.breaks(text)
        let scripts = ParagraphAnalysis.scripts(text)

        // Font per grapheme cluster, then segments.
        var faceOf = [FontFace?](repeating: nil, count: text.count)
        var i = 0
        while i < text.count {
            var j = i + 1
            while !graphemeStarts[j] { j += 1 }
            let face = chooseFace(Array(text[i..<j]), run: runOfScalar[i])
            for k in i..<j { faceOf[k] = face }
            i = j
        }
        var start = 0
        for k in 1...text.count where k == text.count || runOfScalar[k] != runOfScalar[start] || levels[k] != levels[start]
            || faceOf[k]! !== faceOf[start]! || scripts[k] != scripts[start] {
            let run = runOfScalar[start]
            let face = faceOf[start]!
            let rtlSegment = levels[start] & 1 == 1
            let glyphs = FontCache.shared.shape(face, Array(text[start..<k]), rtl: rtlSegment, script: scripts[start],
                                                features: runs[run].features)
                .map { g -> ShapedGlyph in var g = g; g.cluster += start; return g }
            p.segments.append(Segment(run: run, face: face, size: fonts[run].size, level: levels[start], range: start..<k, glyphs: glyphs))
            start = k
        }

        // Units: boundaries where a grapheme starts and a HarfBuzz cluster starts (none when the
        // job was cancelled: the layout stops after its paragraphs).
        if RenderCancellation.currentIsCancelled { return p }
        for (s, segment) in p.segments.enumerated() {
            var clusterStart = Set(segment.glyphs.map(\.cluster))
            clusterStart.insert(segment.range.lowerBound)
            var glyphsAt: [Int: [Int]] = [:]
            for (g, glyph) in segment.glyphs.enumerated() { glyphsAt[glyph.cluster, default: []].append(g) }
            let k = segment.unitsToPoints
            let kerning = runs[segment.run].kerning
            var unitStart = segment.range.lowerBound
            for b in (segment.range.lowerBound + 1)...segment.range.upperBound
            where b == segment.range.upperBound || (graphemeStarts[b] && clusterStart.contains(b)) {
                var glyphs: [Int] = []
                for c in unitStart..<b { glyphs += glyphsAt[c] ?? [] }
                glyphs.sort()
                let advance = glyphs.reduce(0.0) { $0 + segment.glyphs[$1].advance } * k
                let graphemes = (unitStart..<b).filter { graphemeStarts[$0] }.count
                let isSpace = text[unitStart..<b].allSatisfy { $0.properties.isWhitespace }
                p.units.append(LayoutUnit(segment: s, range: unitStart..<b, glyphs: glyphs, width: advance + kerning * Double(graphemes),
                                          isSpace: isSpace, breakAfter: allowed[b - 1], mustBreakAfter: mandatory[b - 1] && b < text.count,
                                          graphemes: graphemes))
                unitStart = b
            }
        }
        return p
    }

    private static func ignorable(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x200C, 0x200D, 0xFE00...0xFE0F, 0xE0000...0xE007F, 0x20E3: return true
        default: return s.properties.isWhitespace && s.value < 0x80
        }
    }

    /// The font for one grapheme cluster of run `run`.
    func chooseFace(_ cluster: [Unicode.Scalar], run: Int) -> FontFace {
        let primary = fonts[run].face
        let first = cluster[0]
        let wantsEmoji = cluster.contains("\u{FE0F}") || first.properties.isEmojiPresentation
        if wantsEmoji, let emoji, emoji.glyph(for: first) != nil { return emoji }
        if cluster.allSatisfy({ Itemizer.ignorable($0) || primary.glyph(for: $0) != nil }) { return primary }
        let f = fonts[run]
        if let location = FontMatcher.shared.fallback(for: first, family: f.family, weight: f.weight, italic: f.italic),
           let face = try? FontCache.shared.face(location), face.glyph(for: first) != nil {
            return face
        }
        return primary
    }
}
