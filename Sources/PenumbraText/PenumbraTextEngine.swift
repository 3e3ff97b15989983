// PenumbraTextEngine: the core's TextEngine hook, implemented with FreeType,
// HarfBuzz, fontconfig, FriBidi and libunibreak. It holds no state of its
// own: faces, outlines and shapings live in the process-wide FontCache, so
// every engine value shares them.
import PenumbraModel

/// The standard text engine.
package struct PenumbraTextEngine: TextEngine {
    package init() {}

    /// Opens and checks a font file's face.
    package func checkFont(_ source: FontSource) throws(TextEngineError) {
        _ = try FontCache.shared.face(source)
    }

    /// Checks that a family name can name a font: not empty, no control characters. A family no
    /// installed font has is drawn in a generic family, with a warning (`layout(_:)`).
    package func checkFamily(_ family: String) throws(TextEngineError) {
        guard !family.allSatisfy(\.isWhitespace) else {
            throw TextEngineError("a font family name cannot be empty (the generic families are sans-serif, serif and monospace)")
        }
        guard !family.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw TextEngineError("a font family name cannot hold control characters")
        }
    }

    /// Lays out a text.
    package func layout(_ request: TextLayoutRequest) throws(TextEngineError) -> TextDrawing {
        try TextLayouter(request: request).layout().drawing
    }
}
