// Scene: a decoded, validated scene document (SCENE_FORMAT.md, version 1).
// `Scene.decode` is the one way in from JSON: it parses strictly, checks
// every key, type, range, structure rule and resource limit, and loads every
// image file, so a Scene that exists is drawable; a scene that breaks a rule
// is rejected as a whole, before anything is drawn. The images a scene draws
// itself (offscreen images, view snapshots, filter chains) are checked and
// sized while decoding and drawn when it is first lowered (DeferredPixels.swift). Drawing a Scene is
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
    /// The scene's images by name, as loaded (pixels and scale). Those the scene draws itself
    /// (offscreen images, filter chains) are drawn by `displayList()`, or when their pixels are
    /// first read.
    public var images: [String: Image]
    /// The operations, in order.
    package var ops: [SceneOp]
    /// The scene's animated images by name; `images` and the ops hold their frames at `time`.
    public var animations: [String: AnimatedImage]
    /// Seconds: which frame of each animated image is drawn.
    public var time: Double
    /// The limits it was decoded under; recording it (`displayList()`) keeps to their budget.
    public var limits: ResourceLimits = .default
    /// Pixels of its decoded images (every frame of an animation, offscreen and filtered images
    /// included): what they hold while it renders counts towards `limits.maxRenderBytes`.
    package var decodedImagePixels = 0
    /// Its images that decoding declared without drawing (offscreen images, view snapshots,
    /// filter chains, vector images' pixels): `displayList()` draws them first.
    package var deferredImages = DeferredImages()
    /// What decoding could not do as the scene asked but did anyway (text in characters no
    /// installed font has, an unknown font family), each with its place; empty for a scene made
    /// from parts. `displayList()` copies them onto the list.
    public var warnings: [RenderWarning] = []

    /// A scene from parts (not validated: `decode` is the checked way in).
    package init(size: Size, scale: Double = 1, background: Color? = nil, images: [String: Image] = [:], ops: [SceneOp],
                animations: [String: AnimatedImage] = [:], time: Double = 0) {
        self.size = size; self.scale = scale; self.background = background; self.images = images; self.ops = ops
        self.animations = animations; self.time = time
    }

    /// The same scene at another time: every animated image's frame at `time` (the ops of the
    /// scene's own list; offscreen images keep the frames they were drawn with).
    public func at(time: Double) -> Scene {
        guard !animations.isEmpty else { var copy = self; copy.time = time; return copy }
        var copy = self
        copy.time = time
        for (name, animation) in animations { copy.images[name] = animation.frame(at: time) }
        copy.ops = ops.map { op in
            switch op {
            case .drawImage(var draw):
                guard let animation = animations[draw.imageName] else { return op }
                draw.image = animation.frame(at: time)
                return .drawImage(draw)
            case .drawView(var view):
                view.root = view.root.showingFrames(at: time, of: animations)
                return .drawView(view)
            default:
                return op
            }
        }
        return copy
    }

    /// The longest duration of the scene's animated images (0 when none).
    public var animationDuration: Double { animations.values.map(\.duration).max() ?? 0 }

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
    ///   - time: overrides the document's `time` (the command line's `--time`).
    ///   - environment: the image codecs and the offscreen renderer (the core alone reads PNG and
    ///     has no renderer; the Penumbra module's `SceneEnvironment.standard` has everything).
    ///   Text (`drawText`, `fonts`) needs the environment's text engine (`.standard` has it).
    /// - Throws: `SceneError` naming the place of the first problem found.
    public static func decode(_ json: [UInt8], baseDirectory: String, limits: ResourceLimits = .default,
                              scale: Double? = nil, time: Double? = nil, environment: SceneEnvironment = .core) throws -> Scene {
        try decode(json, sources: ImageSources(baseDirectory: baseDirectory), limits: limits, scale: scale, time: time,
                   environment: environment)
    }

    /// Decodes and validates a whole scene whose images are looked up in `sources` (a folder,
    /// or none, and files held in memory named `part:NAME`); otherwise as
    /// `decode(_:baseDirectory:limits:scale:time:environment:)`.
    package static func decode(_ json: [UInt8], sources: ImageSources, limits: ResourceLimits = .default,
                              scale: Double? = nil, time: Double? = nil, environment: SceneEnvironment = .core) throws -> Scene {
        let root = try JSONValue.parse(json)
        var decoder = SceneDecoder(sources: sources, limits: limits, environment: environment)
        return try decoder.decodeDocument(root, scaleOverride: scale, timeOverride: time)
    }

    /// Decodes and validates a scene already parsed (one inline in a larger document, such as a
    /// line of a batch manifest); otherwise as `decode(_:sources:limits:scale:time:environment:)`.
    package static func decode(parsed root: JSONValue, sources: ImageSources, limits: ResourceLimits = .default,
                               scale: Double? = nil, time: Double? = nil, environment: SceneEnvironment = .core) throws -> Scene {
        var decoder = SceneDecoder(sources: sources, limits: limits, environment: environment)
        return try decoder.decodeDocument(root, scaleOverride: scale, timeOverride: time)
    }

    /// Decodes and validates a whole scene given as a string; see `decode(_:baseDirectory:limits:scale:time:environment:)`.
    public static func decode(_ json: String, baseDirectory: String, limits: ResourceLimits = .default,
                              scale: Double? = nil, time: Double? = nil, environment: SceneEnvironment = .core) throws -> Scene {
        try decode(Array(json.utf8), baseDirectory: baseDirectory, limits: limits, scale: scale, time: time,
                   environment: environment)
    }

    /// A fresh context of the scene's pixel size, scale and background.
    public func makeContext() -> GraphicsContext {
        GraphicsContext(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale, background: background)
    }
}
