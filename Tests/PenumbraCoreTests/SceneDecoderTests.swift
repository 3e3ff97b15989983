// Tests of the scene decoder on valid input: the document fields, every op
// with every field (a table of one-op scenes checked against the expected
// SceneOp, then replayed onto a context whose state and recorded display
// list are checked), path shapes, colours, images and their attributes.
// Also holds the helpers the other scene test files share (scene builders,
// a tiny PNG encoder for test images; TemporaryFolder is in SceneBadInputTests).

import Foundation
import XCTest
import PenumbraModel
import PenumbraCore

/// Builders shared by the scene tests.
enum SceneTestSupport {
    /// A scene document of 10 x 10 points with these ops (a JSON array body) and extra top-level members.
    static func scene(_ ops: String, images: String? = nil, extra: String = "") -> String {
        var members = ["\"format\": \"penumbra-scene\"", "\"version\": 1", "\"size\": [10, 10]"]
        if let images { members.append("\"images\": \(images)") }
        if !extra.isEmpty { members.append(extra) }
        members.append("\"ops\": [\(ops)]")
        return "{" + members.joined(separator: ", ") + "}"
    }

    static func decode(_ json: String, base: String = "/nonexistent-scene-folder", limits: ResourceLimits = .default,
                       scale: Double? = nil) throws -> Scene {
        try Scene.decode(Array(json.utf8), baseDirectory: base, limits: limits, scale: scale)
    }

    /// A PNG of straight-alpha RGBA8 pixels (stored deflate blocks, no compression).
    static func png(width: Int, height: Int, rgba: [UInt8]) -> [UInt8] {
        precondition(rgba.count == width * height * 4)
        var raw: [UInt8] = []
        for y in 0..<height { raw.append(0); raw += rgba[(y * width * 4)..<((y + 1) * width * 4)] }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65_535, raw.count - offset)
            zlib.append(offset + n == raw.count ? 1 : 0)
            zlib += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + n)]
            offset += n
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        zlib += bigEndian((b << 16) | a)
        var ihdr = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        ihdr += [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    /// One PNG chunk: length, type, data, CRC-32 of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var out = ""
        var i = 0
        while i < bytes.count {
            let n = bytes.count - i
            let v = UInt32(bytes[i]) << 16 | (n > 1 ? UInt32(bytes[i + 1]) << 8 : 0) | (n > 2 ? UInt32(bytes[i + 2]) : 0)
            out.append(alphabet[Int(v >> 18 & 63)]); out.append(alphabet[Int(v >> 12 & 63)])
            out.append(n > 1 ? alphabet[Int(v >> 6 & 63)] : "="); out.append(n > 2 ? alphabet[Int(v & 63)] : "=")
            i += 3
        }
        return out
    }

    static func dataURI(_ png: [UInt8]) -> String { "data:image/png;base64," + base64(png) }

    /// A 4 x 2 test image: distinct opaque colours, alpha 255, as straight RGBA.
    static let sampleRGBA: [UInt8] = {
        var out: [UInt8] = []
        for i in 0..<8 {
            let v = UInt8(i * 30)
            out += [v, 255 - v, UInt8(i * 7), 255]
        }
        return out
    }()
    static var samplePNG: [UInt8] { png(width: 4, height: 2, rgba: sampleRGBA) }
}

final class SceneDecoderTests: XCTestCase {
    typealias S = SceneTestSupport

    func testMinimalDocumentHasTheDefaults() throws {
        let scene = try S.decode(S.scene(""))
        XCTAssertEqual(scene.size, Size(width: 10, height: 10))
        XCTAssertEqual(scene.scale, 1)
        XCTAssertNil(scene.background)
        XCTAssertTrue(scene.images.isEmpty)
        XCTAssertTrue(scene.ops.isEmpty)
        XCTAssertEqual(scene.pixelWidth, 10)
        XCTAssertEqual(scene.pixelHeight, 10)
    }

