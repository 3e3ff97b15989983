// TextNote: the seed's self-sizing note as an ImageComponent. The label is
// measured with a width limit (sizeWithFont:constrainedToSize:lineBreakMode:),
// and a resizable chrome grows around it by its padding, so the note's
// natural size is the text's size plus the padding. It draws the same
// pixels as a scene's `drawText` with `at` and a `frame`.

/// A resizable chrome sized to the text it holds.
public struct TextNote: ImageComponent {
    /// The note's text.
    public let text: AttributedText
    /// The chrome, usually resizable (`Image.resizable(capInsets:mode:)`).
    public let chrome: Image
    /// Space between the chrome's edges and the text.
    public let padding: EdgeInsets
    /// The text's width limit (nil: no limit).
    public let maxWidth: Double?
    /// The paragraph style the text is laid out with.
    public let style: TextStyle
    /// The measured text.
    public let layout: TextLayout

    /// Lays out `text` (wrapping at `maxWidth` points, or unbounded when nil) with `style`, and
    /// makes a note whose natural ``size`` is the text's size grown by `padding` (points).
    /// Throws `TextEngineError` when the text cannot be laid out (a font that cannot be used).
    public init(_ text: AttributedText, chrome: Image, padding: EdgeInsets, maxWidth: Double?,
                style: TextStyle = TextStyle()) throws(TextEngineError) {
        self.text = text; self.chrome = chrome; self.padding = padding; self.maxWidth = maxWidth; self.style = style
        layout = try TextLayout(text, placement: .at(Point(0, 0), maxWidth: maxWidth), style: style)
    }

    /// The text's size grown by the padding.
    public var size: Size {
        Size(width: layout.size.width + padding.left + padding.right, height: layout.size.height + padding.top + padding.bottom)
    }

    /// Draws the chrome into `rect` and the text inside it by the padding.
    public func draw(in rect: Rect, context: GraphicsContext) {
        context.draw(chrome, in: rect)
        context.saveGState()
        context.translateBy(x: rect.minX + padding.left, y: rect.minY + padding.top)
        context.draw(layout.drawing)
        context.restoreGState()
    }
}
