// Text in the core: the core knows no fonts. It defines what a laid-out text
// IS (a TextDrawing: fills of glyph outlines and colour-glyph images, in
// user space, with the text's box) and the one hook through which text is
// laid out (TextEngine), which the public `Penumbra` module wires to
// PenumbraText (FreeType, HarfBuzz, fontconfig, FriBidi, libunibreak).
// Because glyphs arrive here as Paths and Images, they go through the same
// coverage, compositing and shadow code as every other op, and the CPU/GPU
// byte identity of text holds by construction.
//
// Drawing follows SCENE_FORMAT.md ("Text", Drawing): one transparency layer;
// in it each run fills the union of its glyph outlines and lines as one
// nonzero path in its colour, then draws its colour glyphs, all with normal
// blending; the layer is composited with the context's alpha, blend mode,
// shadow and clip. The layer is always made (skipping it is allowed only
// where the bytes stay the same, an optimisation not taken yet).

/// One drawing step of a laid-out text, in user space.
public enum TextPiece: Hashable, Sendable {
    /// A run's glyph outlines plus its underline and strikethrough rectangles, filled with the
    /// nonzero rule; nil colour is the fill colour in force when the text is drawn.
    case fill(Path, Color?)
    /// A colour glyph (an emoji bitmap) drawn into a rectangle.
    case image(Image, Rect)
}

/// A laid-out text: what to draw and the box it occupies.
public struct TextDrawing: Hashable, Sendable {
    /// The text's box in user space: its top-left and the widest line by the lines' total height
    /// (sizeWithFont:constrainedToSize:lineBreakMode:).
    public var box: Rect
    /// The pieces in drawing order.
    public var pieces: [TextPiece]
    /// How many lines were laid out and drawn.
    public var lineCount: Int

    public init(box: Rect, pieces: [TextPiece], lineCount: Int) {
        self.box = box; self.pieces = pieces; self.lineCount = lineCount
    }
}

/// The hook through which the core lays out text. The `Penumbra` module provides the standard
/// engine (`TextEngines.standard`); the scene decoder calls it so that every font problem rejects
/// the scene before anything is drawn.
public protocol TextEngine: Sendable {
    /// Checks that `source` is a font the engine can use; throws a message.
    func checkFont(_ source: FontSource) throws(TextEngineError)
    /// Checks that an installed font family of this name exists (the generic families
    /// `sans-serif`, `serif` and `monospace` always do); throws a message.
    func checkFamily(_ family: String) throws(TextEngineError)
    /// Lays out a text.
    func layout(_ request: TextLayoutRequest) throws(TextEngineError) -> TextDrawing
}

/// A text engine's complaint, without a place: the caller adds it.
public struct TextEngineError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension GraphicsContext {
    /// Draws a laid-out text as SCENE_FORMAT.md says: one transparency layer holding each piece
    /// with normal blending, composited with the context's alpha, blend mode, shadow and clip.
    public func draw(_ text: TextDrawing) {
        guard !text.pieces.isEmpty else { return }
        let color = state.fillColor
        beginTransparencyLayer()
        for piece in text.pieces {
            switch piece {
            case .fill(let path, let pieceColor):
                setFillColor(pieceColor ?? color)
                fill(path, using: .nonzero)
            case .image(let image, let rect):
                draw(image, in: rect)
            }
        }
        endTransparencyLayer()
    }
}
