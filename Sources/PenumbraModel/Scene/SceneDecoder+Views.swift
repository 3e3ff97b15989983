// Views: the `drawView` op and view snapshot images (SCENE_FORMAT.md,
// "Views") to ViewNode trees. Every key is checked against the view's type,
// every error names its place (`ops[3].view.subviews[2].frame: ...`), views
// are counted against `maxViews` over the whole scene and trees are at most
// 64 levels deep. A `draw` is an op list like any other: its ops count
// towards `maxOps` and have their own save / layer structure. Labels are laid
// out here, by the scene's text engine, in the direction their view has, so a
// decoded tree is drawable as it is.
//
// Choices where the format is silent:
// - `frame` and `center` are exclusive; a view placed by `center` needs
//   `bounds` (its size); `bounds` given with `frame` must have the frame's
//   size (UIKit keeps them equal under an identity transform). A view with
//   neither sits at [0, 0] with its bounds' size (or none).
// - `draw` belongs to plain views: UIImageView, UILabel and
//   UIVisualEffectView draw their own content.
// - `style` of a visual effect defaults to `light`; a label with neither
//   `text` nor `runs` draws no text; `numberOfLines` 0 is no limit, as in UIKit.
// - `sizeToFit` keeps a `center`-placed view's centre (its frame is not
//   defined under a transform); a frame of width 0 measures without a width
//   limit, as UILabel's sizeToFit does.
// - An image's `renderingMode` takes UIImage's names: `automatic` and
//   `alwaysOriginal` are `original`, `alwaysTemplate` is a template.

extension SceneDecoder {
    /// The deepest a view tree may be.
    static let maxViewDepth = 64

    static let viewCommonKeys: Set<String> = [
        "type", "frame", "bounds", "center", "transform", "alpha", "hidden", "backgroundColor", "clipsToBounds",
        "tintColor", "semanticContentAttribute", "layer", "subviews",
    ]
    /// The keys each type adds to the common ones.
    static let viewTypeKeys: [String: Set<String>] = [
        "view": ["draw"],
        "imageView": ["image", "contentMode"],
        "label": ["text", "runs", "font", "textColor", "textAlignment", "numberOfLines", "lineBreakMode", "sizeToFit"],
        "visualEffect": ["effect", "style"],
    ]
    static let viewLayerKeys: Set<String> = [
        "cornerRadius", "borderWidth", "borderColor", "shadowColor", "shadowOpacity", "shadowOffset", "shadowRadius", "shadowPath",
    ]
    /// The image traits an `images` entry in object form may carry for image views.
    static let imageTraitKeys: Set<String> = ["renderingMode", "flipsForRightToLeftLayoutDirection"]
    static let viewSnapshotKeys: Set<String> = ["view", "scale", "layoutDirection"]

    /// `drawView`: `view` and `layoutDirection`.
    mutating func drawView(_ o: JSONObjectReader) throws -> DrawViewOp {
        let direction = try o.optional("layoutDirection")?.choice(LayoutDirection.self) ?? .leftToRight
        let root = try view(try o.required("view"), depth: 1, direction: direction)
        return DrawViewOp(root: root, layoutDirection: direction)
    }

    /// One view and its subviews; `direction` is its superview's (the op's for the root).
    mutating func view(_ reader: JSONReader, depth: Int, direction inherited: LayoutDirection) throws -> ViewNode {
        guard case .object(let raw) = reader.value else { throw reader.typeError(expected: "a view object") }
        guard depth <= Self.maxViewDepth else { throw reader.error("views nested more than \(Self.maxViewDepth) levels deep") }
        viewCount += 1
        guard viewCount <= limits.maxViews else {
            throw reader.error("more than \(limits.maxViews) views in the scene, over the limit (--max-views)")
        }
        try RenderCancellation.checkCurrent()
        var type = "view"
        if let t = raw["type"] {
            type = try JSONReader(t, at: JSONReader.location(reader.location, key: "type")).string()
        }
        guard let typeKeys = Self.viewTypeKeys[type] else {
            let at = JSONReader(raw["type"]!, at: JSONReader.location(reader.location, key: "type"))
            throw at.error(NameSuggestion.unknownNameMessage("view type", plural: "view types", name: type,
                                                             known: Self.viewTypeKeys.keys))
        }
        let o = try reader.object(allowing: Self.viewCommonKeys.union(typeKeys))

        var node = try placedView(o)
        node.id = viewCount
        node.alpha = try o.optional("alpha")?.number(in: 0...1) ?? 1
        node.isHidden = try o.optional("hidden")?.bool() ?? false
        node.backgroundColor = try o.optional("backgroundColor")?.color()
        node.clipsToBounds = try o.optional("clipsToBounds")?.bool() ?? false
        node.tintColor = try o.optional("tintColor")?.color()
        node.semanticContentAttribute = try o.optional("semanticContentAttribute")?.choice(SemanticContentAttribute.self)
            ?? .unspecified
        if let layer = o.optional("layer") { node.layer = try viewLayer(layer) }
        let direction = node.direction(inheriting: inherited)

        switch type {
        case "imageView": node.content = .image(try imageViewContent(o))
        case "label": try label(o, into: &node, direction: direction)
        case "visualEffect":
            let style = try o.optional("style")?.choice(VisualEffectStyle.self) ?? .light
            let effect = try o.required("effect")
            switch try effect.string() {
            case "blur": node.content = .blur(style)
            case "vibrancy": node.content = .vibrancy(style)
            case let other: throw effect.error("expected \"blur\" or \"vibrancy\", got \(SceneText.quote(other))")
            }
        default:
            if let draw = o.optional("draw") { node.content = .ops(try decodeOpList(draw)) }
        }

        if let list = o.optional("subviews") {
            guard case .array = list.value else { throw list.typeError(expected: "an array of views") }
            node.subviews = try list.array().map { try view($0, depth: depth + 1, direction: direction) }
        }
        return node
    }

