// Text: the `fonts` map and the `drawText` op (SCENE_FORMAT.md, "Text"). Every
// field is checked here, runs are merged over the op's fields one by one,
// feature tags are checked against the OpenType registry, and then the
// scene's TextEngine checks fonts and families and lays the text out, so a
// font that does not parse, a face index out of range or an empty family name
// rejects the scene before anything is drawn, at the place that named it.
// What the layout draws otherwise than asked (characters no installed font
// has, a family none has, drawn in a generic family) is a warning at the op's
// place (RenderWarning.swift), not an error.
//
// Choices where the format is silent:
// - The op also takes `underline`, `strikethrough` and `maxWidth` (with `at`),
//   `verticalAlignment` (with `rect`); runs inherit the op's underline and
//   strikethrough like any other field.
// - A run's `family` replaces the op's `name` and the reverse: they are one
//   choice, the font to use.
// - `weight` must be 100...900 (any number in it, rounded) or "regular"/"bold".
// - Characters are counted as Unicode scalars for `--max-text`.

extension SceneDecoder {
    static let textFields: Set<String> = [
        "text", "runs", "font", "color", "at", "rect", "maxWidth", "alignment", "lineBreakMode", "numberOfLines",
        "lineSpacing", "lineHeightMultiple", "verticalAlignment", "kerning", "features", "frame", "underline",
        "strikethrough",
    ]
    static let runFields: Set<String> = ["text", "font", "color", "underline", "strikethrough", "kerning", "features"]
    static let fontFields: Set<String> = ["family", "name", "size", "weight", "italic"]
    static let frameFields: Set<String> = ["image", "capInsets", "resizingMode", "padding"]
    /// A `fonts` entry in object form.
    static let fontFileKeys: Set<String> = ["path", "index"]

    /// A font object's fields as written (nil: not given), with where each came from.
    struct FontFields {
        var family: (String, JSONReader)?
        var name: (String, JSONReader)?
        var size: Double?
        var weight: (Int, JSONReader)?
        var italic: (Bool, JSONReader)?
    }

    /// The style fields a run can give; nil is "take the op's".
    struct RunFields {
        var font = FontFields()
        var color: Color?
        var underline: Bool?
        var strikethrough: Bool?
        var kerning: Double?
        var features: [FontFeature]?
    }

    // MARK: fonts

    /// Reads and checks every entry of `fonts`: `"path"`, a `data:font/...;base64,` URI, or `{ "path", "index" }`.
    mutating func declareFonts(_ reader: JSONReader) throws {
        guard case .object(let object) = reader.value else {
            throw reader.typeError(expected: "an object mapping font names to font files")
        }
        for member in object.members {
            let entry = JSONReader(member.value, at: JSONReader.location(reader.location, key: member.key))
            let source: String, index: Int
            switch member.value {
            case .string(let s): source = s; index = 0
            case .object:
                let o = try entry.object(allowing: Self.fontFileKeys)
                source = try o.required("path").string()
                index = try o.optional("index").map { try Self.integer($0, in: 0...0xFFFF) } ?? 0
            default: throw entry.typeError(expected: "a font file (a relative path or a data URI) or {\"path\", \"index\"}")
            }
            let bytes: [UInt8]
            do {
                bytes = try FontFileSource.bytes(source, in: sources)
            } catch let failure as ImageSource.Failure {
                throw entry.error(failure.message)
            }
            let font = FontSource(bytes: bytes, index: index)
            guard let engine = textEngine else { throw entry.error(Self.noEngine) }
            do { try engine.checkFont(font) } catch { throw entry.error(error.message) }
            fontSources[member.key] = font
        }
    }

    static let noEngine = "text needs a text engine: decode the scene through the Penumbra module (Scene.decode(..., environment: .standard))"

    // MARK: drawText

