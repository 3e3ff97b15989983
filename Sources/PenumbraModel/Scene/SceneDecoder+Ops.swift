// Ops: one op object to one SceneOp. The table `opFields` lists each op's
// fields (SCENE_FORMAT.md, "Ops"); any other key is an error naming it, and
// a field is required unless the format calls it optional. Ranges: alpha
// 0...1, blur 0...256, line width, miter limit, radii and dash lengths >= 0,
// every number finite. drawImage's attributes are validated here too; the
// image itself is loaded once per name (SceneDecoder+Images.swift).
//
// Choices where the format is silent:
// - setLineDash needs both `phase` and `lengths` (neither is marked optional).
// - setMiterLimit accepts any finite limit >= 0 (Quartz takes any value; a
//   negative one is meaningless and is rejected).
// - drawImage's `alpha` must be in 0...1, like setAlpha; `tint` is an error
//   unless `renderingMode` is "template"; `resizingMode` is an error without
//   `capInsets`; `flipped` accepts only "horizontal".
// - Cap insets larger than the image are accepted (the Image API allows them).
// - `contentMode` with `at` is an error (the format gives it only with `rect`);
//   `interpolation` is validated and carried to the draw (ImageDraw).

extension SceneDecoder {
    /// Each op's fields, besides "op".
    static let opFields: [String: Set<String>] = [
        "save": [], "restore": [], "clearShadow": [], "beginLayer": [], "endLayer": [],
        "concat": ["matrix"], "translate": ["x", "y"], "scale": ["x", "y"], "rotate": ["angle"],
        "setAlpha": ["alpha"], "setBlendMode": ["mode"], "setShadow": ["offset", "blur", "color"],
        "setFillColor": ["color"], "setStrokeColor": ["color"], "setLineWidth": ["width"],
        "setLineCap": ["cap"], "setLineJoin": ["join"], "setMiterLimit": ["limit"],
        "setLineDash": ["phase", "lengths"], "clip": ["path", "rule"], "fill": ["path", "rule"], "stroke": ["path"],
        "drawImage": ["image", "rect", "at", "blendMode", "alpha", "crop", "capInsets", "resizingMode",
                      "renderingMode", "tint", "flipped", "contentMode", "clipsToBounds", "interpolation"],
        "linearGradient": ["start", "end", "stops", "extend"],
        "radialGradient": ["startCenter", "startRadius", "endCenter", "endRadius", "stops", "extend"],
        "drawText": SceneDecoder.textFields,
        "blurBackdrop": ["path", "radius", "saturation", "tint"],
        "drawView": ["view", "layoutDirection"],
    ]

    static let blendModeExpectation = "a blend mode (normal, multiply, screen, ..., plusLighter: the CGBlendMode names)"

