// SceneEnvironment: what the scene decoder is given rather than owning. The
// model holds no codec beyond PNG and no renderer, so the decoders for image
// files and the renderer that draws offscreen images (`{ "size", "ops" }`,
// and vector images' drawings) come from the caller, and so does the text engine (PenumbraText); the public
// Penumbra target supplies every codec, the CPU renderer and the text engine
// as `SceneEnvironment.standard`, with PenumbraSVG's reader of SVG images.

/// Codecs, the offscreen renderer and the text engine a scene decoder uses.
public struct SceneEnvironment: Sendable {
    /// Decoders for image files and data URIs.
    public var codecs: ImageCodecs
    /// Renders an offscreen image (a scene, or a vector image's drawing): its pixels, or a GPU
    /// renderer's texture with the CPU's twin (ProducedPixels); nil rejects offscreen and
    /// vector images.
    package var renderOffscreen: (@Sendable (OffscreenContent) throws -> ProducedPixels)?
    /// Lays out `drawText` ops and checks `fonts`; nil rejects scenes with text.
    package var textEngine: (any TextEngine)?
    /// Evaluates filter chains and generators (`{ "input", "filters" }`, `{ "generator" }`):
    /// PenumbraCPU's FilterEvaluator, or a GPU renderer's passes (FilterGraphRendering), called
    /// on the decoding thread with the node, the region and the pixel limit; nil rejects them.
    /// A GPU renderer's result may stay on the GPU (ProducedPixels), as an offscreen image's.
    package var filterRenderer: (@Sendable (FilterNode, PixelRect, Int) throws -> ProducedPixels)?
    /// Who `filterRenderer` is: "cpu" for PenumbraCPU's evaluator, a GPU renderer's name for
    /// its passes (nil without one).
    package var filterRendererName: String?
    /// Readers of vector image formats (SVG), tried in order for each file or data URI of
    /// `images` (VectorImage.swift); none: such sources are read by `codecs`.
    package var vectorImages: [VectorImageDecoder] = []

    /// An environment without filters (`standard` has them).
    package init(codecs: ImageCodecs, renderOffscreen: (@Sendable (OffscreenContent) throws -> ProducedPixels)? = nil,
                textEngine: (any TextEngine)? = nil) {
        self.codecs = codecs; self.renderOffscreen = renderOffscreen; self.textEngine = textEngine
    }

    /// An environment whose filters are evaluated by `filterRenderer`.
    package init(codecs: ImageCodecs, renderOffscreen: (@Sendable (OffscreenContent) throws -> ProducedPixels)? = nil,
                 textEngine: (any TextEngine)? = nil,
                 filterRenderer: (@Sendable (FilterNode, PixelRect, Int) throws -> ProducedPixels)?, filterRendererName: String) {
        self.init(codecs: codecs, renderOffscreen: renderOffscreen, textEngine: textEngine)
        self.filterRenderer = filterRenderer
        self.filterRendererName = filterRendererName
    }

    /// PNG only, no offscreen renderer: what the core can do on its own.
    public static let core = SceneEnvironment(codecs: .png)
}

/// What an offscreen renderer draws: an offscreen image's scene, whose display list keeps to the
/// scene's budget (`Scene.displayList()`, PenumbraCore), or a vector image's drawing, recorded.
package enum OffscreenContent: Sendable {
    case scene(Scene)
    case drawing(DisplayList)
}
