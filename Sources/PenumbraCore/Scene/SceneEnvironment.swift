// SceneEnvironment: what the scene decoder is given rather than owning. The
// core holds no codec beyond PNG and no renderer, so the decoders for image
// files and the renderer that draws offscreen images (`{ "size", "ops" }`)
// come from the caller; the public Penumbra target supplies every codec and
// the CPU renderer as `SceneEnvironment.standard`.

/// Codecs and the offscreen renderer a scene decoder uses.
public struct SceneEnvironment: Sendable {
    /// Decoders for image files and data URIs.
    public var codecs: ImageCodecs
    /// Renders an offscreen image's display list; nil rejects offscreen images.
    public var renderOffscreen: (@Sendable (DisplayList) throws -> Bitmap)?

    public init(codecs: ImageCodecs, renderOffscreen: (@Sendable (DisplayList) throws -> Bitmap)? = nil) {
        self.codecs = codecs; self.renderOffscreen = renderOffscreen
    }

    /// PNG only, no offscreen renderer: what the core can do on its own.
    public static let core = SceneEnvironment(codecs: .png)
}
