// The Swift API of text, UIKit's in spirit: a Font (a family matched by
// fontconfig, or a font file), an AttributedText of styled runs, and a
// TextLayout that measures (sizeWithFont:constrainedToSize:lineBreakMode:)
// and holds the lines and the drawing; GraphicsContext.draw(_:at:) and
// draw(_:in:) lay out and draw in one call, as NSString's drawing does. All
// of it builds the same TextLayoutRequest a scene's drawText makes, so the
// API and scenes draw the same pixels.
import Foundation
import PenumbraModel

/// A font: a family matched among installed fonts, or a font file; and a size in points.
public struct Font: Hashable, Sendable {
    package var selector: FontSelector
    /// The size in points (the em size, as `UIFont.pointSize`); 17 by default.
    public var size: Double

    /// A family (or `sans-serif`, `serif`, `monospace`), weight 100...900 (400 regular, 700 bold)
    /// and slant, matched by fontconfig among the installed fonts when the text is laid out. A
    /// family no installed font has is not an error: it lays out in the generic family its name
    /// suggests, with a warning (`TextLayout.warnings`). The defaults are sans-serif, 17 points,
    /// regular (400), upright.
    public init(family: String = "sans-serif", size: Double = 17, weight: Int = 400, italic: Bool = false) {
        selector = .family(family, weight: weight, italic: italic); self.size = size
    }

    /// A font file (TrueType, OpenType/CFF or a collection with `index`, the face's 0-based
    /// index); throws `TextEngineError` when the file cannot be read or is not a usable font.
    public init(file path: String, index: Int = 0, size: Double) throws(TextEngineError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw TextEngineError("cannot read the font file \(path)") }
        let source = FontSource(bytes: [UInt8](data), index: index)
        _ = try FontCache.shared.face(source)
        selector = .source(source); self.size = size
    }

    /// The system font at a size (UIFont.systemFont(ofSize:)): the generic sans-serif family.
    public static func system(size: Double, weight: Int = 400) -> Font { Font(family: "sans-serif", size: size, weight: weight) }

    /// This font at another size.
    public func withSize(_ size: Double) -> Font { var f = self; f.size = size; return f }

    var request: FontRequest { FontRequest(selector: selector, size: size) }
}

/// Text made of styled runs (NSAttributedString's role).
public struct AttributedText: Hashable, Sendable {
    /// One run: its text and style; a nil colour is the context's fill colour.
    ///
    /// Each run is shaped on its own: no kerning or ligature forms across a run boundary.
    public struct Run: Hashable, Sendable {
        /// The run's characters; `\n` starts a new paragraph.
        public var text: String
        /// The font the run is set in (characters it lacks come from a fallback font).
        public var font: Font
        /// The fill colour of the run's glyphs and lines; nil uses the context's fill colour when the
        /// text is drawn.
        public var color: Color?
        /// Draws a line under the run, placed and sized by the font's underline metrics
        /// (`NSAttributedString.Key.underlineStyle`).
        public var underline: Bool
        /// Draws a line through the run, placed and sized by the font's strikeout metrics
        /// (`NSAttributedString.Key.strikethroughStyle`).
        public var strikethrough: Bool
        /// Extra points after each grapheme cluster, the last one's included
        /// (`NSAttributedString.Key.kern`); 0 by default.
        public var kerning: Double
        /// OpenType features applied on top of the font's defaults (kerning, ligatures, mark
        /// positioning), in the order given.
        public var features: [FontFeature]
        /// Creates a run; by default it uses ``Font/init(family:size:weight:italic:)``'s defaults
        /// (sans-serif, 17 points), the context's fill colour, no underline or strikethrough, no extra
        /// kerning and no feature settings.
        public init(_ text: String, font: Font = Font(), color: Color? = nil, underline: Bool = false, strikethrough: Bool = false,
                    kerning: Double = 0, features: [FontFeature] = []) {
            self.text = text; self.font = font; self.color = color; self.underline = underline
            self.strikethrough = strikethrough; self.kerning = kerning; self.features = features
        }
    }

