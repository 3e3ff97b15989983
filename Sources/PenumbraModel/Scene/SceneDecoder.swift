// SceneDecoder: JSON value to validated Scene, the document level and the
// structure of the op list. The checks run from cheap to expensive: the
// document's keys and canvas size (checked against maxPixels as numbers,
// before anything is allocated), the image declarations (syntax only), the
// op count, then each op in order with the save / layer structure, and the
// image files last: each is read and decoded once, the first time an op
// uses it, and images no op uses are loaded at the end so that they are
// validated too. The first problem found is thrown; nothing is drawn.
//
// Choices where the format is silent:
// - `version` is compared as a number: 1, 1.0 and 1e0 are all version 1.
// - The document's `scale` is validated even when the caller overrides it.
// - Layers are canvas-sized here, so the canvas check is also the layer check.

/// Decodes one scene document; single use.
struct SceneDecoder {
    let sources: ImageSources
    let limits: ResourceLimits
    let environment: SceneEnvironment
    /// The canvas scale (set once the document's scale is read; named images and offscreen images use it).
    var scale: Double = 1
    /// The scene's `time`: which frame of each animation is drawn.
    var time: Double = 0

    /// Path elements counted so far over the whole scene.
    var pathSegmentCount = 0
    /// Image declarations from `images`, by name.
    var imageDeclarations: [String: ImageDeclaration] = [:]
    /// Image names in document order.
    var imageNames: [String] = []
    /// Images read and decoded so far, by name.
    var loadedImages: [String: Image] = [:]
    /// Decoded files by source identity (a file's real path or a data URI), shared between names.
    var filesBySource: [String: LoadedFile] = [:]
    /// Vector images by source identity and scale (SceneDecoder+VectorImages.swift).
    var vectorsBySource: [String: Image] = [:]
    /// Shrink-on-load candidates: per image name, its draws (SceneDecoder+ShrinkOnLoad.swift).
    var shrinkDraws: [String: [ShrinkDraw]] = [:]
    /// Filter chains evaluated at their input's shrunk size, their blurs scaled with it.
    var shrunkChains: Set<String> = []
    /// Images shrunk on load, by name: the denominator they were decoded at.
    var shrunkBy: [String: Int] = [:]
    /// Animations by name (their frame at `time` is in `loadedImages`).
    var animations: [String: AnimatedImage] = [:]
    /// Names being loaded, outermost first (cycle detection, offscreen chains).
    var loading: [String] = []
    /// Pixels of the images decoded so far (the decoded-pixel budget).
    var imagePixelsSpent = 0
    /// The images decoding declared but did not draw, in an order that draws each after the
    /// images it draws (DeferredPixels.swift); the scene draws them when it is lowered.
    var deferredImages = DeferredImages()
    /// Pixels of the canvas (with the images, what the render budget must hold at least).
    var canvasPixels = 0
    /// Ops decoded so far, the scene's and its offscreen images' together.
    var opCount = 0
    /// Views decoded so far, every tree and view snapshot together.
    var viewCount = 0
    /// Image views' traits of `images` entries, by name (SceneDecoder+Views.swift).
    var imageTraits: [String: ImageTraits] = [:]

    /// `save` counts per open layer; element 0 is the base level (outside any layer).
    private var openSaves: [Int] = [0]
    /// The op index of each open `beginLayer`.
    private var openLayers: [Int] = []
    /// Saves plus layers open now.
    private var nestingDepth = 0

    /// Lays out `drawText` and checks fonts (the environment's); nil rejects scenes with text.
    var textEngine: (any TextEngine)? { environment.textEngine }
    /// The scene's `fonts`, read and checked, by name.
    var fontSources: [String: FontSource] = [:]
    /// What was drawn otherwise than asked, with its place (RenderWarning.swift).
    var warnings = RenderWarningList()

    init(sources: ImageSources, limits: ResourceLimits, environment: SceneEnvironment = .core) {
        self.sources = sources; self.limits = limits; self.environment = environment
    }

    static let documentKeys: Set<String> = ["format", "version", "size", "scale", "background", "images", "fonts", "ops", "time"]

