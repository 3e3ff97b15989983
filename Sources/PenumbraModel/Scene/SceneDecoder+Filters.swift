// Filtered and generated images (SCENE_FORMAT.md, "Filters"):
// `{ "input": NAME, "filters": [...], "extent": [x, y, w, h] }` and
// `{ "generator": KIND, ..., "extent": [...] }`. Declarations are read when
// the document is (every filter name, parameter and type checked, each error
// at its place, `images.NAME.filters[2].radius: ...`); names a chain refers
// to (its input, a mask, a background) are resolved when it is loaded, through
// `image(named:)`, so a cycle is found and named as for any image. A
// generator enters a chain as itself (infinite unless it has an extent);
// every other image enters as its pixels. Decoding builds and checks the
// chain's graph (an image the scene draws, an offscreen image or another
// chain, stands in as a clear image of its extent) and draws nothing; the
// chain becomes pixels once, when the scene is rendered (DeferredPixels.swift),
// cropped to its `extent` or else its input's extent, by the environment's
// filter services, so every renderer draws the same bytes (or by its filter
// renderer: the GPU backend's passes, the same bytes again).
//
// Readings where the format is silent: a generator without an `extent` is
// an error only where it is drawn or becomes an image (not when only used by
// chains); `gaussianBlur` and `unsharpMask` radii are limited to 0...256, the
// range of a shadow's blur; a colour's alpha is ignored by colorMonochrome; a chain holds at most
// 256 filters (a longer effect is a chain of chains).

/// A chain's reference to another image by name.
struct FilterImageReference {
    var name: String
    var location: String
}

/// One filter of a declared chain, its image parameters still names.
enum FilterStep {
    case plain(ImageFilter, location: String)
    case blendWithMask(mask: FilterImageReference, background: FilterImageReference?)
    case composite(BlendMode, background: FilterImageReference)
    /// `vignette` on an input whose extent may be infinite (checked when loaded).
    case vignette(ImageFilter, location: String)
}

/// `{ "input", "filters", "extent" }`, checked.
struct FilterChainDeclaration {
    var input: FilterImageReference
    var steps: [FilterStep]
    var extent: Rect?
}

/// `{ "generator", ..., "extent" }`, checked.
struct GeneratorDeclaration {
    var generator: FilterGenerator
    var extent: Rect?
}

extension SceneDecoder {
    static let filterChainKeys: Set<String> = ["input", "filters", "extent"]
    /// Each generator's keys, "generator" included.
    static let generatorKeys: [String: Set<String>] = [
        "constantColor": ["generator", "color", "extent"],
        "linearGradient": ["generator", "start", "end", "stops", "extend", "extent"],
        "radialGradient": ["generator", "startCenter", "startRadius", "endCenter", "endRadius", "stops", "extend", "extent"],
    ]
    /// Filters in one chain at most (evaluation recurses once per filter; a longer effect is a
    /// chain of chains, each entering the next as pixels).
    static let maxFiltersPerChain = 256

    /// Reads a filter chain's declaration.
    func filterChainDeclaration(_ entry: JSONReader) throws -> FilterChainDeclaration {
        let o = try entry.object(allowing: Self.filterChainKeys)
        let input = try o.required("input")
        let filters = try o.required("filters")
        guard case .array(let items) = filters.value else { throw filters.typeError(expected: "an array of filters") }
        guard items.count <= Self.maxFiltersPerChain else {
            throw filters.error("\(items.count) filters; a chain holds at most \(Self.maxFiltersPerChain)")
        }
        return FilterChainDeclaration(input: FilterImageReference(name: try input.string(), location: input.location),
                                      steps: try filters.array().map(filterStep),
                                      extent: try o.optional("extent")?.rect())
    }