    func testDocumentFieldsAndPixelRounding() throws {
        let json = """
        {"ops": [], "background": "#FF000080", "scale": 2, "size": [10.25, 3.1], "version": 1.0, "format": "penumbra-scene"}
        """
        let scene = try S.decode(json)
        XCTAssertEqual(scene.scale, 2)
        XCTAssertEqual(scene.background, Color(red: 1, green: 0, blue: 0, alpha: 128.0 / 255.0))
        XCTAssertEqual(scene.pixelWidth, 21, "20.5 rounds half up")
        XCTAssertEqual(scene.pixelHeight, 6, "6.2 rounds to 6")
        let list = try scene.displayList()
        XCTAssertEqual(list.width, 21)
        XCTAssertEqual(list.height, 6)
        XCTAssertEqual(list.scale, 2)
        XCTAssertEqual(list.background, scene.background)
        XCTAssertEqual(scene.makeContext().ctm, AffineTransform(scaleX: 2, y: 2))
    }

    func testScaleOverrideReplacesTheDocumentScale() throws {
        let scene = try S.decode(S.scene("", extra: "\"scale\": 2"), scale: 3)
        XCTAssertEqual(scene.scale, 3)
        XCTAssertEqual(scene.pixelWidth, 30)
        XCTAssertThrowsError(try S.decode(S.scene(""), scale: 0))
        XCTAssertThrowsError(try S.decode(S.scene(""), scale: .nan))
    }

    // MARK: Every op