    /// The runs, in logical (reading) order.
    public var runs: [Run]
    /// Text made of these runs, in logical (reading) order.
    public init(runs: [Run]) { self.runs = runs }
    /// A single run.
    public init(_ text: String, font: Font = Font(), color: Color? = nil) { runs = [Run(text, font: font, color: color)] }

    var textRuns: [TextRun] {
        runs.map { TextRun(text: $0.text, font: $0.font.request, color: $0.color, underline: $0.underline,
                           strikethrough: $0.strikethrough, kerning: $0.kerning, features: $0.features) }
    }
}

/// A laid-out text: its measured size, its lines and what drawing it draws.
public struct TextLayout: Sendable {
    /// One drawn line.
    public struct Line: Hashable, Sendable {
        /// The line's box: aligned x, width without trailing spaces, line-box height.
        public var box: Rect
        /// The baseline's y.
        public var baseline: Double
        /// The characters drawn, logical order (a truncated line includes its "…").
        public var text: String
        /// The characters in visual order, left to right.
        public var visualText: String
        /// Family names of the fonts the line uses, fallbacks included.
        public var fontFamilies: [String]
    }

    /// The text's box: its top-left and the widest line by the lines' total height.
    public var box: Rect { drawing.box }
    /// The measured size (sizeWithFont:constrainedToSize:lineBreakMode:).
    public var size: Size { drawing.box.size }
    /// The lines that are drawn, top to bottom (lines cut off by the line limit or the
    /// rectangle's height are not included).
    public let lines: [Line]
    /// The pieces GraphicsContext.draw(_: TextDrawing) draws.
    package let drawing: TextDrawing
    /// What was drawn otherwise than asked: characters no installed font has (drawn as the
    /// font's missing-glyph box), a family no installed font has (drawn in the generic family its
    /// name suggests). Empty when the text was drawn as asked.
    public var warnings: [String] { drawing.warnings }

    /// Lays out `text` at a placement with a paragraph style.
    public init(_ text: AttributedText, placement: TextPlacement, style: TextStyle = TextStyle()) throws(TextEngineError) {
        let out = try TextLayouter(request: TextLayoutRequest(runs: text.textRuns, style: style, placement: placement)).layout()
        drawing = out.drawing; lines = out.lines
    }

    /// The size a string takes in a font within `size` (`.infinity` for no limit), as
    /// `sizeWithFont:constrainedToSize:lineBreakMode:` measures it.
    public static func size(of string: String, font: Font, constrainedTo size: Size,
                            lineBreakMode: LineBreakMode = .wordWrap) throws(TextEngineError) -> Size {
        let placement: TextPlacement = size.height.isFinite
            ? .rect(Rect(x: 0, y: 0, width: size.width, height: size.height))
            : .at(Point(0, 0), maxWidth: size.width.isFinite ? size.width : nil)
        return try TextLayout(AttributedText(string, font: font), placement: placement, style: TextStyle(lineBreakMode: lineBreakMode)).size
    }
}

extension GraphicsContext {
    /// Draws text with its first line box's top-left at `point`, wrapping at `maxWidth` when given
    /// (NSString draw(at:withAttributes:)). Returns the layout.
    @discardableResult
    public func draw(_ text: AttributedText, at point: Point, maxWidth: Double? = nil,
                     style: TextStyle = TextStyle()) throws(TextEngineError) -> TextLayout {
        let layout = try TextLayout(text, placement: .at(point, maxWidth: maxWidth), style: style)
        draw(layout.drawing)
        return layout
    }

    /// Draws text laid out in `rect` (NSString draw(in:withAttributes:), UILabel). Returns the layout.
    @discardableResult
    public func draw(_ text: AttributedText, in rect: Rect, style: TextStyle = TextStyle()) throws(TextEngineError) -> TextLayout {
        let layout = try TextLayout(text, placement: .rect(rect), style: style)
        draw(layout.drawing)
        return layout
    }
}