    mutating func decodeDocument(_ root: JSONValue, scaleOverride: Double?, timeOverride: Double? = nil) throws -> Scene {
        let top = JSONReader(root, at: "")
        guard case .object = root else { throw top.error("a scene must be a JSON object, got \(root.kindDescription)") }
        let doc = try top.object(allowing: Self.documentKeys)

        let format = try doc.required("format")
        guard try format.string() == "penumbra-scene" else {
            throw format.error("expected \"penumbra-scene\", got \(SceneText.quote(try format.string()))")
        }
        let versionReader = try doc.required("version")
        let version = try versionReader.number()
        guard version == 1 else {
            throw versionReader.error("unsupported version \(SceneText.number(version)); this decoder reads version 1")
        }

        let sizeReader = try doc.required("size")
        _ = try sizeReader.numbers(2)
        let sizeItems = try sizeReader.array()
        let size = Size(width: try sizeItems[0].positive(), height: try sizeItems[1].positive())
        var scale = try doc.optional("scale")?.positive() ?? 1
        if let scaleOverride {
            guard scaleOverride.isFinite, scaleOverride > 0 else {
                throw SceneError(location: "scale", message:
                    "the scale given to the decoder must be a finite number greater than 0, got \(SceneText.number(scaleOverride))")
            }
            scale = scaleOverride
        }
        try checkCanvas(size: size, scale: scale, at: sizeReader)
        self.scale = scale
        canvasPixels = Int(roundHalfUp(size.width * scale) * roundHalfUp(size.height * scale))
        time = try doc.optional("time")?.number() ?? 0
        if let timeOverride {
            guard timeOverride.isFinite else {
                throw SceneError(location: "time", message: "the time given to the decoder must be a finite number")
            }
            time = timeOverride
        }
        let background = try doc.optional("background")?.color()
        if let images = doc.optional("images") { try declareImages(images) }
        if let fonts = doc.optional("fonts") { try declareFonts(fonts) }

        let opsReader = try doc.required("ops")
        guard case .array = opsReader.value else { throw opsReader.typeError(expected: "an array of ops") }
        (shrinkDraws, shrunkChains) = shrinkPlan(document: root, ops: opsReader.value)
        let ops = try decodeOpList(opsReader)
        for name in imageNames where loadedImages[name] == nil && !isUnboundedGenerator(name) { _ = try image(named: name) }
        var scene = Scene(size: size, scale: scale, background: background, images: loadedImages, ops: ops,
                          animations: animations, time: time)
        scene.limits = limits
        scene.decodedImagePixels = imagePixelsSpent
        scene.deferredImages = deferredImages
        scene.warnings = warnings.all
        return scene
    }

    /// Decodes an array of ops with its own save / layer structure (the scene's, or an offscreen
    /// image's); the ops count towards the scene's `maxOps`.
    mutating func decodeOpList(_ opsReader: JSONReader) throws -> [SceneOp] {
        let opReaders = try opsReader.array()
        opCount += opReaders.count
        guard opCount <= limits.maxOps else {
            if opCount == opReaders.count { throw opsReader.error("\(opReaders.count) ops, over the limit of \(limits.maxOps)") }
            throw opsReader.error("\(opReaders.count) more ops bring the scene to \(opCount), over the limit of \(limits.maxOps)")
        }
        let saved = (openSaves, openLayers, nestingDepth)
        (openSaves, openLayers, nestingDepth) = ([0], [], 0)
        defer { (openSaves, openLayers, nestingDepth) = saved }
        var ops: [SceneOp] = []
        ops.reserveCapacity(opReaders.count)
        for (index, reader) in opReaders.enumerated() {
            try RenderCancellation.checkCurrent()
            let op = try decodeOp(reader)
            try checkStructure(op, index: index, at: reader)
            ops.append(op)
        }
        return ops
    }

    /// The canvas is round(size * scale) pixels: at least 1 x 1 and at most `maxPixels`,
    /// checked in floating point so that absurd sizes cannot overflow.
    private func checkCanvas(size: Size, scale: Double, at reader: JSONReader) throws {
        let w = roundHalfUp(size.width * scale), h = roundHalfUp(size.height * scale)
        guard w.isFinite, h.isFinite else { throw reader.error("the canvas size times the scale is not finite") }
        guard w >= 1, h >= 1 else {
            throw reader.error("the canvas is \(SceneText.number(w)) x \(SceneText.number(h)) pixels "
                + "(size times scale, rounded); it must be at least 1 x 1")
        }
        guard w * h <= Double(limits.maxPixels) else {
            throw reader.error("the canvas is \(SceneText.number(w)) x \(SceneText.number(h)) pixels, "
                + "over the limit of \(limits.maxPixels) pixels")
        }
    }

    // MARK: Structure

    /// `restore` needs a `save` in the current layer, `endLayer` an open `beginLayer`, and
    /// saves plus layers stay within `maxNesting`. An `endLayer` with saves still open inside
    /// its layer is fine: it restores the state saved at `beginLayer`, as Quartz does.
    private mutating func checkStructure(_ op: SceneOp, index: Int, at reader: JSONReader) throws {
        switch op {
        case .save, .beginLayer:
            guard nestingDepth < limits.maxNesting else {
                throw reader.error("save and beginLayer nested deeper than \(limits.maxNesting)")
            }
            nestingDepth += 1
            if case .save = op { openSaves[openSaves.count - 1] += 1 } else { openSaves.append(0); openLayers.append(index) }
        case .restore:
            guard openSaves[openSaves.count - 1] > 0 else {
                if let layer = openLayers.last {
                    throw reader.error("restore without a matching save (restore cannot pop past the beginLayer at ops[\(layer)])")
                }
                throw reader.error("restore without a matching save")
            }
            openSaves[openSaves.count - 1] -= 1
            nestingDepth -= 1
        case .endLayer:
            guard !openLayers.isEmpty else { throw reader.error("endLayer without a matching beginLayer") }
            nestingDepth -= 1 + openSaves.removeLast()
            openLayers.removeLast()
        default:
            break
        }
    }

    /// A generator without an extent: checked when declared, an error only where drawn.
    private func isUnboundedGenerator(_ name: String) -> Bool {
        if case .generator(let g)? = imageDeclarations[name]?.form { return g.extent == nil }
        return false
    }

    // MARK: Path segments

    /// Adds a path's elements to the scene's count; over `maxPathSegments` is an error here.
    mutating func countSegments(of path: Path, at reader: JSONReader) throws {
        pathSegmentCount += path.elements.count
        guard pathSegmentCount <= limits.maxPathSegments else {
            throw reader.error("the scene's paths have more than \(limits.maxPathSegments) segments")
        }
    }
}