    /// Reads a generator's declaration.
    func generatorDeclaration(_ entry: JSONReader) throws -> GeneratorDeclaration {
        guard case .object(let raw) = entry.value, let kindValue = raw["generator"] else {
            throw entry.typeError(expected: "a generator object")
        }
        let kindReader = JSONReader(kindValue, at: JSONReader.location(entry.location, key: "generator"))
        let kind = try kindReader.string()
        let generator: FilterGenerator
        let o: JSONObjectReader
        switch kind {
        case "constantColor":
            o = try entry.object(allowing: Self.generatorKeys[kind]!)
            generator = .constantColor(try o.required("color").color())
        case "linearGradient":
            o = try entry.object(allowing: Self.generatorKeys[kind]!)
            let (before, after) = try o.optional("extend")?.extendFlags() ?? (true, true)
            generator = .linearGradient(start: try o.required("start").point(), end: try o.required("end").point(),
                                        stops: try o.required("stops").gradientStops(), extendStart: before, extendEnd: after)
        case "radialGradient":
            o = try entry.object(allowing: Self.generatorKeys[kind]!)
            let (before, after) = try o.optional("extend")?.extendFlags() ?? (true, true)
            generator = .radialGradient(
                startCenter: try o.required("startCenter").point(), startRadius: try o.required("startRadius").nonNegative("radius"),
                endCenter: try o.required("endCenter").point(), endRadius: try o.required("endRadius").nonNegative("radius"),
                stops: try o.required("stops").gradientStops(), extendStart: before, extendEnd: after)
        default:
            throw kindReader.error("unknown generator \(SceneText.quote(kind)); expected \"constantColor\", "
                + "\"linearGradient\" or \"radialGradient\"")
        }
        return GeneratorDeclaration(generator: generator, extent: try o.optional("extent")?.rect())
    }

    /// The parameters each filter takes (besides "filter").
    static let filterParameters: [String: Set<String>] = [
        "gaussianBlur": ["radius"], "colorControls": ["saturation", "brightness", "contrast"],
        "colorMatrix": ["r", "g", "b", "a", "bias"], "sepiaTone": ["intensity"], "colorMonochrome": ["color", "intensity"],
        "exposureAdjust": ["ev"], "gammaAdjust": ["power"], "hueAdjust": ["angle"], "colorInvert": [],
        "vignette": ["center", "radius", "intensity", "falloff"], "unsharpMask": ["radius", "intensity"],
        "blendWithMask": ["mask", "background"], "composite": ["mode", "background"], "affineTransform": ["matrix"],
        "crop": ["rect"], "clampToExtent": [],
    ]

