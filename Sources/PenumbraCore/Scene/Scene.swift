// Scene: a decoded, validated scene document (SCENE_FORMAT.md, version 1).
// `Scene.decode` is the one way in from JSON: it parses strictly, checks
// every key, type, range, structure rule and resource limit, and loads every
// image, so a Scene that exists is drawable; a scene that breaks a rule is
// rejected as a whole, before anything is drawn. Drawing a Scene is
// replaying its ops onto a GraphicsContext, which records the DisplayList
// the renderers read.

/// A validated scene: canvas, images and ops.
public struct Scene: Hashable, Sendable {
    /// Canvas size in points.
    public var size: Size
    /// Pixels per point.
    public var scale: Double
    /// Colour the canvas is filled with before the ops; nil is transparent.
    public var background: Color?
    /// The scene's images by name, as loaded (pixels and scale).
    public var images: [String: Image]
    /// The operations, in order.
    public var ops: [SceneOp]

    /// A scene from parts (not validated: `decode` is the checked way in).
    public init(size: Size, scale: Double = 1, background: Color? = nil, images: [String: Image] = [:], ops: [SceneOp]) {
        self.size = size; self.scale = scale; self.background = background; self.images = images; self.ops = ops
    }

    /// Canvas width in pixels: round(width * scale), halves up (0 when that is not a sane size).
    public var pixelWidth: Int { Scene.pixels(size.width * scale) }
    /// Canvas height in pixels: round(height * scale), halves up (0 when that is not a sane size).
    public var pixelHeight: Int { Scene.pixels(size.height * scale) }

    /// round(points * scale) halves up, as an Int; 0 for values that are not finite or not in Int32's range.
    static func pixels(_ scaled: Double) -> Int {
        let r = roundHalfUp(scaled)
        guard r.isFinite, r >= 0, r <= Double(Int32.max) else { return 0 }
        return Int(r)
    }

    /// Decodes and validates a whole scene.
    ///
    /// - Parameters:
    ///   - json: the document's bytes (UTF-8 JSON).
    ///   - baseDirectory: the folder image paths are relative to (the scene file's folder); image
    ///     files must stay inside it.
    ///   - limits: resource limits (canvas and image pixels, ops, path segments, nesting, dashes).
    ///   - scale: overrides the document's `scale` (the command line's `--scale`); must be > 0.
    ///   - textEngine: lays out `drawText` ops and checks `fonts` (the Penumbra module's
    ///     `TextEngines.standard`); without one, a scene with text is rejected.
    /// - Throws: `SceneError` naming the place of the first problem found.
    public static func decode(_ json: [UInt8], baseDirectory: String, limits: ResourceLimits = .default,
                              scale: Double? = nil, textEngine: (any TextEngine)? = nil) throws -> Scene {
        let root = try JSONValue.parse(json)
        var decoder = SceneDecoder(baseDirectory: baseDirectory, limits: limits, textEngine: textEngine)
        return try decoder.decodeDocument(root, scaleOverride: scale)
    }

    /// Decodes and validates a whole scene given as a string; see `decode(_:baseDirectory:limits:scale:)`.
    public static func decode(_ json: String, baseDirectory: String, limits: ResourceLimits = .default,
                              scale: Double? = nil, textEngine: (any TextEngine)? = nil) throws -> Scene {
        try decode(Array(json.utf8), baseDirectory: baseDirectory, limits: limits, scale: scale, textEngine: textEngine)
    }

    /// A fresh context of the scene's pixel size, scale and background.
    public func makeContext() -> GraphicsContext {
        GraphicsContext(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale, background: background)
    }

    /// The display list of the scene: a fresh context, the ops replayed onto it, open layers ended.
    public func displayList() -> DisplayList {
        let context = makeContext()
        replay(into: context)
        return context.displayList
    }
}
