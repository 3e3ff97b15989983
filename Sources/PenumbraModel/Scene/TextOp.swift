// TextOp: a validated `drawText` op (SCENE_FORMAT.md, "Text") before any font
// is opened. The decoder merges each run's fields over the op's, so a
// TextRun says everything about its style; fonts stay requests (a family to
// match, or a `fonts` entry by name) that the TextEngine resolves. The
// request is complete: the engine needs nothing else from the scene.

/// A font as a scene asks for it: matched among installed fonts, or a file of the scene's `fonts`.
package enum FontSelector: Hashable, Sendable {
    /// fontconfig matching: family (or generic `sans-serif`, `serif`, `monospace`), weight 100...900, italic.
    case family(String, weight: Int, italic: Bool)
    /// A font file given in the scene's `fonts` map (or by the Swift API).
    case source(FontSource)
}

/// A font file's bytes and the face to use in it.
package struct FontSource: Hashable, Sendable {
    /// The whole file (TrueType, OpenType/CFF or a collection).
    package var bytes: [UInt8]
    /// The face within a collection (0 for a single font).
    package var index: Int
    package init(bytes: [UInt8], index: Int = 0) { self.bytes = bytes; self.index = index }
}

/// A font and its size in points.
package struct FontRequest: Hashable, Sendable {
    package var selector: FontSelector
    package var size: Double
    package init(selector: FontSelector, size: Double) { self.selector = selector; self.size = size }
}

/// One styled run of text, every field resolved.
package struct TextRun: Hashable, Sendable {
    package var text: String
    package var font: FontRequest
    /// Nil: the fill colour in force when the text is drawn.
    package var color: Color?
    package var underline: Bool
    package var strikethrough: Bool
    /// Extra points after each grapheme cluster.
    package var kerning: Double
    /// OpenType features on (value 1 or more) or off (0), in the order given.
    package var features: [FontFeature]

    package init(text: String, font: FontRequest, color: Color? = nil, underline: Bool = false, strikethrough: Bool = false,
                kerning: Double = 0, features: [FontFeature] = []) {
        self.text = text; self.font = font; self.color = color; self.underline = underline
        self.strikethrough = strikethrough; self.kerning = kerning; self.features = features
    }
}

/// An OpenType feature setting: a registered four-letter tag and its value (0 is off).
public struct FontFeature: Hashable, Sendable {
    /// The feature's registered four-letter OpenType tag, such as `"liga"`, `"kern"` or `"tnum"`.
    /// A scene rejects a tag that is not registered; here it is passed to HarfBuzz as it is, and a
    /// feature the font does not have changes nothing.
    public var tag: String
    /// 0 turns the feature off, 1 turns it on; larger values pick an alternate, for features that
    /// have several.
    public var value: Int
    /// Creates a feature setting: `FontFeature(tag: "tnum", value: 1)` turns tabular figures on.
    public init(tag: String, value: Int) { self.tag = tag; self.value = value }
}

/// Horizontal alignment of lines, as `NSTextAlignment`; raw values are the scene format's names.
///
/// Lines align within the width of the rectangle when the text is laid out in one, else within
/// the text's box (its widest line).
public enum TextAlignment: String, Hashable, Sendable, CaseIterable {
    /// Left for a left-to-right paragraph, right for a right-to-left one (its first strong
    /// character decides) (`NSTextAlignment.natural`); the default.
    case natural
    /// Lines start at the left edge (`NSTextAlignment.left`).
    case left
    /// Lines are centred (`NSTextAlignment.center`).
    case center
    /// Lines end at the right edge (`NSTextAlignment.right`).
    case right
    /// Every line of a paragraph but its last is stretched to the full width by widening its
    /// spaces; the last line, and a line without spaces, align as ``natural``
    /// (`NSTextAlignment.justified`).
    case justified
}