    private func filterStep(_ reader: JSONReader) throws -> FilterStep {
        guard case .object(let raw) = reader.value, let nameValue = raw["filter"] else {
            throw reader.typeError(expected: "a filter object {\"filter\": NAME, ...}")
        }
        let nameReader = JSONReader(nameValue, at: JSONReader.location(reader.location, key: "filter"))
        let name = try nameReader.string()
        guard let parameters = Self.filterParameters[name] else {
            throw nameReader.error("unknown filter \(SceneText.quote(name)); expected one of "
                + Self.filterParameters.keys.sorted().map(SceneText.quote).joined(separator: ", "))
        }
        let o = try reader.object(allowing: parameters.union(["filter"]))
        func number(_ key: String, _ fallback: Double) throws -> Double { try o.optional(key)?.number() ?? fallback }
        func blurRadius(_ fallback: Double) throws -> Double {
            try o.optional("radius")?.number(in: 0...ImageFilter.maxBlurRadius) ?? fallback
        }
        func reference(_ key: String) throws -> FilterImageReference? {
            guard let r = o.optional(key) else { return nil }
            return FilterImageReference(name: try r.string(), location: r.location)
        }
        let filter: ImageFilter
        switch name {
        case "gaussianBlur": filter = .gaussianBlur(radius: try blurRadius(10))
        case "colorControls":
            filter = .colorControls(saturation: try number("saturation", 1), brightness: try number("brightness", 0),
                                    contrast: try number("contrast", 1))
        case "colorMatrix":
            func row(_ key: String, _ identity: [Double]) throws -> [Double] { try o.optional(key)?.numbers(4) ?? identity }
            filter = .colorMatrix(r: try row("r", [1, 0, 0, 0]), g: try row("g", [0, 1, 0, 0]), b: try row("b", [0, 0, 1, 0]),
                                  a: try row("a", [0, 0, 0, 1]), bias: try row("bias", [0, 0, 0, 0]))
        case "sepiaTone": filter = .sepiaTone(intensity: try number("intensity", 1))
        case "colorMonochrome":
            filter = .colorMonochrome(color: try o.optional("color")?.color() ?? Color(red: 0.6, green: 0.6, blue: 0.6),
                                      intensity: try number("intensity", 1))
        case "exposureAdjust": filter = .exposureAdjust(ev: try number("ev", 0))
        case "gammaAdjust": filter = .gammaAdjust(power: try o.optional("power")?.positive() ?? 1)
        case "hueAdjust": filter = .hueAdjust(angle: try number("angle", 0))
        case "colorInvert": filter = .colorInvert
        case "vignette":
            return .vignette(.vignette(center: try o.optional("center")?.point(),
                                       radius: try o.optional("radius")?.nonNegative("radius"),
                                       intensity: try number("intensity", 1),
                                       falloff: try o.optional("falloff")?.number(in: 0...1) ?? 0.5),
                             location: reader.location)
        case "unsharpMask":
            filter = .unsharpMask(radius: try blurRadius(2.5), intensity: try number("intensity", 0.5))
        case "blendWithMask":
            guard let mask = try reference("mask") else { throw o.error("missing key \"mask\"") }
            return .blendWithMask(mask: mask, background: try reference("background"))
        case "composite":
            let mode = try o.required("mode").choice(BlendMode.self, naming: "a blend mode")
            guard let background = try reference("background") else { throw o.error("missing key \"background\"") }
            return .composite(mode, background: background)
        case "affineTransform":
            let m = try o.required("matrix").numbers(6)
            filter = .affineTransform(AffineTransform(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5]))
        case "crop": filter = .crop(try o.required("rect").rect())
        default: filter = .clampToExtent
        }
        return .plain(filter, location: reader.location)
    }

    // MARK: Loading

    /// What an image name stands for in a chain: a generator as itself (cropped to its extent,
    /// if any), any other image as the image, whose pixels are deferred when the scene draws it.
    mutating func filterSource(_ reference: FilterImageReference) throws -> FilterSource {
        guard let declaration = imageDeclarations[reference.name] else {
            throw SceneError(location: reference.location, message: "no image named \(SceneText.quote(reference.name))")
        }
        if case .generator(let g) = declaration.form {
            let node = FilterNode.generator(g.generator)
            return .node(g.extent.map { node.cropped(to: $0) } ?? node)
        }
        return .image(try image(named: reference.name))
    }

    /// A generator drawn or used as an image: its `extent` is required.
    mutating func renderGenerator(_ g: GeneratorDeclaration, location: String) throws -> Image {
        guard let extent = g.extent else {
            throw SceneError(location: location, message: "a generator's extent is infinite; give it an \"extent\" "
                + "[x, y, w, h] to draw it or use it as an image")
        }
        let node = FilterNode.generator(g.generator)
        return try evaluate({ node }, in: PixelRect(enclosing: extent), scale: 1, location: location)
    }

    /// A filter chain's pixels, cropped to its extent or else its input's. Its node is built and
    /// checked now, with an image of the same extent standing in for each input the scene has
    /// not drawn yet, and built again from the inputs' pixels when the chain is drawn.
    /// A chain shrunk with its input (SceneDecoder+ShrinkOnLoad.swift) runs at the input's
    /// decoded size, each blur's radius divided by the input's denominator.
    mutating func renderFilterChain(_ chain: FilterChainDeclaration, name: String, location: String) throws -> Image {
        var sources: [String: FilterSource] = [:]
        for reference in chain.references where sources[reference.name] == nil {
            sources[reference.name] = try filterSource(reference)
        }
        let shrink = shrunkChains.contains(name) ? Double(shrunkBy[chain.input.name] ?? 1) : 1
        let (node, inputExtent, scale) = try chain.node(sources: sources, shrink: shrink, making: false)
        let crop: PixelRect
        if let extent = chain.extent {
            crop = PixelRect(enclosing: extent)
        } else if let r = inputExtent.rect {
            crop = r
        } else {
            throw SceneError(location: location, message: "the chain's input has an infinite extent; give the chain an "
                + "\"extent\" [x, y, w, h] to draw it")
        }
        guard sources.values.contains(where: \.isDeferred) else {
            return try evaluate({ node }, in: crop, scale: scale, location: location)
        }
        let loaded = sources
        return try evaluate({ try chain.node(sources: loaded, shrink: shrink, making: true).node },
                            in: crop, scale: scale, location: location)
    }

    /// The node `makeNode` builds (when the image is drawn), evaluated over `region`.
    private mutating func evaluate(_ makeNode: @escaping @Sendable () throws -> FilterNode, in region: PixelRect, scale: Double,
                                   location: String) throws -> Image {
        let fail = { (message: String) in SceneError(location: location, message: message) }
        guard region.area <= limits.maxPixels else {
            throw fail("the image is \(region.width) x \(region.height) pixels, over the limit of \(limits.maxPixels) pixels")
        }
        try spendImagePixels(region.area, what: "its \(region.width) x \(region.height) pixels", fail: fail)
        // Intermediates (a blur's input, its passes) fit what the render budget has left,
        // counted as up to three planes alive at once.
        let maxPixels = max(0, min(limits.maxPixels, renderBytesLeft / (3 * RenderBudget.bytesPerPixel)))
        let evaluate: @Sendable (FilterNode, PixelRect) throws -> ProducedPixels
        if let filterRenderer = environment.filterRenderer {
            evaluate = { try filterRenderer($0, $1, maxPixels) }
        } else {
            throw fail("filters and generators need a renderer; decode with SceneEnvironment.standard (the Penumbra module)")
        }
        return deferImage(width: region.width, height: region.height, scale: scale, place: location) {
            try ProducedPixels.producing({ try evaluate(makeNode(), region) }) { error in
                SceneError(location: location, message: "the filters could not be applied: \(error)")
            }
        }
    }
}

