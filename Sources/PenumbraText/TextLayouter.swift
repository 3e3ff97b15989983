// TextLayouter: SCENE_FORMAT.md's "Text" layout, start to end. Runs are
// resolved to fonts; the text is split into paragraphs at "\n"; each
// paragraph is itemized (bidi, fallback, shaping) and broken into lines;
// the line limit and the rect's height choose the lines drawn, and the last
// one is clipped or truncated with "…" when text is left out; lines are
// aligned, stacked (line box, lineSpacing, verticalAlignment) and turned
// into pieces: for each run, the union of its glyph outlines with its
// underline and strikethrough rectangles as one path, then its colour
// glyphs. Positions are HarfBuzz's, unrounded, in user space. What could not
// be drawn as asked (an unknown family, characters no font has) becomes the
// drawing's warnings.
import PenumbraModel

/// A finished layout: what to draw and where each line went.
struct LaidOutText {
    var drawing: TextDrawing
    /// Each drawn line.
    var lines: [TextLayout.Line]
}

struct TextLayouter {
    let request: TextLayoutRequest

    func layout() throws(TextEngineError) -> LaidOutText {
        let runs = request.runs
        guard !runs.isEmpty else { throw TextEngineError("a text needs at least one run (an empty one draws nothing)") }
        var warnings = TextWarnings()
        var fonts: [RunFont] = []
        for run in runs { fonts.append(try TextLayouter.resolve(run.font, warnings: &warnings)) }
        let needsEmoji = runs.contains { $0.text.unicodeScalars.contains { $0.properties.isEmojiPresentation || $0.value == 0xFE0F } }
        let emoji = needsEmoji ? FontMatcher.shared.match(family: "emoji", weight: 400, italic: false).flatMap { try? FontCache.shared.face($0) } : nil
        let itemizer = Itemizer(runs: runs, fonts: fonts, emoji: emoji)
        let style = request.style

        // Paragraphs.
        var paragraphs: [Paragraph] = []
        var text: [Unicode.Scalar] = [], owners: [Int] = []
        var firstRun = 0
        for (r, run) in runs.enumerated() {
            for scalar in run.text.unicodeScalars {
                if scalar == "\n" {
                    paragraphs.append(itemizer.paragraph(text, runs: owners, firstRun: owners.first ?? firstRun))
        // A cancelled job's shaping may have stopped part way: nothing more is laid out.
        if RenderCancellation.currentIsCancelled { throw TextEngineError("the layout was cancelled") }
                    text = []; owners = []; firstRun = r
                } else {
                    text.append(scalar); owners.append(r)
                }
            }
            if text.isEmpty { firstRun = r }
        }
        paragraphs.append(itemizer.paragraph(text, runs: owners, firstRun: owners.first ?? firstRun))
        // A cancelled job's shaping may have stopped part way: nothing more is laid out.
        if RenderCancellation.currentIsCancelled { throw TextEngineError("the layout was cancelled") }

        let width: Double
        var rect: Rect?
        var origin: Point
        switch request.placement {
        case .rect(let r): width = r.width; rect = r; origin = r.origin
        case .at(let p, let maxWidth): width = maxWidth ?? .infinity; origin = p
        }
        let kind: LineBreakModeKind = style.lineBreakMode == .charWrap ? .character : .word

        var broken: [BrokenLine] = []
        for (i, p) in paragraphs.enumerated() { broken += LineBreaker.lines(p, index: i, width: width, mode: kind) }
        func fallbackFont(_ p: Paragraph) -> (FontFace, Double) { (fonts[p.firstRun].face, fonts[p.firstRun].size) }
        var lines = broken.map { b in
            Line.make(paragraphs[b.paragraph], b.units, runs: runs, fallback: fallbackFont(paragraphs[b.paragraph]),
                      endsParagraph: b.units.upperBound == paragraphs[b.paragraph].units.count)
        }

        // Which lines are drawn.
        var visible = lines.count
        if style.numberOfLines > 0 { visible = min(visible, style.numberOfLines) }
        if let rect {
            var used = 0.0, fit = 0
            for line in lines.prefix(visible) {
                let h = line.box(multiple: style.lineHeightMultiple).height
                let next = used + (fit > 0 ? style.lineSpacing : 0) + h
                guard next <= rect.height + 1e-9 else { break }
                used = next; fit += 1
            }
            visible = fit
        }
        if visible < lines.count, visible > 0, style.lineBreakMode != .wordWrap, style.lineBreakMode != .charWrap {
            let last = broken[visible - 1]
            let p = paragraphs[last.paragraph]
            var line = Line.make(p, last.units.lowerBound..<p.units.count, runs: runs, fallback: fallbackFont(p), endsParagraph: true)
            let laterText = broken[visible...].contains { $0.paragraph > last.paragraph }
            line.truncate(to: width, mode: style.lineBreakMode, force: laterText) { run in
                TextLayouter.ellipsis(run: run, runs: runs, fonts: fonts, itemizer: itemizer)
            }
            line.refreshFonts()
            lines[visible - 1] = line
        }
        lines.removeSubrange(visible...)
        for line in lines { for unit in line.units { warnings.noteMissing(TextWarnings.missing(in: unit)) } }

        // Stacking and alignment.
        let boxes = lines.map { $0.box(multiple: style.lineHeightMultiple) }
        let totalHeight = boxes.reduce(0) { $0 + $1.height } + style.lineSpacing * Double(max(0, lines.count - 1))
        let widest = lines.reduce(0) { max($0, $1.width) }
        let container = rect?.width ?? widest
        if let rect {
            switch style.verticalAlignment {
            case .top: break
            case .center: origin.y += (rect.height - totalHeight) / 2
            case .bottom: origin.y += rect.height - totalHeight
            }
        }
        var placed: [(line: Line, x: Double, baseline: Double, spaceExtra: Double)] = []
        var top = origin.y
        var minX = Double.infinity
        for (line, box) in zip(lines, boxes) {
            var alignment = style.alignment
            var spaceExtra = 0.0
            if alignment == .justified {
                let spaces = line.units.filter(\.isSpace).count
                if !line.endsParagraph, spaces > 0, container.isFinite, container > line.width {
                    spaceExtra = (container - line.width) / Double(spaces)
                }
                alignment = .natural
            }
            if alignment == .natural { alignment = line.rtl ? .right : .left }
            let slack = spaceExtra > 0 || !container.isFinite ? 0 : container - line.width
            let x: Double
            switch alignment {
            case .center: x = origin.x + slack / 2
            case .right: x = origin.x + slack
            default: x = origin.x
            }
            minX = min(minX, x)
            placed.append((line, x, top + box.ascent, spaceExtra))
            top += box.height + style.lineSpacing
        }
        if !minX.isFinite { minX = origin.x }
        if rect == nil { minX = origin.x }

        // Pieces, run by run.
        var pieces: [TextPiece] = []
        var lineInfo: [TextLayout.Line] = []
        var topY = origin.y
        for (entry, box) in zip(placed, boxes) {
            let lineBox = Rect(x: entry.x, y: topY, width: entry.line.width + entry.spaceExtra * Double(entry.line.units.filter(\.isSpace).count),
                               height: box.height)
            var families: [String] = []
            for u in entry.line.units where !families.contains(u.face.familyName) { families.append(u.face.familyName) }
            lineInfo.append(TextLayout.Line(box: lineBox, baseline: entry.baseline, text: entry.line.logicalText,
                                            visualText: entry.line.visualText, fontFamilies: families))
            topY += box.height + style.lineSpacing
        }
        for (r, run) in runs.enumerated() {
            var path = Path()
            var images: [TextPiece] = []
            for entry in placed {
                GlyphPlacer.place(entry.line, run: r, x: entry.x, baseline: entry.baseline, spaceExtra: entry.spaceExtra,
                                  decorations: (run.underline, run.strikethrough), font: fonts[r], into: &path, images: &images)
            }
            if !path.isEmpty { pieces.append(.fill(path, run.color)) }
            pieces += images
        }
        let box = Rect(x: minX, y: origin.y, width: widest, height: totalHeight)
        return LaidOutText(drawing: TextDrawing(box: box, pieces: pieces, lineCount: lines.count,
                                                   warnings: warnings.messages), lines: lineInfo)
    }