    /// Decodes one element of `ops`.
    mutating func decodeOp(_ reader: JSONReader) throws -> SceneOp {
        guard case .object(let raw) = reader.value else { throw reader.typeError(expected: "an op object") }
        guard let nameValue = raw["op"] else { throw reader.error("missing key \"op\"") }
        let nameReader = JSONReader(nameValue, at: JSONReader.location(reader.location, key: "op"))
        let name = try nameReader.string()
        guard let fields = Self.opFields[name] else {
            throw reader.error(NameSuggestion.unknownNameMessage("op", plural: "ops", name: name, known: Self.opFields.keys))
        }
        let o = try reader.object(allowing: fields.union(["op"]))

        switch name {
        case "save": return .save
        case "restore": return .restore
        case "clearShadow": return .clearShadow
        case "beginLayer": return .beginLayer
        case "endLayer": return .endLayer
        case "concat":
            let m = try o.required("matrix").numbers(6)
            return .concat(AffineTransform(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5]))
        case "translate": return .translate(x: try o.required("x").number(), y: try o.required("y").number())
        case "scale": return .scale(x: try o.required("x").number(), y: try o.required("y").number())
        case "rotate": return .rotate(angle: try o.required("angle").number())
        case "setAlpha": return .setAlpha(try o.required("alpha").number(in: 0...1))
        case "setBlendMode": return .setBlendMode(try o.required("mode").choice(BlendMode.self, naming: Self.blendModeExpectation))
        case "setShadow":
            let offset = try o.required("offset").offset()
            let blur = try o.required("blur").number(in: 0...256)
            let color = try o.optional("color")?.color() ?? .defaultShadow
            return .setShadow(offset: offset, blur: blur, color: color)
        case "setFillColor": return .setFillColor(try o.required("color").color())
        case "setStrokeColor": return .setStrokeColor(try o.required("color").color())
        case "setLineWidth": return .setLineWidth(try o.required("width").nonNegative("width"))
        case "setLineCap": return .setLineCap(try o.required("cap").choice(LineCap.self))
        case "setLineJoin": return .setLineJoin(try o.required("join").choice(LineJoin.self))
        case "setMiterLimit": return .setMiterLimit(try o.required("limit").nonNegative("limit"))
        case "setLineDash":
            let phase = try o.required("phase").number()
            return .setLineDash(phase: phase, lengths: try dashLengths(o.required("lengths")))
        case "clip": return .clip(try path(o.required("path")), try fillRule(o))
        case "fill": return .fill(try path(o.required("path")), try fillRule(o))
        case "stroke": return .stroke(try path(o.required("path")))
        case "drawImage": return .drawImage(try drawImage(o))
        case "drawText": return .drawText(try drawText(o))
        case "drawView": return .drawView(try drawView(o))
        case "blurBackdrop":
            return .blurBackdrop(try path(o.required("path")), radius: try o.required("radius").number(in: 0...256),
                                 saturation: try o.optional("saturation")?.number() ?? 1, tint: try o.optional("tint")?.color())
        case "linearGradient":
            let (extendStart, extendEnd) = try o.optional("extend")?.extendFlags() ?? (true, true)
            return .linearGradient(start: try o.required("start").point(), end: try o.required("end").point(),
                                   stops: try o.required("stops").gradientStops(),
                                   extendStart: extendStart, extendEnd: extendEnd)
        default:  // radialGradient, the last name of the table
            let startCenter = try o.required("startCenter").point()
            let startRadius = try o.required("startRadius").nonNegative("radius")
            let endCenter = try o.required("endCenter").point()
            let endRadius = try o.required("endRadius").nonNegative("radius")
            let stops = try o.required("stops").gradientStops()
            let (extendStart, extendEnd) = try o.optional("extend")?.extendFlags() ?? (true, true)
            return .radialGradient(startCenter: startCenter, startRadius: startRadius, endCenter: endCenter,
                                   endRadius: endRadius, stops: stops, extendStart: extendStart, extendEnd: extendEnd)
        }
    }

    /// `rule`: "nonzero" (the default) or "evenodd".
    private func fillRule(_ o: JSONObjectReader) throws -> FillRule {
        try o.optional("rule")?.choice(FillRule.self) ?? .nonzero
    }

    /// Dash lengths: at most `maxDashEntries`, each >= 0, not all zero (empty is a solid line).
    private func dashLengths(_ reader: JSONReader) throws -> [Double] {
        guard case .array(let raw) = reader.value else { throw reader.typeError(expected: "an array of dash lengths") }
        guard raw.count <= limits.maxDashEntries else {
            throw reader.error("\(raw.count) dash lengths, over the limit of \(limits.maxDashEntries)")
        }
        let lengths = try reader.array().map { try $0.nonNegative("a dash length") }
        guard lengths.isEmpty || lengths.contains(where: { $0 > 0 }) else {
            throw reader.error("dash lengths must not all be 0 (an empty array is a solid line)")
        }
        return lengths
    }

    /// drawImage: the image by name, `rect` or `at`, and the optional per-call and image attributes.
    private mutating func drawImage(_ o: JSONObjectReader) throws -> DrawImageOp {
        let nameReader = try o.required("image")
        let name = try nameReader.string()
        guard imageDeclarations[name] != nil else {
            throw nameReader.error("no image named \(SceneText.quote(name)) in \"images\"")
        }

        let placement: DrawImageOp.Placement
        switch (o.optional("rect"), o.optional("at")) {
        case (let rect?, nil): placement = .rect(try rect.rect())
        case (nil, let at?): placement = .at(try at.point())
        case (nil, nil): throw o.error("drawImage needs \"rect\" or \"at\"")
        case (_?, _?): throw o.error("drawImage takes \"rect\" or \"at\", not both")
        }
        let blendMode = try o.optional("blendMode")?.choice(BlendMode.self, naming: Self.blendModeExpectation)
        let alpha = try o.optional("alpha")?.number(in: 0...1) ?? 1
        let crop = try o.optional("crop")?.rect()

        var slicing: NineSlice?
        if let insetsReader = o.optional("capInsets") {
            guard case .array = insetsReader.value else {
                throw insetsReader.typeError(expected: "[top, left, bottom, right] cap insets")
            }
            _ = try insetsReader.numbers(4)
            let v = try insetsReader.array().map { try $0.nonNegative("a cap inset") }
            let mode = try o.optional("resizingMode")?.choice(ResizingMode.self) ?? .tile
            slicing = NineSlice(capInsets: EdgeInsets(top: v[0], left: v[1], bottom: v[2], right: v[3]), mode: mode)
        } else if let mode = o.optional("resizingMode") {
            throw mode.error("\"resizingMode\" needs \"capInsets\"")
        }

        let renderingMode = try o.optional("renderingMode")?.choice(RenderingMode.self) ?? .original
        var tint: Color?
        if let tintReader = o.optional("tint") {
            guard renderingMode == .template else {
                throw tintReader.error("\"tint\" needs \"renderingMode\": \"template\"")
            }
            tint = try tintReader.color()
        }
        var flipped = false
        if let flip = o.optional("flipped") {
            guard case .string(let s) = flip.value else { throw flip.typeError(expected: "\"horizontal\"") }
            guard s == "horizontal" else { throw flip.error("expected \"horizontal\", got \(SceneText.quote(s))") }
            flipped = true
        }

        var contentMode = ContentMode.scaleToFill
        if let mode = o.optional("contentMode") {
            guard case .rect = placement else { throw mode.error("\"contentMode\" needs \"rect\"") }
            contentMode = try mode.choice(ContentMode.self)
        }
        let clips = try o.optional("clipsToBounds")?.bool() ?? false
        let interpolation = try o.optional("interpolation")?.choice(ImageInterpolation.self) ?? .default

        var op = DrawImageOp(imageName: name, image: try image(named: name), placement: placement,
                             blendMode: blendMode, alpha: alpha, crop: crop, slicing: slicing,
                             renderingMode: renderingMode, tint: tint, flippedHorizontally: flipped)
        op.contentMode = contentMode; op.clipsToBounds = clips; op.interpolation = interpolation
        return op
    }
}