    mutating func drawText(_ o: JSONObjectReader) throws -> DrawTextOp {
        guard let engine = textEngine else { throw o.error(Self.noEngine) }
        let base = try runFields(o, engine: engine)
        var runs = try textRuns(o, base: base, engine: engine, owner: "drawText", required: true)
        // No runs is empty text, which draws nothing (as an empty attributed string does).
        if runs.isEmpty { runs = [try resolve(text: "", base, RunFields(), at: o, engine: engine)] }

        var style = TextStyle()
        style.alignment = try o.optional("alignment")?.choice(TextAlignment.self) ?? .natural
        style.lineBreakMode = try o.optional("lineBreakMode")?.choice(LineBreakMode.self) ?? .wordWrap
        style.numberOfLines = try o.optional("numberOfLines").map { try Self.integer($0, in: 0...Int(Int32.max)) } ?? 0
        style.lineSpacing = try o.optional("lineSpacing")?.nonNegative("lineSpacing") ?? 0
        style.lineHeightMultiple = try o.optional("lineHeightMultiple")?.positive() ?? 1

        var padding = EdgeInsets.zero
        var frameReader: JSONObjectReader?
        if let f = o.optional("frame") {
            let fo = try f.object(allowing: Self.frameFields)
            frameReader = fo
            if let p = fo.optional("padding") {
                _ = try p.numbers(4)
                let v = try p.array().map { try $0.nonNegative("a padding") }
                padding = EdgeInsets(top: v[0], left: v[1], bottom: v[2], right: v[3])
            }
        }

        let placement: TextPlacement
        switch (o.optional("at"), o.optional("rect")) {
        case (let at?, nil):
            if let v = o.optional("verticalAlignment") { throw v.error("\"verticalAlignment\" needs \"rect\"") }
            let p = try at.point()
            placement = .at(Point(p.x + padding.left, p.y + padding.top), maxWidth: try o.optional("maxWidth")?.nonNegative("maxWidth"))
        case (nil, let rect?):
            if let m = o.optional("maxWidth") { throw m.error("\"maxWidth\" goes with \"at\"; a rect's width is its limit") }
            style.verticalAlignment = try o.optional("verticalAlignment")?.choice(TextVerticalAlignment.self) ?? .top
            let r = try rect.rect()
            placement = .rect(Rect(x: r.minX + padding.left, y: r.minY + padding.top,
                                   width: max(0, r.width - padding.left - padding.right),
                                   height: max(0, r.height - padding.top - padding.bottom)))
        case (nil, nil): throw o.error("drawText needs \"at\" or \"rect\"")
        case (_?, _?): throw o.error("drawText takes \"at\" or \"rect\", not both")
        }

        let request = TextLayoutRequest(runs: runs, style: style, placement: placement)
        let drawing: TextDrawing
        do { drawing = try engine.layout(request) } catch {
            try RenderCancellation.checkCurrent()  // a cancelled layout stops with an error of its own
            throw o.error(error.message)
        }
        try countTextSegments(drawing, at: o)
        for message in drawing.warnings { warnings.append(RenderWarning(location: o.location, message: message)) }

        var frame: DrawTextOp.Frame?
        if let fo = frameReader {
            let nameReader = try fo.required("image")
            let name = try nameReader.string()
            guard imageDeclarations[name] != nil else {
                throw nameReader.error("no image named \(SceneText.quote(name)) in \"images\"")
            }
            var image = try self.image(named: name)
            if let insetsReader = fo.optional("capInsets") {
                _ = try insetsReader.numbers(4)
                let v = try insetsReader.array().map { try $0.nonNegative("a cap inset") }
                let mode = try fo.optional("resizingMode")?.choice(ResizingMode.self) ?? .tile
                image = image.resizable(capInsets: EdgeInsets(top: v[0], left: v[1], bottom: v[2], right: v[3]), mode: mode)
            } else if let mode = fo.optional("resizingMode") {
                throw mode.error("\"resizingMode\" needs \"capInsets\"")
            }
            let rect: Rect
            switch placement {
            case .at(let p, _):
                rect = Rect(x: p.x - padding.left, y: p.y - padding.top, width: drawing.box.width + padding.left + padding.right,
                            height: drawing.box.height + padding.top + padding.bottom)
            case .rect(let r):
                rect = Rect(x: r.minX - padding.left, y: r.minY - padding.top, width: r.width + padding.left + padding.right,
                            height: r.height + padding.top + padding.bottom)
            }
            frame = DrawTextOp.Frame(imageName: name, image: image, rect: rect)
        }
        return DrawTextOp(request: request, frame: frame, drawing: drawing)
    }

    /// The runs of `text` or `runs` (exclusive), each run's fields merged over `base`, the
    /// characters counted against `maxTextCharacters`; `owner` names the object in errors
    /// ("drawText", "a label"). Neither key is an error when `required`, else no runs.
    mutating func textRuns(_ o: JSONObjectReader, base: RunFields, engine: any TextEngine, owner: String,
                           required: Bool) throws -> [TextRun] {
        var runs: [TextRun] = []
        switch (o.optional("text"), o.optional("runs")) {
        case (let text?, nil): runs = [try resolve(text: try text.string(), base, RunFields(), at: o, engine: engine)]
        case (nil, let list?):
            guard case .array = list.value else { throw list.typeError(expected: "an array of runs") }
            for item in try list.array() {
                let r = try item.object(allowing: Self.runFields)
                runs.append(try resolve(text: try r.required("text").string(), base, try runFields(r, engine: engine),
                                        at: r, engine: engine))
            }
        case (nil, nil): if required { throw o.error("\(owner) needs \"text\" or \"runs\"") }
        case (_?, _?): throw o.error("\(owner) takes \"text\" or \"runs\", not both")
        }
        let characters = runs.reduce(0) { $0 + $1.text.unicodeScalars.count }
        guard characters <= limits.maxTextCharacters else {
            throw o.error("\(characters) characters of text, over the limit of \(limits.maxTextCharacters)")
        }
        return runs
    }

