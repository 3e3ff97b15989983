// PenumbraTextEngine: the core's TextEngine hook, implemented with FreeType,
// HarfBuzz, fontconfig, FriBidi and libunibreak. It holds no state of its
// own: faces, outlines and shapings live in the process-wide FontCache, so
// every engine value shares them.
import PenumbraCore

/// The standard text engine.
package struct PenumbraTextEngine: TextEngine {
    package init() {}

    /// Opens and checks a font file's face.
    package func checkFont(_ source: FontSource) throws(TextEngineError) {
        _ = try FontCache.shared.face(source)
    }

    /// Checks that fontconfig knows an installed family of this name.
    package func checkFamily(_ family: String) throws(TextEngineError) {
        guard FontMatcher.shared.familyExists(family) else {
            throw TextEngineError("no installed font family \"\(family)\" (the generic families are sans-serif, serif and monospace)")
        }
    }

    /// Lays out a text.
    package func layout(_ request: TextLayoutRequest) throws(TextEngineError) -> TextDrawing {
        try TextLayouter(request: request).layout().drawing
    }
}
