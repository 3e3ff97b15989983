// LineUnit: a unit as a line holds it, self-contained (its font, level and
// glyphs), so that the ellipsis of a truncated line is just another unit.
// Lines are built from units here, truncated here, and measured here (the
// line-box rule of SCENE_FORMAT.md: the largest ascender - descender + line
// gap of the fonts on the line, times lineHeightMultiple; the baseline at
// the largest ascender).
import PenumbraModel

struct LineUnit {
    var run: Int
    var face: FontFace
    var size: Double
    var level: UInt8
    /// Visual order, font units.
    var glyphs: [ShapedGlyph]
    var width: Double
    var isSpace: Bool
    var graphemes: Int
    var kerning: Double
    /// The unit's characters, logical order.
    var text: [Unicode.Scalar]
    var unitsToPoints: Double { size / face.metrics.unitsPerEm }
}

struct Line {
    /// Logical order; spaces at the end already dropped.
    var units: [LineUnit]
    var rtl: Bool
    /// Last line of its paragraph (justification leaves it alone).
    var endsParagraph: Bool
    /// Fonts whose metrics make the line box (the line's, or the run's where the line is empty).
    var fonts: [(FontFace, Double)]
    var width: Double { units.reduce(0) { $0 + $1.width } }

    /// The line's characters in logical order.
    var logicalText: String { String(String.UnicodeScalarView(units.flatMap(\.text))) }
    /// The line's characters in visual order, left to right (right-to-left units reversed).
    var visualText: String {
        let order = ParagraphAnalysis.visualOrder(units.map(\.level))
        return String(String.UnicodeScalarView(order.flatMap { units[$0].level & 1 == 1 ? units[$0].text.reversed() : units[$0].text }))
    }

    /// Height of the line box and the baseline's distance below its top.
    func box(multiple: Double) -> (height: Double, ascent: Double) {
        var height = 0.0, ascent = 0.0
        for (face, size) in fonts {
            let k = size / face.metrics.unitsPerEm, m = face.metrics
            height = max(height, (m.ascender - m.descender + m.lineGap) * k)
            ascent = max(ascent, m.ascender * k)
        }
        return (height * multiple, ascent)
    }
}

extension Line {
    /// The units of `p` in `range`, with spaces at the end dropped.
    static func make(_ p: Paragraph, _ range: Range<Int>, runs: [TextRun], fallback: (FontFace, Double), endsParagraph: Bool) -> Line {
        var units = range.map { LineUnit(p, $0, runs) }
        var fonts: [(FontFace, Double)] = []
        for u in units where !fonts.contains(where: { $0.0 === u.face && $0.1 == u.size }) { fonts.append((u.face, u.size)) }
        if fonts.isEmpty { fonts = [fallback] }
        while units.last?.isSpace == true { units.removeLast() }
        return Line(units: units, rtl: p.rtl, endsParagraph: endsParagraph, fonts: fonts)
    }

    /// Truncates this line (which holds the rest of its paragraph) to `width` by `mode`, adding
    /// `ellipsis` (made for the run it touches) when `force` or when text is cut.
    mutating func truncate(to width: Double, mode: LineBreakMode, force: Bool, ellipsis: (Int) -> LineUnit) {
        let limit = width + 1e-9
        if mode == .clip {
            var used = 0.0, keep = 0
            while keep < units.count, used + units[keep].width <= limit { used += units[keep].width; keep += 1 }
            units.removeSubrange(keep...)
            return
        }
        let total = Line.totalWidth(units[...])
        if !force, total <= limit { return }
        func trimmed(_ head: ArraySlice<LineUnit>, _ tail: ArraySlice<LineUnit>) -> ([LineUnit], [LineUnit]) {
            var h = Array(head), t = Array(tail)
            while h.last?.isSpace == true { h.removeLast() }
            while t.first?.isSpace == true { t.removeFirst() }
            return (h, t)
        }
        let n = units.count
        var best: [LineUnit] = []
        // The largest k whose kept clusters and ellipsis fit.
        for k in stride(from: n, through: 0, by: -1) {
            let (head, tail): ([LineUnit], [LineUnit])
            switch mode {
            case .truncateHead: (head, tail) = trimmed([], units[(n - k)...])
            case .truncateMiddle: (head, tail) = trimmed(units[..<((k + 1) / 2)], units[(n - k / 2)...])
            default: (head, tail) = trimmed(units[..<k], [])
            }
            if k == n, !force, mode != .truncateTail { continue }
            let touching = head.last?.run ?? tail.first?.run ?? units.first?.run ?? 0
            var e = ellipsis(touching)
            e.level = head.last?.level ?? tail.first?.level ?? (rtl ? 1 : 0)
            let candidate = head + [e] + tail
            if Line.totalWidth(candidate[...]) <= limit || k == 0 { best = candidate; break }
        }
        units = best
    }

    private static func totalWidth(_ units: ArraySlice<LineUnit>) -> Double { units.reduce(0) { $0 + $1.width } }

    /// Adds the ellipsis's font to the line box's fonts.
    mutating func refreshFonts() {
        for u in units where !fonts.contains(where: { $0.0 === u.face && $0.1 == u.size }) { fonts.append((u.face, u.size)) }
    }
}

extension LineUnit {
    init(_ p: Paragraph, _ index: Int, _ runs: [TextRun]) {
        let u = p.units[index], s = p.segments[u.segment]
        self.init(run: s.run, face: s.face, size: s.size, level: s.level, glyphs: u.glyphs.map { s.glyphs[$0] }, width: u.width,
                  isSpace: u.isSpace, graphemes: u.graphemes, kerning: runs[s.run].kerning,
                  text: Array(p.text[u.range]))
    }
}
