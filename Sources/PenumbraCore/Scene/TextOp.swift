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
    public var tag: String
    public var value: Int
    public init(tag: String, value: Int) { self.tag = tag; self.value = value }
}

/// Horizontal alignment of lines (NSTextAlignment).
public enum TextAlignment: String, Hashable, Sendable, CaseIterable {
    case natural, left, center, right, justified
}

/// NSLineBreakMode.
public enum LineBreakMode: String, Hashable, Sendable, CaseIterable {
    case wordWrap, charWrap, clip, truncateHead, truncateTail, truncateMiddle
}

/// Vertical placement of the lines within a `rect`.
public enum TextVerticalAlignment: String, Hashable, Sendable, CaseIterable {
    case top, center, bottom
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
    public var alignment: TextAlignment
    public var lineBreakMode: LineBreakMode
    /// At most this many lines; 0 is no limit.
    public var numberOfLines: Int
    public var lineSpacing: Double
    public var lineHeightMultiple: Double
    public var verticalAlignment: TextVerticalAlignment

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