    private static func rectPath(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Path {
        var p = Path(); p.addRect(Rect(x: x, y: y, width: w, height: h)); return p
    }

    /// One-op scenes: the op's JSON, the SceneOp it must decode to, and a check of the context after replay.
    private static let opCases: [(json: String, op: SceneOp, check: @Sendable (GraphicsContext) -> Bool)] = {
        let red = Color(red: 1, green: 0, blue: 0)
        let half = Color(red: 0, green: 0.5, blue: 1, alpha: 0.25)
        let stops = [GradientStop(offset: 0, color: red), GradientStop(offset: 0.5, color: half), GradientStop(offset: 0.5, color: .white)]
        let stopsJSON = "[[0, \"#FF0000\"], [0.5, [0, 0.5, 1, 0.25]], [0.5, \"#FFFFFFFF\"]]"
        return [
            ("{\"op\": \"save\"}", .save, { $0.saveDepth == 1 }),
            ("{\"op\": \"restore\"}", .restore, { $0.saveDepth == 0 }),
            ("{\"op\": \"concat\", \"matrix\": [1, 2, 3, 4, 5, 6]}", .concat(AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)),
             { $0.ctm == AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6) }),
            ("{\"op\": \"translate\", \"x\": 3, \"y\": -4.5}", .translate(x: 3, y: -4.5),
             { $0.ctm == AffineTransform(translationX: 3, y: -4.5) }),
            ("{\"op\": \"scale\", \"x\": 2, \"y\": 0.5}", .scale(x: 2, y: 0.5), { $0.ctm == AffineTransform(scaleX: 2, y: 0.5) }),
            ("{\"op\": \"rotate\", \"angle\": 1.25}", .rotate(angle: 1.25), { $0.ctm == AffineTransform(rotationAngle: 1.25) }),
            ("{\"op\": \"setAlpha\", \"alpha\": 0.5}", .setAlpha(0.5), { $0.state.alpha == 0.5 }),
            ("{\"op\": \"setBlendMode\", \"mode\": \"plusDarker\"}", .setBlendMode(.plusDarker), { $0.state.blendMode == .plusDarker }),
            ("{\"op\": \"setShadow\", \"offset\": [-25, 15], \"blur\": 20}",
             .setShadow(offset: Size(width: -25, height: 15), blur: 20, color: .defaultShadow),
             { $0.state.shadow == Shadow(offset: Size(width: -25, height: 15), blur: 20, color: .defaultShadow) }),
            ("{\"op\": \"setShadow\", \"offset\": [0, 0], \"blur\": 256, \"color\": \"#FF0000\"}",
             .setShadow(offset: .zero, blur: 256, color: red), { $0.state.shadow?.color == red && $0.state.shadow?.blur == 256 }),
            ("{\"op\": \"clearShadow\"}", .clearShadow, { $0.state.shadow == nil }),
            ("{\"op\": \"setFillColor\", \"color\": \"#ff0000\"}", .setFillColor(red), { $0.state.fillColor == red }),
            ("{\"op\": \"setStrokeColor\", \"color\": [0, 0.5, 1, 0.25]}", .setStrokeColor(half), { $0.state.strokeColor == half }),
            ("{\"op\": \"setLineWidth\", \"width\": 0}", .setLineWidth(0), { $0.state.strokeStyle.width == 0 }),
            ("{\"op\": \"setLineCap\", \"cap\": \"square\"}", .setLineCap(.square), { $0.state.strokeStyle.cap == .square }),
            ("{\"op\": \"setLineJoin\", \"join\": \"bevel\"}", .setLineJoin(.bevel), { $0.state.strokeStyle.join == .bevel }),
            ("{\"op\": \"setMiterLimit\", \"limit\": 4}", .setMiterLimit(4), { $0.state.strokeStyle.miterLimit == 4 }),
            ("{\"op\": \"setLineDash\", \"phase\": 1.5, \"lengths\": [4, 0, 2]}", .setLineDash(phase: 1.5, lengths: [4, 0, 2]),
             { $0.state.strokeStyle.dashPhase == 1.5 && $0.state.strokeStyle.dashLengths == [4, 0, 2] }),
            ("{\"op\": \"setLineDash\", \"phase\": 0, \"lengths\": []}", .setLineDash(phase: 0, lengths: []),
             { $0.state.strokeStyle.dashLengths.isEmpty }),
            ("{\"op\": \"clip\", \"path\": {\"rect\": [1, 2, 3, 4]}}", .clip(rectPath(1, 2, 3, 4), .nonzero),
             { $0.state.clip == 0 && $0.displayList.clips.count == 1 && $0.commandCount == 0 }),
            ("{\"op\": \"clip\", \"path\": {\"rect\": [1, 2, 3, 4]}, \"rule\": \"evenodd\"}", .clip(rectPath(1, 2, 3, 4), .evenOdd),
             { $0.displayList.clips.first?.shape.rule == .evenOdd }),
            ("{\"op\": \"fill\", \"path\": {\"rect\": [1, 2, 3, 4]}}", .fill(rectPath(1, 2, 3, 4), .nonzero),
             { if case .fill(_, .black, _)? = $0.displayList.commands.first { return $0.commandCount == 1 }; return false }),
            ("{\"op\": \"fill\", \"path\": {\"rect\": [1, 2, 3, 4]}, \"rule\": \"evenodd\"}", .fill(rectPath(1, 2, 3, 4), .evenOdd),
             { if case .fill(let shape, _, _)? = $0.displayList.commands.first { return shape.rule == .evenOdd }; return false }),
            ("{\"op\": \"stroke\", \"path\": {\"rect\": [1, 2, 3, 4]}}", .stroke(rectPath(1, 2, 3, 4)), { $0.commandCount == 1 }),
            ("{\"op\": \"linearGradient\", \"start\": [0, 1], \"end\": [10, 1], \"stops\": \(stopsJSON)}",
             .linearGradient(start: Point(0, 1), end: Point(10, 1), stops: stops, extendStart: true, extendEnd: true),
             { if case .gradient(let g, _)? = $0.displayList.commands.first { return g.stops == stops && g.extendStart && g.extendEnd }; return false }),
            ("{\"op\": \"linearGradient\", \"start\": [0, 1], \"end\": [10, 1], \"stops\": [[0.5, \"#FF0000\"]], \"extend\": [false, true]}",
             .linearGradient(start: Point(0, 1), end: Point(10, 1), stops: [GradientStop(offset: 0.5, color: red)],
                             extendStart: false, extendEnd: true),
             { if case .gradient(let g, _)? = $0.displayList.commands.first { return !g.extendStart && g.extendEnd }; return false }),
            ("{\"op\": \"radialGradient\", \"startCenter\": [1, 2], \"startRadius\": 0, \"endCenter\": [3, 4], \"endRadius\": 5, "
                + "\"stops\": \(stopsJSON), \"extend\": [true, false]}",
             .radialGradient(startCenter: Point(1, 2), startRadius: 0, endCenter: Point(3, 4), endRadius: 5, stops: stops,
                             extendStart: true, extendEnd: false),
             { if case .gradient(let g, _)? = $0.displayList.commands.first {
                 return g.kind == .radial(startCenter: Point(1, 2), startRadius: 0, endCenter: Point(3, 4), endRadius: 5) && !g.extendEnd }
               return false }),
            ("{\"op\": \"beginLayer\"}", .beginLayer, { $0.openLayerCount == 1 && $0.commandCount == 1 }),
            ("{\"op\": \"endLayer\"}", .endLayer, { $0.openLayerCount == 0 && $0.commandCount == 2 }),
        ]
    }()

    func testEveryOpDecodesToItsSceneOp() throws {
        for (json, expected, _) in Self.opCases {
            // restore and endLayer need their opening op before them.
            let prefix = json.contains("\"restore\"") ? "{\"op\": \"save\"}, " : json.contains("\"endLayer\"") ? "{\"op\": \"beginLayer\"}, " : ""
            let scene = try S.decode(S.scene(prefix + json))
            XCTAssertEqual(scene.ops.last, expected, json)
            XCTAssertEqual(scene.ops.count, prefix.isEmpty ? 1 : 2, json)
        }
        let names = Set(Self.opCases.map { $0.json.split(separator: "\"")[3] }.map(String.init))
        XCTAssertEqual(names.count, 24, "every op of the format but drawImage (tested with images) is in the table")
    }

    func testEveryOpReplaysAsItsContextCall() throws {
        for (json, _, check) in Self.opCases {
            let prefix = json.contains("\"restore\"") ? "{\"op\": \"save\"}, " : json.contains("\"endLayer\"") ? "{\"op\": \"beginLayer\"}, " : ""
            let scene = try S.decode(S.scene(prefix + json))
            let context = scene.makeContext()  // scale 1: the initial CTM is the identity
            scene.recording.replay(into: context)
            XCTAssertTrue(check(context), "replaying \(json)")
        }
    }

    func testWholeSceneDisplayList() throws {
        let json = S.scene("""
            {"op": "setFillColor", "color": "#00FF00"},
            {"op": "fill", "path": {"ellipse": [0, 0, 10, 10]}},
            {"op": "save"}, {"op": "clip", "path": {"rect": [0, 0, 5, 5]}},
            {"op": "stroke", "path": {"roundedRect": [1, 1, 8, 8], "radius": 2}},
            {"op": "restore"},
            {"op": "beginLayer"}, {"op": "save"}, {"op": "setAlpha", "alpha": 0.5},
            {"op": "linearGradient", "start": [0, 0], "end": [10, 0], "stops": [[0, "#000000"], [1, "#FFFFFF"]]},
            {"op": "endLayer"},
            {"op": "beginLayer"},
            {"op": "radialGradient", "startCenter": [5, 5], "startRadius": 0, "endCenter": [5, 5], "endRadius": 5,
             "stops": [[0, "#000000"], [1, "#FFFFFF"]]}
            """, extra: "\"background\": \"#FFFFFF\", \"scale\": 2")
        let scene = try S.decode(json)
        XCTAssertEqual(scene.ops.count, 13)
        let list = try scene.displayList()
        let kinds = list.commands.map { command -> String in
            switch command {
            case .fill: return "fill"
            case .image: return "image"
            case .gradient: return "gradient"
            case .beginLayer: return "begin"
            case .endLayer, .endLayerConvertingLuminanceToAlpha: return "end"
            case .blurBackdrop: return "backdrop"
            case .endLayerMaskingBackdrop: return "mask"
            }
        }
        XCTAssertEqual(kinds, ["fill", "fill", "begin", "gradient", "end", "begin", "gradient", "end"],
                       "the layer left open is ended by the context")
        XCTAssertEqual(list.clips.count, 1)
        if case .fill(_, let color, let state) = list.commands[0] {
            XCTAssertEqual(color, Color(red: 0, green: 1, blue: 0))
            XCTAssertNil(state.clip)
        } else { XCTFail("first command is the fill") }
        if case .fill(_, _, let state) = list.commands[1] { XCTAssertEqual(state.clip, 0, "the stroke is clipped") }
        if case .gradient(_, let state) = list.commands[3] { XCTAssertEqual(state.alpha, 0.5) }
        if case .gradient(_, let state) = list.commands[6] { XCTAssertEqual(state.alpha, 1, "endLayer restored the alpha") }
        XCTAssertEqual(list.background, .white)
    }

    // MARK: Paths and colours

    func testShapeObjectsBuildTheSamePathsAsTheAPI() throws {
        func decodedPath(_ json: String) throws -> Path {
            guard case .fill(let p, _)? = try S.decode(S.scene("{\"op\": \"fill\", \"path\": \(json)}")).ops.first else {
                throw SceneError(location: "", message: "not a fill")
            }
            return p
        }
        var ellipse = Path(); ellipse.addEllipse(in: Rect(x: 1, y: 2, width: 6, height: 4))
        XCTAssertEqual(try decodedPath("{\"ellipse\": [1, 2, 6, 4]}"), ellipse)
        var rounded = Path(); rounded.addRoundedRect(in: Rect(x: 0, y: 0, width: 8, height: 6), cornerRadius: 2.5)
        XCTAssertEqual(try decodedPath("{\"roundedRect\": [0, 0, 8, 6], \"radius\": 2.5}"), rounded)
        var arc = Path(); arc.addArc(center: Point(5, 5), radius: 3, startAngle: 0, endAngle: 2, clockwise: true)
        XCTAssertEqual(try decodedPath("{\"arc\": {\"center\": [5, 5], \"radius\": 3, \"start\": 0, \"end\": 2}}"), arc)
        var ccw = Path(); ccw.addArc(center: Point(5, 5), radius: 3, startAngle: 0, endAngle: 2, clockwise: false)
        XCTAssertEqual(try decodedPath("{\"arc\": {\"center\": [5, 5], \"radius\": 3, \"start\": 0, \"end\": 2, \"clockwise\": false}}"), ccw)
        var empty = Path(); empty.addRect(Rect(x: 3, y: 3, width: 0, height: 0))
        XCTAssertEqual(try decodedPath("{\"rect\": [3, 3, 0, 0]}"), empty, "a zero-size rect is valid")
    }

    func testSVGPathDataUsesThePathParser() throws {
        let data = "M 10 10 L 90 10 Q 50 80 10 10 Z"
        let expected = try Path(svgPathData: data)
        let scene = try S.decode(S.scene("{\"op\": \"stroke\", \"path\": \"\(data)\"}"))
        XCTAssertEqual(scene.ops, [.stroke(expected)])
        XCTAssertEqual(expected.elements.count, 4)
    }

    func testColourForms() throws {
        let json = S.scene("""
            {"op": "setFillColor", "color": "#0080FF"}, {"op": "setFillColor", "color": "#0080ff40"},
            {"op": "setFillColor", "color": [1, 0, 0.5, 0]}, {"op": "setFillColor", "color": [0, 0, 0, 1]}
            """)
        XCTAssertEqual(try S.decode(json).ops, [
            .setFillColor(Color(red: 0, green: 128.0 / 255, blue: 1)),
            .setFillColor(Color(red: 0, green: 128.0 / 255, blue: 1, alpha: 64.0 / 255)),
            .setFillColor(Color(red: 1, green: 0, blue: 0.5, alpha: 0)),
            .setFillColor(.black),
        ])
    }

    // MARK: Images

    func testDataURIImageAndDrawImageAttributes() throws {
        let uri = S.dataURI(S.samplePNG)
        let json = S.scene("""
            {"op": "drawImage", "image": "tile", "at": [1, 2]},
            {"op": "drawImage", "image": "tile", "rect": [0, 0, 8, 4], "blendMode": "multiply", "alpha": 0.5,
             "crop": [1, 0, 2, 2], "capInsets": [0.5, 0.5, 0.5, 0.5], "resizingMode": "stretch",
             "renderingMode": "template", "tint": "#FF0000", "flipped": "horizontal"},
            {"op": "drawImage", "image": "tile", "rect": [0, 0, 8, 4], "crop": [10, 10, 2, 2]},
            {"op": "drawImage", "image": "tile", "rect": [0, 0, 8, 4], "crop": [1, 1, 0, 1]}
            """, images: "{\"tile\": \"\(uri)\", \"retina\": {\"path\": \"\(uri)\", \"scale\": 2}}")
        let scene = try S.decode(json)
        let expectedBitmap = Bitmap(width: 4, height: 2, pixels: S.sampleRGBA)
        XCTAssertEqual(scene.images["tile"]?.bitmap, expectedBitmap)
        XCTAssertEqual(scene.images["tile"]?.scale, 1)
        XCTAssertEqual(scene.images["retina"]?.scale, 2, "declared but unused images are loaded too")
        XCTAssertEqual(scene.images["retina"]?.size, Size(width: 2, height: 1))

        guard case .drawImage(let plain) = scene.ops[0], case .drawImage(let dressed) = scene.ops[1] else {
            return XCTFail("drawImage ops expected")
        }
        XCTAssertEqual(plain.placement, .at(Point(1, 2)))
        XCTAssertEqual(plain.alpha, 1)
        XCTAssertNil(plain.blendMode)
        XCTAssertEqual(plain.finishedImage(), scene.images["tile"])
        XCTAssertEqual(dressed.placement, .rect(Rect(x: 0, y: 0, width: 8, height: 4)))
        XCTAssertEqual(dressed.blendMode, .multiply)
        XCTAssertEqual(dressed.alpha, 0.5)
        XCTAssertEqual(dressed.crop, Rect(x: 1, y: 0, width: 2, height: 2))
        XCTAssertEqual(dressed.slicing, NineSlice(capInsets: EdgeInsets(top: 0.5, left: 0.5, bottom: 0.5, right: 0.5), mode: .stretch))
        XCTAssertEqual(dressed.renderingMode, .template)
        XCTAssertEqual(dressed.tint, Color(red: 1, green: 0, blue: 0))
        XCTAssertTrue(dressed.flippedHorizontally)
        // Crop, then slice, then template, then flip.
        let built = try XCTUnwrap(dressed.finishedImage())
        let reference = try XCTUnwrap(scene.images["tile"]?.cropped(to: Rect(x: 1, y: 0, width: 2, height: 2)))
            .resizable(capInsets: EdgeInsets(top: 0.5, left: 0.5, bottom: 0.5, right: 0.5), mode: .stretch)
            .withRenderingMode(.template, tint: Color(red: 1, green: 0, blue: 0)).flippedHorizontally()
        XCTAssertEqual(built, reference)
        XCTAssertEqual(built.bitmap.width, 2)

        // Replay: one image command per drawn image; crops that leave nothing draw nothing.
        let list = try scene.displayList()
        XCTAssertEqual(list.commands.count, 2)
        guard case .image(let first, _) = list.commands[0], case .image(let second, let state) = list.commands[1] else {
            return XCTFail("image commands expected")
        }
        XCTAssertEqual(first.rect, Rect(x: 1, y: 2, width: 4, height: 2), "drawn at its natural size")
        XCTAssertEqual(second.tint, Color(red: 1, green: 0, blue: 0))
        XCTAssertTrue(second.flippedHorizontally)
        XCTAssertEqual(second.slicing?.mode, .stretch)
        XCTAssertEqual(state.alpha, 0.5)
        XCTAssertEqual(state.blendMode, .multiply)
    }

    func testImageFilesResolveAgainstTheBaseDirectoryWithImpliedScale() throws {
        let dir = try TemporaryFolder()
        try dir.write("images/mars@2x.png", S.samplePNG)
        try dir.write("plain.png", S.samplePNG)
        let json = S.scene("{\"op\": \"drawImage\", \"image\": \"mars\", \"at\": [0, 0]}",
                           images: "{\"mars\": \"images/mars@2x.png\", \"plain\": \"./images/../plain.png\", "
                               + "\"forced\": {\"path\": \"images/mars@2x.png\", \"scale\": 4}}")
        let scene = try S.decode(json, base: dir.path)
        XCTAssertEqual(scene.images["mars"]?.scale, 2, "@2x implies scale 2")
        XCTAssertEqual(scene.images["plain"]?.scale, 1)
        XCTAssertEqual(scene.images["forced"]?.scale, 4, "an explicit scale wins over the file name")
        XCTAssertEqual(scene.images["mars"]?.bitmap.width, 4)
        // Two names for one file share one decoded bitmap (same storage).
        let marsPixels = scene.images["mars"]?.bitmap.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let forcedPixels = scene.images["forced"]?.bitmap.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        XCTAssertNotNil(marsPixels)
        XCTAssertEqual(marsPixels, forcedPixels)
        if case .image(let draw, _)? = try scene.displayList().commands.first {
            XCTAssertEqual(draw.rect.size, Size(width: 2, height: 1), "size in points is pixels / scale")
        } else { XCTFail("an image command expected") }
    }

    func testAnImageUsedManyTimesSharesOneDecodedImage() throws {
        let ops = Array(repeating: "{\"op\": \"drawImage\", \"image\": \"a\", \"at\": [0, 0]}", count: 50).joined(separator: ",")
        let scene = try S.decode(S.scene(ops, images: "{\"a\": \"\(S.dataURI(S.samplePNG))\"}"))
        XCTAssertEqual(scene.ops.count, 50)
        let images = scene.ops.compactMap { op -> Image? in if case .drawImage(let d) = op { return d.image }; return nil }
        XCTAssertEqual(Set(images).count, 1)
    }
}