/// A name a chain reads, loaded: a generator's node, or an image.
enum FilterSource {
    case node(FilterNode)
    case image(Image)

    /// Whether it is an image the scene draws (whose pixels a stand-in takes the place of).
    var isDeferred: Bool {
        if case .image(let image) = self, case .deferred = image.pixels { return true }
        return false
    }

    /// The node and scale it enters a chain as: a deferred image's pixels when `making`, else a
    /// clear image of its extent (a clear colour cropped to its pixels) standing in for them.
    func node(making: Bool) throws -> (FilterNode, Double) {
        switch self {
        case .node(let node): return (node, 1)
        case .image(let image):
            if case .deferred = image.pixels, !making {
                let standIn = FilterNode.generator(.constantColor(.clear))
                    .cropped(to: Rect(x: 0, y: 0, width: Double(image.pixelWidth), height: Double(image.pixelHeight)))
                return (standIn, image.scale)
            }
            return (.bitmap(try image.madePixels()), image.scale)
        }
    }
}

extension FilterChainDeclaration {
    /// The names it reads, in the order they are loaded: its input, then each step's.
    var references: [FilterImageReference] {
        [input] + steps.flatMap { step -> [FilterImageReference] in
            switch step {
            case .plain, .vignette: return []
            case .blendWithMask(let mask, let background): return [mask] + (background.map { [$0] } ?? [])
            case .composite(_, let background): return [background]
            }
        }
    }

    /// The chain's node over `sources` (its names, loaded), its input's extent and its scale;
    /// `making` takes deferred inputs' pixels (FilterSource.node(making:)).
    func node(sources: [String: FilterSource], shrink: Double, making: Bool) throws -> (node: FilterNode, inputExtent: FilterExtent, scale: Double) {
        func source(_ reference: FilterImageReference) throws -> FilterNode { try sources[reference.name]!.node(making: making).0 }
        var (node, scale) = try sources[input.name]!.node(making: making)
        let inputExtent = node.extent
        for step in steps {
            switch step {
            case .plain(.gaussianBlur(let radius), _) where shrink > 1:
                node = .filtered(node, .gaussianBlur(radius: radius / shrink))
            case .plain(let filter, _):
                node = .filtered(node, filter)
            case .vignette(let filter, let at):
                if case .vignette(let center, let radius, _, _) = filter, node.extent == .infinite, center == nil || radius == nil {
                    throw SceneError(location: at, message: "a vignette on an image of infinite extent needs "
                        + "\"center\" and \"radius\"")
                }
                node = .filtered(node, filter)
            case .blendWithMask(let mask, let background):
                node = .filtered(node, .blendWithMask(mask: try source(mask), background: try background.map(source)))
            case .composite(let mode, let background):
                node = .filtered(node, .composite(mode: mode, background: try source(background)))
            }
        }
        return (node, inputExtent, scale)
    }
}
