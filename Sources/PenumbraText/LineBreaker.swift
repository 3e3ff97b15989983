// LineBreaker: a paragraph's units into lines, greedily, as UIKit does.
// `wordWrap` (and `clip` and the truncation modes, which wrap like it) ends
// a line at the last UAX #14 opportunity before the first unit that does not
// fit; a word wider than the line breaks between grapheme clusters (units).
// `charWrap` breaks before any unit that does not fit. Spaces never make a
// line overflow (spaces at the end of a line count in no width), and every
// line holds at least one unit.

/// A range of a paragraph's units forming one line.
struct BrokenLine {
    var paragraph: Int
    var units: Range<Int>
}

enum LineBreaker {
    static func lines(_ p: Paragraph, index: Int, width: Double, mode: LineBreakModeKind) -> [BrokenLine] {
        let units = p.units
        guard !units.isEmpty else { return [BrokenLine(paragraph: index, units: 0..<0)] }
        let limit = width + 1e-9
        var lines: [BrokenLine] = []
        var start = 0
        while start < units.count {
            var used = 0.0
            var lastBreak: Int?
            var end = units.count
            var i = start
            while i < units.count {
                let u = units[i]
                if !u.isSpace, i > start, used + u.width > limit {
                    end = (mode == .word ? lastBreak.map { $0 + 1 } : nil) ?? i
                    break
                }
                used += u.width
                if u.mustBreakAfter { end = i + 1; break }
                if u.breakAfter { lastBreak = i }
                i += 1
            }
            lines.append(BrokenLine(paragraph: index, units: start..<end))
            start = end
        }
        return lines
    }
}

/// Breaking proper: at word opportunities or at any cluster.
enum LineBreakModeKind { case word, character }
