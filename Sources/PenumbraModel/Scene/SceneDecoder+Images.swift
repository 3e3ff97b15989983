// Images: the `images` object maps a name to one of the forms of
// SCENE_FORMAT.md's "Images": a file or data URI (a string, or
// {"path", "scale", "orientation"}), a named image {"named"}, an offscreen
// image {"size", "ops", "scale", "opaque", "background"} or an animation
// {"frames" or "pattern", "duration"}, or a view snapshot {"view"}; any
// object form may also carry an image view's traits ("renderingMode",
// "flipsForRightToLeftLayoutDirection", SceneDecoder+Views.swift). Declarations are checked when the
// document is read (types, ranges, source text); each is loaded once, the
// first time an op or another image uses it, or at the end for images
// nothing uses, so every image is validated. Images may use one another in
// any order; the names being loaded form a stack, so a cycle is found when
// a name comes round again and is reported with its members. Every failure
// names `images.NAME`; a codec failure carries the codec's own message.
// Loading files, named images and animations is SceneDecoder+ImageFiles.swift;
// offscreen images are SceneDecoder+Offscreen.swift.

/// One entry of `images`, checked but not yet loaded.
struct ImageDeclaration {
    /// `images.NAME`, where errors about this image are reported.
    var location: String
    var form: ImageForm
}

/// What an entry of `images` is.
enum ImageForm {
    /// A relative path or a data URI, its declared scale (nil: the name's @2x, or 1) and orientation override.
    case file(source: String, scale: Double?, orientation: ImageOrientation?)
    /// `{ "named": "rocks" }`.
    case named(String)
    /// `{ "size", "ops", ... }`.
    case offscreen(OffscreenDeclaration)
    /// `{ "frames": [...] }` or `{ "pattern": "x%d.png" }` shown evenly over `duration`.
    case animation(frames: [String]?, pattern: String?, duration: Double, location: String)
    /// `{ "input", "filters", "extent" }` (SceneDecoder+Filters.swift).
    case filterChain(FilterChainDeclaration)
    /// `{ "generator", ..., "extent" }`.
    case generator(GeneratorDeclaration)
    /// `{ "view", "scale", "layoutDirection" }`: a view tree's snapshot (SceneDecoder+Views.swift).
    case viewSnapshot(JSONReader)
}

/// An offscreen image's declaration; its ops are decoded when it is loaded.
struct OffscreenDeclaration {
    var size: Size
    var scale: Double?
    var opaque: Bool
    var background: Color?
    var ops: JSONReader
}

extension SceneDecoder {
    static let fileKeys: Set<String> = ["path", "scale", "orientation"]
    static let namedKeys: Set<String> = ["named"]
    static let offscreenKeys: Set<String> = ["size", "ops", "scale", "opaque", "background"]
    static let animationKeys: Set<String> = ["frames", "pattern", "duration"]
    static let imageExpectation = "an image source (a relative path or a data URI), {\"path\"}, {\"named\"}, "
        + "{\"size\", \"ops\"}, {\"frames\" or \"pattern\", \"duration\"}, {\"input\", \"filters\"}, {\"generator\"} or {\"view\"}"

    /// Reads the `images` object's declarations (no file is touched yet).
    mutating func declareImages(_ reader: JSONReader) throws {
        guard case .object(let object) = reader.value else {
            throw reader.typeError(expected: "an object mapping image names to sources")
        }
        for member in object.members {
            let entry = try takeImageTraits(JSONReader(member.value, at: JSONReader.location(reader.location, key: member.key)),
                                            name: member.key)
            imageNames.append(member.key)
            imageDeclarations[member.key] = ImageDeclaration(location: entry.location, form: try declaration(entry))
        }
    }

