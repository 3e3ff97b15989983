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
// shadow and clip. Skipping the layer is allowed only where the bytes stay
// the same, which (with 8-bit layers) is nowhere in general, so the layer is
// always made; but a layer covers the whole plane, and compositing it costs
// the whole plane. So the layer is bounded by a device-space clip: a
// whole-pixel rectangle around its content and its shadow. Inside it the
// clip's coverage is exactly 1 (and multiplies an outer clip exactly);
// outside it the layer is transparent, and for every blend mode whose result
// over a transparent source is the backdrop (all but clear, copy, sourceIn,
// sourceOut, destinationIn and destinationAtop) compositing it there changes
// nothing. So the bytes are those of the unbounded layer (a test checks it).

/// One drawing step of a laid-out text, in user space.
package enum TextPiece: Hashable, Sendable {
    /// A run's glyph outlines plus its underline and strikethrough rectangles, filled with the
    /// nonzero rule; nil colour is the fill colour in force when the text is drawn.
    case fill(Path, Color?)
    /// A colour glyph (an emoji bitmap) drawn into a rectangle.
    case image(Image, Rect)
}

/// A laid-out text: what to draw and the box it occupies.
package struct TextDrawing: Hashable, Sendable {
    /// The text's box in user space: its top-left and the widest line by the lines' total height
    /// (sizeWithFont:constrainedToSize:lineBreakMode:).
    package var box: Rect
    /// The pieces in drawing order.
    package var pieces: [TextPiece]
    /// How many lines were laid out and drawn.
    package var lineCount: Int
    /// What the layout could not do as asked but drew anyway, without a place (the caller adds
    /// one): characters no installed font has, a family no installed font has.
    package var warnings: [String]

    /// A drawing from its parts.
    package init(box: Rect, pieces: [TextPiece], lineCount: Int, warnings: [String] = []) {
        self.box = box; self.pieces = pieces; self.lineCount = lineCount; self.warnings = warnings
    }
}

/// The hook through which the core lays out text. The `Penumbra` module provides the standard
/// engine (`TextEngines.standard`); the scene decoder calls it so that every font problem rejects
/// the scene before anything is drawn.
package protocol TextEngine: Sendable {
    /// Checks that `source` is a font the engine can use; throws a message.
    func checkFont(_ source: FontSource) throws(TextEngineError)
    /// Checks that a family name can name a font; throws a message for one that cannot (an empty
    /// name). A family no installed font has is not an error: the layout draws it in the generic
    /// family its name suggests and says so in the drawing's `warnings`.
    func checkFamily(_ family: String) throws(TextEngineError)
    /// Lays out a text; what it could not do as asked is in the drawing's `warnings`.
    func layout(_ request: TextLayoutRequest) throws(TextEngineError) -> TextDrawing
}

/// Why a font or a text could not be used: a font file that cannot be read or does not parse,
/// a face index out of range, a family that no installed font matches. The message names no
/// place; a scene decoder adds where in the scene the problem is.
public struct TextEngineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in words; also the error's ``description``.
    public var message: String
    /// Creates the error with its message.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension GraphicsContext {
    /// Draws a laid-out text as SCENE_FORMAT.md says: one transparency layer holding each piece
    /// with normal blending, composited with the context's alpha, blend mode, shadow and clip.
    package func draw(_ text: TextDrawing) { draw(text, boundingTheLayer: true) }

    /// Blend modes whose result over a fully transparent source is the backdrop.
    package static let modesKeepingBackdrop: Set<BlendMode> = Set(BlendMode.allCases).subtracting(
        [.clear, .copy, .sourceIn, .sourceOut, .destinationIn, .destinationAtop])

    /// `draw(_:)`, with the bounding clip optional (for the test that proves it changes no byte).
    package func draw(_ text: TextDrawing, boundingTheLayer: Bool) {
        if recorded(.drawText(text, boundingTheLayer: boundingTheLayer)) { return }
        guard !text.pieces.isEmpty else { return }
        let color = state.fillColor
        let bounded = boundingTheLayer && GraphicsContext.modesKeepingBackdrop.contains(state.blendMode)
        if bounded, let bounds = deviceBounds(of: text) {
            saveGState()
            list.clips.append(ClipNode(parent: state.clip, shape: DeviceShape(contours: [[
                Point(bounds.minX, bounds.minY), Point(bounds.maxX, bounds.minY), Point(bounds.maxX, bounds.maxY),
                Point(bounds.minX, bounds.maxY)]], rule: .nonzero)))
            state.clip = list.clips.count - 1
        } else if bounded {
            return  // nothing has a finite extent: nothing to draw
        }
        defer { if bounded { restoreGState() } }
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

extension GraphicsContext {
    /// A whole-pixel device rectangle holding every piece (as transformed by the CTM) and its
    /// shadow, with a margin; nil when nothing is finite.
    func deviceBounds(of text: TextDrawing) -> Rect? {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        func add(_ r: Rect) {
            for p in [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)] {
                let d = state.ctm.apply(p)
                x0 = min(x0, d.x); y0 = min(y0, d.y); x1 = max(x1, d.x); y1 = max(y1, d.y)
            }
        }
        for piece in text.pieces {
            switch piece {
            case .fill(let path, _): if let r = path.controlPointBounds { add(r) }
            case .image(_, let rect): add(rect)
            }
        }
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return nil }
        x0 -= 2; y0 -= 2; x1 += 2; y1 += 2
        if let shadow = state.shadow {
            let s = list.scale
            let radius = (3 * shadow.blur * s / 2).rounded(.up) + 2
            let dx = shadow.offset.width * s, dy = shadow.offset.height * s
            guard radius.isFinite, dx.isFinite, dy.isFinite else { return nil }
            x0 = min(x0, x0 + dx) - radius; y0 = min(y0, y0 + dy) - radius
            x1 = max(x1, x1 + dx) + radius; y1 = max(y1, y1 + dy) + radius
        }
        // Whole pixels, and no further out than needed to hold the canvas (so the numbers stay small).
        let w = Double(list.width), h = Double(list.height)
        x0 = max(-1, x0.rounded(.down)); y0 = max(-1, y0.rounded(.down))
        x1 = min(w + 1, x1.rounded(.up)); y1 = min(h + 1, y1.rounded(.up))
        guard x0 < x1, y0 < y1 else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
