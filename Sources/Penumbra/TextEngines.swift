// The wiring of text: the core defines the TextEngine hook, PenumbraText
// implements it, and this module hands the implementation to everything
// that decodes scenes (the command line, the server, tests).
@_exported import PenumbraText

/// The text engines available.
package enum TextEngines {
    /// FreeType outlines, HarfBuzz shaping, fontconfig matching and fallback, FriBidi, libunibreak.
    package static let standard: any TextEngine = PenumbraTextEngine()
}