    private func declaration(_ entry: JSONReader) throws -> ImageForm {
        switch entry.value {
        case .string(let s):
            if let problem = ImageSource.syntaxProblem(s) { throw entry.error(problem) }
            return .file(source: s, scale: nil, orientation: nil)
        case .object(let raw):
            if raw["named"] != nil {
                let o = try entry.object(allowing: Self.namedKeys)
                let nameReader = try o.required("named")
                let name = try nameReader.string()
                if let problem = ImageSource.syntaxProblem(name) { throw nameReader.error(problem) }
                guard !ImageSource.isDataURI(name) else { throw nameReader.error("a named image is a file name, not a data URI") }
                return .named(name)
            }
            if raw["view"] != nil {
                _ = try entry.object(allowing: Self.viewSnapshotKeys)
                return .viewSnapshot(entry)
            }
            if raw["generator"] != nil { return .generator(try generatorDeclaration(entry)) }
            if raw["input"] != nil || raw["filters"] != nil { return .filterChain(try filterChainDeclaration(entry)) }
            if raw["ops"] != nil || raw["size"] != nil {
                let o = try entry.object(allowing: Self.offscreenKeys)
                let sizeReader = try o.required("size")
                let items = try sizeReader.array()
                guard items.count == 2 else { throw sizeReader.typeError(expected: "[width, height]") }
                let size = Size(width: try items[0].positive(), height: try items[1].positive())
                let ops = try o.required("ops")
                guard case .array = ops.value else { throw ops.typeError(expected: "an array of ops") }
                return .offscreen(OffscreenDeclaration(
                    size: size, scale: try o.optional("scale")?.positive(), opaque: try o.optional("opaque")?.bool() ?? false,
                    background: try o.optional("background")?.color(), ops: ops))
            }
            if raw["frames"] != nil || raw["pattern"] != nil || raw["duration"] != nil {
                let o = try entry.object(allowing: Self.animationKeys)
                let duration = try o.required("duration").positive()
                switch (o.optional("frames"), o.optional("pattern")) {
                case (let f?, nil):
                    let items = try f.array()
                    guard !items.isEmpty else { throw f.error("an animation needs at least one frame") }
                    let sources = try items.map { item -> String in
                        let s = try item.string()
                        if let problem = ImageSource.syntaxProblem(s) { throw item.error(problem) }
                        return s
                    }
                    return .animation(frames: sources, pattern: nil, duration: duration, location: f.location)
                case (nil, let p?):
                    let pattern = try p.string()
                    guard let parts = Self.patternParts(pattern) else {
                        throw p.error("a pattern holds exactly one %d and no other %, got \(SceneText.quote(pattern))")
                    }
                    if let problem = ImageSource.syntaxProblem(parts.prefix + "1" + parts.suffix) {
                        throw p.error(problem)
                    }
                    return .animation(frames: nil, pattern: pattern, duration: duration, location: p.location)
                case (nil, nil): throw entry.error("an animation needs \"frames\" or \"pattern\"")
                case (_?, _?): throw entry.error("an animation takes \"frames\" or \"pattern\", not both")
                }
            }
            let o = try entry.object(allowing: Self.fileKeys)
            let source = try o.required("path").string()
            if let problem = ImageSource.syntaxProblem(source) { throw entry.error(problem) }
            return .file(source: source, scale: try o.optional("scale")?.positive(),
                         orientation: try o.optional("orientation")?.choice(ImageOrientation.self))
        default:
            throw entry.typeError(expected: Self.imageExpectation)
        }
    }

    /// The image declared as `name` (an animation's frame at the scene's time), loaded on first use.
    mutating func image(named name: String) throws -> Image {
        if let image = loadedImages[name] { return image }
        guard let declaration = imageDeclarations[name] else {
            throw SceneError(location: "images", message: "no image named \(SceneText.quote(name))")
        }
        if let at = loading.firstIndex(of: name) {
            let cycle = (loading[at...] + [name]).map(SceneText.quote).joined(separator: " -> ")
            throw SceneError(location: declaration.location, message: "the images draw one another in a cycle: \(cycle)")
        }
        loading.append(name)
        defer { loading.removeLast() }
        let fail = { (message: String) in SceneError(location: declaration.location, message: message) }

        let image: Image
        switch declaration.form {
        case .file(let source, let scale, _) where vectorDecoder(for: source) != nil:
            image = try loadVector(source, decoder: vectorDecoder(for: source)!, scale: scale ?? ImageSource.impliedScale(source) ?? self.scale,
                                   fail: fail)
        case .file(let source, let scale, let orientation):
            let s = scale ?? ImageSource.impliedScale(source) ?? 1
            let loaded = try loadFile(source, orientation: orientation, animated: true,
                                      shrink: shrinkDraws[name].map { (draws: $0, scale: s) }, fail: fail)
            if loaded.denominator > 1 {
                // Shrunk on load: the same size in points (SceneDecoder+ShrinkOnLoad.swift).
                image = Image(bitmap: loaded.frames[0], scale: s / Double(loaded.denominator))
                shrunkBy[name] = loaded.denominator
            } else if loaded.frames.count > 1 {
                let frames = loaded.frames.map { Image(bitmap: $0, scale: s) }
                let animation = AnimatedImage(frames: frames, frameDurations: loaded.durations)
                animations[name] = animation
                image = animation.frame(at: time)
            } else {
                image = Image(bitmap: loaded.frames[0], scale: s)
            }
        case .named(let base):
            image = try loadNamed(base, fail: fail)
        case .offscreen(let offscreen):
            image = try renderOffscreen(offscreen, name: name, location: declaration.location)
        case .animation(let frames, let pattern, let duration, let location):
            let animation = try loadAnimation(frames: frames, pattern: pattern, duration: duration, location: location)
            animations[name] = animation
            image = animation.frame(at: time)
        case .filterChain(let chain):
            image = try renderFilterChain(chain, name: name, location: declaration.location)
        case .generator(let generator):
            image = try renderGenerator(generator, location: declaration.location)
        case .viewSnapshot(let reader):
            image = try renderViewSnapshot(reader, location: declaration.location)
        }
        loadedImages[name] = image
        return image
    }
}