    /// The style fields of an op or run object.
    func runFields(_ o: JSONObjectReader, engine: any TextEngine) throws -> RunFields {
        var fields = RunFields()
        if let f = o.optional("font") {
            let fo = try f.object(allowing: Self.fontFields)
            if let r = fo.optional("family") {
                let family = try r.string()
                do { try engine.checkFamily(family) } catch { throw r.error(error.message) }
                fields.font.family = (family, r)
            }
            if let r = fo.optional("name") {
                let name = try r.string()
                guard fontSources[name] != nil else { throw r.error("no font named \(SceneText.quote(name)) in \"fonts\"") }
                fields.font.name = (name, r)
            }
            if fields.font.family != nil, fields.font.name != nil { throw fo.error("a font takes \"family\" or \"name\", not both") }
            fields.font.size = try fo.optional("size")?.positive()
            if let r = fo.optional("weight") { fields.font.weight = (try Self.weight(r), r) }
            if let r = fo.optional("italic") { fields.font.italic = (try r.bool(), r) }
        }
        fields.color = try o.optional("color")?.color()
        fields.underline = try o.optional("underline")?.bool()
        fields.strikethrough = try o.optional("strikethrough")?.bool()
        fields.kerning = try o.optional("kerning")?.number()
        if let r = o.optional("features") { fields.features = try Self.features(r) }
        return fields
    }

    /// A run's fields merged one by one over the op's, then over the defaults.
    func resolve(text: String, _ op: RunFields, _ run: RunFields, at o: JSONObjectReader,
                         engine: any TextEngine) throws -> TextRun {
        let useRunChoice = run.font.family != nil || run.font.name != nil
        let family = useRunChoice ? run.font.family : op.font.family
        let name = useRunChoice ? run.font.name : op.font.name
        let weight = run.font.weight ?? op.font.weight
        let italic = run.font.italic ?? op.font.italic
        let size = run.font.size ?? op.font.size ?? 17
        let selector: FontSelector
        if let (fontName, _) = name {
            if let (_, r) = weight { throw r.error("a \"fonts\" entry (\"name\") cannot be combined with \"weight\"") }
            if let (_, r) = italic { throw r.error("a \"fonts\" entry (\"name\") cannot be combined with \"italic\"") }
            selector = .source(fontSources[fontName]!)
        } else {
            selector = .family(family?.0 ?? "sans-serif", weight: weight?.0 ?? 400, italic: italic?.0 ?? false)
        }
        return TextRun(text: text, font: FontRequest(selector: selector, size: size), color: run.color ?? op.color,
                       underline: run.underline ?? op.underline ?? false,
                       strikethrough: run.strikethrough ?? op.strikethrough ?? false,
                       kerning: run.kerning ?? op.kerning ?? 0, features: run.features ?? op.features ?? [])
    }

    /// Text outlines count towards the scene's path segments.
    mutating func countTextSegments(_ drawing: TextDrawing, at o: JSONObjectReader) throws {
        for case .fill(let path, _) in drawing.pieces {
            pathSegmentCount += path.elements.count
            guard pathSegmentCount <= limits.maxPathSegments else {
                throw o.error("the scene's paths (glyph outlines included) have more than \(limits.maxPathSegments) segments")
            }
        }
    }

    static func integer(_ r: JSONReader, in range: ClosedRange<Int>) throws -> Int {
        let v = try r.number()
        guard v == v.rounded(), v >= Double(range.lowerBound), v <= Double(range.upperBound) else {
            throw r.error("expected a whole number in \(range.lowerBound)...\(range.upperBound), got \(SceneText.number(v))")
        }
        return Int(v)
    }

    static func weight(_ r: JSONReader) throws -> Int {
        if case .string(let s) = r.value {
            switch s {
            case "regular": return 400
            case "bold": return 700
            default: throw r.error("expected a weight 100...900, \"regular\" or \"bold\", got \(SceneText.quote(s))")
            }
        }
        return Int(try r.number(in: 100...900).rounded())
    }

    /// `{ "liga": false, "tnum": true, "salt": 2 }`: registered tags only.
    static func features(_ r: JSONReader) throws -> [FontFeature] {
        guard case .object(let object) = r.value else { throw r.typeError(expected: "an object of OpenType features") }
        var out: [FontFeature] = []
        for member in object.members {
            let v = JSONReader(member.value, at: JSONReader.location(r.location, key: member.key))
            guard OpenTypeFeatures.isRegistered(member.key) else {
                throw v.error("unknown OpenType feature tag \(SceneText.quote(member.key))")
            }
            let value: Int
            switch member.value {
            case .bool(let b): value = b ? 1 : 0
            default: value = try integer(v, in: 0...0xFFFF)
            }
            out.append(FontFeature(tag: member.key, value: value))
        }
        return out
    }
}
