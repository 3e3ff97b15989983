// GlyphPlacer: one run's share of one line, in user space. Units go in
// visual order (rule L2 over their levels); each unit's glyphs are placed
// at HarfBuzz's advances and offsets scaled to the size (y down), then the
// unit's kerning, then the justification extra after a space. Outlines join
// the run's path; colour glyphs become image pieces; underline and
// strikethrough are one rectangle each from the run's leftmost to its
// rightmost unit on the line, from the run's font's metrics.
import PenumbraModel

enum GlyphPlacer {
    static func place(_ line: Line, run: Int, x: Double, baseline: Double, spaceExtra: Double, decorations: (Bool, Bool),
                      font: RunFont, into path: inout Path, images: inout [TextPiece]) {
        let order = ParagraphAnalysis.visualOrder(line.units.map(\.level))
        var pen = x
        var minX = Double.infinity, maxX = -Double.infinity
        for index in order {
            let unit = line.units[index]
            let start = pen
            if unit.run == run {
                let k = unit.unitsToPoints
                var gx = pen
                for g in unit.glyphs {
                    let ox = gx + g.offsetX * k, oy = baseline - g.offsetY * k
                    if unit.face.isColorBitmap {
                        if let color = FontCache.shared.colorGlyph(unit.face, g.glyph) {
                            let s = unit.size / unit.face.strikePPEM
                            let rect = Rect(x: ox + color.left * s, y: oy - color.top * s,
                                            width: Double(color.image.bitmap.width) * s, height: Double(color.image.bitmap.height) * s)
                            images.append(.image(color.image, rect))
                        }
                    } else {
                        let outline = FontCache.shared.outline(unit.face, g.glyph)
                        if !outline.isEmpty {
                            path.addPath(outline.applying(AffineTransform(a: k, b: 0, c: 0, d: -k, tx: ox, ty: oy)))
                        }
                    }
                    gx += g.advance * k
                }
            }
            pen += unit.width + (unit.isSpace ? spaceExtra : 0)
            if unit.run == run { minX = min(minX, start); maxX = max(maxX, pen) }
        }
        guard minX < maxX else { return }
        let m = font.face.metrics, k = font.size / m.unitsPerEm
        if decorations.0 {
            path.addRect(Rect(x: minX, y: baseline - m.underlinePosition * k, width: maxX - minX, height: m.underlineThickness * k))
        }
        if decorations.1 {
            path.addRect(Rect(x: minX, y: baseline - m.strikeoutPosition * k, width: maxX - minX, height: m.strikeoutSize * k))
        }
    }
}
