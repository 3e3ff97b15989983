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
    let baseDirectory: String
    let limits: ResourceLimits

    /// Path elements counted so far over the whole scene.
    var pathSegmentCount = 0
    /// Image declarations from `images`, by name.
    var imageDeclarations: [String: ImageDeclaration] = [:]
    /// Image names in document order.
    var imageNames: [String] = []
    /// Images read and decoded so far, by name.
    var loadedImages: [String: Image] = [:]
    /// Decoded pixels by source identity (a file's real path or a data URI), shared between names.
    var bitmapsBySource: [String: Bitmap] = [:]

    /// `save` counts per open layer; element 0 is the base level (outside any layer).
    private var openSaves: [Int] = [0]
    /// The op index of each open `beginLayer`.
    private var openLayers: [Int] = []
    /// Saves plus layers open now.
    private var nestingDepth = 0

    /// Lays out `drawText` and checks fonts; nil rejects scenes with text.
    let textEngine: (any TextEngine)?
    /// The scene's `fonts`, read and checked, by name.
    var fontSources: [String: FontSource] = [:]

    init(baseDirectory: String, limits: ResourceLimits, textEngine: (any TextEngine)? = nil) {
        self.baseDirectory = baseDirectory; self.limits = limits; self.textEngine = textEngine
    }

    static let documentKeys: Set<String> = ["format", "version", "size", "scale", "background", "images", "fonts", "ops"]

    mutating func decodeDocument(_ root: JSONValue, scaleOverride: Double?) throws -> Scene {
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
        let background = try doc.optional("background")?.color()
        if let images = doc.optional("images") { try declareImages(images) }
        if let fonts = doc.optional("fonts") { try declareFonts(fonts) }

        let opsReader = try doc.required("ops")
        guard case .array = opsReader.value else { throw opsReader.typeError(expected: "an array of ops") }
        let opReaders = try opsReader.array()
        guard opReaders.count <= limits.maxOps else {
            throw opsReader.error("\(opReaders.count) ops, over the limit of \(limits.maxOps)")
        }
        var ops: [SceneOp] = []
        ops.reserveCapacity(opReaders.count)
        for (index, reader) in opReaders.enumerated() {
            let op = try decodeOp(reader)
            try checkStructure(op, index: index, at: reader)
            ops.append(op)
        }
        for name in imageNames where loadedImages[name] == nil { _ = try image(named: name) }
        return Scene(size: size, scale: scale, background: background, images: loadedImages, ops: ops)
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

    // MARK: Path segments

    /// Adds a path's elements to the scene's count; over `maxPathSegments` is an error here.
    mutating func countSegments(of path: Path, at reader: JSONReader) throws {
        pathSegmentCount += path.elements.count
        guard pathSegmentCount <= limits.maxPathSegments else {
            throw reader.error("the scene's paths have more than \(limits.maxPathSegments) segments")
        }
    }
}
