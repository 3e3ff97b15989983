// Paths: an SVG path-data string, parsed by Path(svgPathData:) (its errors
// become `ops[3].path: at character 12: expected a number`), or an object
// with exactly one shape key: rect, ellipse, roundedRect (with radius) or
// arc (an object of center, radius, start, end and optional clockwise,
// default true). Negative widths, heights and radii are errors; zero is a
// valid, empty shape. Every path's elements count towards the scene's
// maxPathSegments, and a path whose points overflow to infinity (a huge
// origin plus a huge width, or an SVG number too large for a double) is
// rejected as not finite.

extension SceneDecoder {
    static let shapeKeys = ["rect", "ellipse", "roundedRect", "arc"]
    static let arcKeys: Set<String> = ["center", "radius", "start", "end", "clockwise"]

    /// The path at `reader`, counted against the scene's segment limit.
    mutating func path(_ reader: JSONReader) throws -> Path {
        let path: Path
        switch reader.value {
        case .string(let data):
            do {
                path = try Path(svgPathData: data)
            } catch let e as PathDataError {
                throw reader.error(e.description)
            } catch {
                throw reader.error("\(error)")
            }
        case .object:
            path = try shape(reader)
        default:
            throw reader.typeError(expected: "a path (an SVG path-data string or a shape object)")
        }
        guard path.allPoints.allSatisfy(\.isFinite) else { throw reader.error("the path's coordinates are not finite") }
        try countSegments(of: path, at: reader)
        return path
    }

    /// `{"rect": ...}`, `{"ellipse": ...}`, `{"roundedRect": ..., "radius": r}` or `{"arc": {...}}`.
    private func shape(_ reader: JSONReader) throws -> Path {
        let object = try reader.object(allowing: Set(Self.shapeKeys + ["radius"]))
        let present = Self.shapeKeys.filter(object.has)
        guard present.count == 1, let kind = present.first else {
            if present.isEmpty {
                throw reader.error("a shape object needs one of the keys " + Self.shapeKeys.map(SceneText.quote).joined(separator: ", "))
            }
            throw reader.error("a shape object has exactly one shape, got " + present.map(SceneText.quote).joined(separator: " and "))
        }
        if kind != "roundedRect", object.has("radius") {
            throw reader.error("\"radius\" goes with \"roundedRect\" only (an arc's radius goes inside \"arc\")")
        }
        var path = Path()
        let value = try object.required(kind)
        switch kind {
        case "rect":
            path.addRect(try value.rect())
        case "ellipse":
            path.addEllipse(in: try value.rect())
        case "roundedRect":
            let rect = try value.rect()
            let radius = try object.required("radius").nonNegative("radius")
            path.addRoundedRect(in: rect, cornerRadius: radius)
        default:
            let arc = try value.object(allowing: Self.arcKeys)
            let center = try arc.required("center").point()
            let radius = try arc.required("radius").nonNegative("radius")
            let start = try arc.required("start").number()
            let end = try arc.required("end").number()
            let clockwise = try arc.optional("clockwise")?.bool() ?? true
            path.addArc(center: center, radius: radius, startAngle: start, endAngle: end, clockwise: clockwise)
        }
        return path
    }
}