/// How lines are broken, and how text that does not fit is cut, as `NSLineBreakMode`; raw values
/// are the scene format's names.
///
/// The cutting modes act when the line limit (``TextStyle/numberOfLines``) or the height of the
/// rectangle leaves text out: the last drawn line is cut there, with "…" (U+2026) for the
/// truncating modes, as `UILabel` does.
public enum LineBreakMode: String, Hashable, Sendable, CaseIterable {
    /// Lines break at word boundaries (Unicode line break opportunities); a word wider than the
    /// line breaks between characters (`NSLineBreakMode.byWordWrapping`); the default.
    case wordWrap
    /// Lines break between any two characters (grapheme clusters) (`NSLineBreakMode.byCharWrapping`).
    case charWrap
    /// Wraps like ``wordWrap``; the last drawn line is cut off with no ellipsis
    /// (`NSLineBreakMode.byClipping`).
    case clip
    /// Wraps like ``wordWrap``; the last drawn line begins with "…" in place of what is left out
    /// (`NSLineBreakMode.byTruncatingHead`).
    case truncateHead
    /// Wraps like ``wordWrap``; the last drawn line ends with "…" in place of what is left out
    /// (`NSLineBreakMode.byTruncatingTail`).
    case truncateTail
    /// Wraps like ``wordWrap``; the last drawn line keeps its start and end with "…" in the middle
    /// (`NSLineBreakMode.byTruncatingMiddle`).
    case truncateMiddle
}

/// Vertical placement of the lines within a `rect`.
public enum TextVerticalAlignment: String, Hashable, Sendable, CaseIterable {
    /// The first line at the top of the rectangle; the default.
    case top
    /// The lines centred vertically in the rectangle, as `UILabel` places them.
    case center
    /// The last line at the bottom of the rectangle.
    case bottom
}

/// Where a text is laid out, in user space.
public enum TextPlacement: Hashable, Sendable {
    /// The top-left of the first line box; lines wrap at `maxWidth` when given.
    case at(Point, maxWidth: Double?)
    /// Lines wrap at the rect's width; only lines whose box fits in its height are drawn.
    case rect(Rect)
}

/// Paragraph-level layout settings.
public struct TextStyle: Hashable, Sendable {
    /// How lines align horizontally; ``TextAlignment/natural`` by default.
    public var alignment: TextAlignment
    /// How lines break and how text that does not fit is cut; ``LineBreakMode/wordWrap`` by default.
    public var lineBreakMode: LineBreakMode
    /// At most this many lines; 0 is no limit.
    public var numberOfLines: Int
    /// Extra space between lines, in points (`NSParagraphStyle.lineSpacing`); 0 by default.
    public var lineSpacing: Double
    /// The factor each line box's height is multiplied by (`NSParagraphStyle.lineHeightMultiple`);
    /// 1 by default. The extra height falls below the text.
    public var lineHeightMultiple: Double
    /// Where the lines go vertically when the text is laid out in a rectangle; ignored otherwise.
    /// ``TextVerticalAlignment/top`` by default.
    public var verticalAlignment: TextVerticalAlignment

    /// Creates a paragraph style; the defaults are natural alignment, word wrapping, no line
    /// limit, no extra line spacing, line height multiple 1 and top vertical alignment.
    public init(alignment: TextAlignment = .natural, lineBreakMode: LineBreakMode = .wordWrap, numberOfLines: Int = 0,
                lineSpacing: Double = 0, lineHeightMultiple: Double = 1, verticalAlignment: TextVerticalAlignment = .top) {
        self.alignment = alignment; self.lineBreakMode = lineBreakMode; self.numberOfLines = numberOfLines
        self.lineSpacing = lineSpacing; self.lineHeightMultiple = lineHeightMultiple; self.verticalAlignment = verticalAlignment
    }
}

/// Everything a TextEngine needs to lay out one text.
package struct TextLayoutRequest: Hashable, Sendable {
    package var runs: [TextRun]
    package var style: TextStyle
    package var placement: TextPlacement
    package init(runs: [TextRun], style: TextStyle = TextStyle(), placement: TextPlacement) {
        self.runs = runs; self.style = style; self.placement = placement
    }
}

/// A `drawText` op: the request, its `frame`, and the layout the engine made when the scene was decoded.
package struct DrawTextOp: Hashable, Sendable {
    /// `frame`: a resizable image drawn behind the text as its own drawImage.
    package struct Frame: Hashable, Sendable {
        package var imageName: String
        /// The finished (sliced) image.
        package var image: Image
        /// Where the frame is drawn.
        package var rect: Rect
        package init(imageName: String, image: Image, rect: Rect) { self.imageName = imageName; self.image = image; self.rect = rect }
    }

    package var request: TextLayoutRequest
    package var frame: Frame?
    package var drawing: TextDrawing
    package init(request: TextLayoutRequest, frame: Frame?, drawing: TextDrawing) {
        self.request = request; self.frame = frame; self.drawing = drawing
    }
}