    /// A run's font: fontconfig's match for a family (a family no installed font has is drawn in
    /// the generic family its name suggests, with a warning), or the scene's file.
    static func resolve(_ request: FontRequest, warnings: inout TextWarnings) throws(TextEngineError) -> RunFont {
        switch request.selector {
        case .family(let asked, let weight, let italic):
            var family = asked
            if !FontMatcher.shared.familyExists(asked) {
                family = FontMatcher.genericFamily(suggestedBy: asked)
                warnings.noteSubstitution(asked, by: family)
            }
            guard let location = FontMatcher.shared.match(family: family, weight: weight, italic: italic) else {
                throw TextEngineError("no installed font matches the family \(family)")
            }
            return RunFont(face: try FontCache.shared.face(location), size: request.size, family: family, weight: weight, italic: italic)
        case .source(let source):
            let face = try FontCache.shared.face(source)
            return RunFont(face: face, size: request.size, family: face.familyName.isEmpty ? "sans-serif" : face.familyName,
                           weight: 400, italic: false)
        }
    }

    /// "…" shaped in the style of run `run`.
    static func ellipsis(run: Int, runs: [TextRun], fonts: [RunFont], itemizer: Itemizer) -> LineUnit {
        let face = itemizer.chooseFace(["\u{2026}"], run: run)
        let glyphs = FontCache.shared.shape(face, ["\u{2026}"], rtl: false, features: runs[run].features)
        let size = fonts[run].size
        let width = glyphs.reduce(0) { $0 + $1.advance } * size / face.metrics.unitsPerEm + runs[run].kerning
        return LineUnit(run: run, face: face, size: size, level: 0, glyphs: glyphs, width: width, isSpace: false, graphemes: 1,
                        kerning: runs[run].kerning, text: ["\u{2026}"])
    }
}