    /// `frame`, or `center` with `bounds` and an optional `transform`.
    private func placedView(_ o: JSONObjectReader) throws -> ViewNode {
        let bounds = try o.optional("bounds").map { try $0.rect() }
        switch (o.optional("frame"), o.optional("center")) {
        case (let frameReader?, nil):
            if let t = o.optional("transform") {
                throw t.error("a view with a \"frame\" cannot have a \"transform\" (UIKit leaves the frame undefined under "
                    + "a transform): place it by \"center\" and \"bounds\"")
            }
            let frame = try frameReader.rect()
            var node = ViewNode(frame: frame)
            if let bounds, let boundsReader = o.optional("bounds") {
                guard bounds.size == frame.size else {
                    throw boundsReader.error("the bounds' size \(SceneText.number(bounds.width)) x \(SceneText.number(bounds.height)) "
                        + "must be the frame's, \(SceneText.number(frame.width)) x \(SceneText.number(frame.height))")
                }
                node.bounds = bounds
            }
            return node
        case (nil, let centerReader?):
            guard let bounds else { throw o.error("a view placed by \"center\" needs \"bounds\" (its size)") }
            var transform = AffineTransform.identity
            if let t = o.optional("transform") {
                let m = try t.numbers(6)
                transform = AffineTransform(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5])
            }
            return ViewNode(placement: .center(try centerReader.point(), transform: transform), bounds: bounds)
        case (nil, nil):
            if let t = o.optional("transform") { throw t.error("a \"transform\" needs \"center\" and \"bounds\"") }
            let b = bounds ?? .zero
            var node = ViewNode(frame: Rect(x: 0, y: 0, width: b.width, height: b.height))
            node.bounds = b
            return node
        case (_?, _?):
            throw o.error("a view takes \"frame\" or \"center\", not both")
        }
    }

    /// The `layer` object.
    private mutating func viewLayer(_ reader: JSONReader) throws -> ViewLayerStyle {
        let o = try reader.object(allowing: Self.viewLayerKeys)
        var style = ViewLayerStyle()
        style.cornerRadius = try o.optional("cornerRadius")?.nonNegative("cornerRadius") ?? 0
        style.borderWidth = try o.optional("borderWidth")?.nonNegative("borderWidth") ?? 0
        style.borderColor = try o.optional("borderColor")?.color() ?? .black
        style.shadowColor = try o.optional("shadowColor")?.color() ?? .black
        style.shadowOpacity = try o.optional("shadowOpacity")?.number(in: 0...1) ?? 0
        style.shadowOffset = try o.optional("shadowOffset")?.offset() ?? Size(width: 0, height: -3)
        style.shadowRadius = try o.optional("shadowRadius")?.number(in: 0...128) ?? 3
        if let p = o.optional("shadowPath") { style.shadowPath = try path(p) }
        return style
    }

    /// An image view's `image` and `contentMode`, with the image's traits from `images`.
    private mutating func imageViewContent(_ o: JSONObjectReader) throws -> ViewImage {
        let nameReader = try o.required("image")
        let name = try nameReader.string()
        guard imageDeclarations[name] != nil else {
            throw nameReader.error("no image named \(SceneText.quote(name)) in \"images\"")
        }
        let traits = imageTraits[name] ?? ImageTraits()
        return ViewImage(name: name, image: try image(named: name),
                         contentMode: try o.optional("contentMode")?.choice(ContentMode.self) ?? .scaleToFill,
                         isTemplate: traits.isTemplate, flipsForRightToLeft: traits.flipsForRightToLeft)
    }

    /// A label's text laid out in its bounds (after `sizeToFit` has sized them).
    private mutating func label(_ o: JSONObjectReader, into node: inout ViewNode, direction: LayoutDirection) throws {
        guard let engine = textEngine else { throw o.error(Self.noEngine) }
        var base = try runFields(o, engine: engine)
        base.color = try o.optional("textColor")?.color() ?? .black
        let runs = try textRuns(o, base: base, engine: engine, owner: "a label", required: false)
        var style = TextStyle(lineBreakMode: .truncateTail, numberOfLines: 1, verticalAlignment: .center)
        let alignment = try o.optional("textAlignment")?.choice(TextAlignment.self) ?? .natural
        style.alignment = alignment == .natural ? (direction == .rightToLeft ? .right : .left) : alignment
        style.numberOfLines = try o.optional("numberOfLines").map { try Self.integer($0, in: 0...Int(Int32.max)) } ?? 1
        style.lineBreakMode = try o.optional("lineBreakMode")?.choice(LineBreakMode.self) ?? .truncateTail

        guard !runs.isEmpty else { return }
        if try o.optional("sizeToFit")?.bool() ?? false {
            let measured = try layout(TextLayoutRequest(runs: runs, style: style,
                                                        placement: .at(node.bounds.origin, maxWidth: node.bounds.width > 0 ? node.bounds.width : nil)), at: o)
            node.resize(to: measured.box.size)
        }
        let drawing = try layout(TextLayoutRequest(runs: runs, style: style, placement: .rect(node.bounds)), at: o)
        try countTextSegments(drawing, at: o)
        for message in drawing.warnings { warnings.append(RenderWarning(location: o.location, message: message)) }
        node.content = .label(LabelText(drawing))
    }

    private func layout(_ request: TextLayoutRequest, at o: JSONObjectReader) throws -> TextDrawing {
        do { return try textEngine!.layout(request) } catch {
            try RenderCancellation.checkCurrent()
            throw o.error(error.message)
        }
    }

    // MARK: Image traits and view snapshots

    /// Takes an `images` entry's traits (`renderingMode`, `flipsForRightToLeftLayoutDirection`)
    /// off its object, for the entry's own form to be read without them.
    mutating func takeImageTraits(_ entry: JSONReader, name: String) throws -> JSONReader {
        guard case .object(let object) = entry.value, object.keys.contains(where: Self.imageTraitKeys.contains) else { return entry }
        var traits = ImageTraits()
        var rest = JSONObject()
        for member in object.members {
            let value = JSONReader(member.value, at: JSONReader.location(entry.location, key: member.key))
            switch member.key {
            case "renderingMode":
                switch try value.string() {
                case "automatic", "alwaysOriginal": traits.isTemplate = false
                case "alwaysTemplate": traits.isTemplate = true
                case let other:
                    throw value.error("expected \"automatic\", \"alwaysOriginal\" or \"alwaysTemplate\", got \(SceneText.quote(other))")
                }
            case "flipsForRightToLeftLayoutDirection": traits.flipsForRightToLeft = try value.bool()
            default: rest.insert(member.key, member.value)
            }
        }
        guard !rest.keys.isEmpty else {
            throw entry.error("an image needs a source besides \"renderingMode\" and \"flipsForRightToLeftLayoutDirection\"")
        }
        imageTraits[name] = traits
        return JSONReader(.object(rest), at: entry.location)
    }

    /// `{ "view", "scale", "layoutDirection" }`: the tree rendered offscreen at its root's bounds' size.
    mutating func renderViewSnapshot(_ reader: JSONReader, location: String) throws -> Image {
        let o = try reader.object(allowing: Self.viewSnapshotKeys)
        let s = try o.optional("scale")?.positive() ?? scale
        let direction = try o.optional("layoutDirection")?.choice(LayoutDirection.self) ?? .leftToRight
        var root = try view(try o.required("view"), depth: 1, direction: direction)
        let size = root.bounds.size
        guard size.width > 0, size.height > 0 else {
            throw SceneError(location: location, message: "a view snapshot needs a root with a size, got "
                + "\(SceneText.number(size.width)) x \(SceneText.number(size.height))")
        }
        root.placement = .frame(Rect(x: 0, y: 0, width: size.width, height: size.height))
        return try renderOffscreenScene(size: size, scale: s, background: nil,
                                        ops: [.drawView(DrawViewOp(root: root, layoutDirection: direction))], location: location)
    }
}

/// What an `images` entry says about how image views show it.
struct ImageTraits {
    var isTemplate = false
    var flipsForRightToLeft = false
}

extension ViewNode {
    /// Gives the view a new size, keeping its frame's origin (or its centre).
    mutating func resize(to size: Size) {
        bounds.size = size
        if case .frame(let frame) = placement { placement = .frame(Rect(origin: frame.origin, size: size)) }
    }
}
