// Tests of rejected scenes: every rule of SCENE_FORMAT.md's "Limits and
// errors" and every kind of field, each checked for the exact location and a
// specific message. Malformed JSON, unknown ops and keys, wrong types,
// non-finite numbers, bad canvas sizes, resource limits, structure (save /
// restore / layers), gradient stops, drawImage attributes, escaping and
// missing image files, bad data URIs and bad PNGs.

import Foundation
import XCTest
import PenumbraModel
import PenumbraCore

final class SceneBadInputTests: XCTestCase {
    typealias S = SceneTestSupport

    /// Asserts that decoding fails at `location` with a message containing `fragment`.
    private func assertRejected(_ json: String, _ location: String, _ fragment: String, limits: ResourceLimits = .default,
                                base: String = "/nonexistent-scene-folder", file: StaticString = #filePath, line: UInt = #line) {
        do {
            _ = try S.decode(json, base: base, limits: limits)
            XCTFail("accepted \(json)", file: file, line: line)
        } catch let error as SceneError {
            XCTAssertEqual(error.location, location, "\(error) for \(json)", file: file, line: line)
            XCTAssertTrue(error.message.contains(fragment), "\(error) should mention \(fragment)", file: file, line: line)
            XCTAssertEqual(error.description, location.isEmpty ? error.message : "\(location): \(error.message)", file: file, line: line)
        } catch {
            XCTFail("unexpected error type \(error)", file: file, line: line)
        }
    }

    /// A one-op scene.
    private func op(_ body: String, images: String? = nil) -> String { S.scene(body, images: images) }

    func testMalformedJSON() {
        assertRejected("{\"format\": \"penumbra-scene\",", "line 1, column 29", "unexpected end of input")
        assertRejected("{\"format\": \"penumbra-scene\", \"format\": \"x\"}", "line 1, column 30", "duplicate key \"format\"")
        assertRejected(S.scene("") + " x", "line 1, column \(S.scene("").count + 2)", "expected the end of the document")
        assertRejected("{\"format\": 'penumbra-scene'}", "line 1, column 12", "unexpected")
        assertRejected("{\n\"size\": [NaN, 1]}", "line 2, column 10", "NaN is not JSON")
    }

    func testDocumentLevel() {
        assertRejected("[]", "", "a scene must be a JSON object, got an array")
        assertRejected("{\"version\": 1, \"size\": [1, 1], \"ops\": []}", "", "missing key \"format\"")
        assertRejected("{\"format\": \"penumbra\", \"version\": 1, \"size\": [1, 1], \"ops\": []}", "format",
                       "expected \"penumbra-scene\", got \"penumbra\"")
        assertRejected("{\"format\": 1, \"version\": 1, \"size\": [1, 1], \"ops\": []}", "format", "expected a string, got a number")
        assertRejected("{\"format\": \"penumbra-scene\", \"version\": 2, \"size\": [1, 1], \"ops\": []}", "version", "unsupported version 2")
        assertRejected("{\"format\": \"penumbra-scene\", \"version\": \"1\", \"size\": [1, 1], \"ops\": []}", "version",
                       "expected a number, got a string")
        assertRejected(S.scene("", extra: "\"colour\": \"#FFFFFF\""), "", "unknown key \"colour\" (known keys: background, fonts, format, ")
        assertRejected("{\"format\": \"penumbra-scene\", \"version\": 1, \"size\": [1, 1]}", "", "missing key \"ops\"")
        assertRejected(S.scene("").replacingOccurrences(of: "\"ops\": []", with: "\"ops\": {}"), "ops", "expected an array of ops, got an object")
        assertRejected(S.scene("1"), "ops[0]", "expected an op object, got a number")
        assertRejected(S.scene("", extra: "\"scale\": 0"), "scale", "must be greater than 0, got 0")
        assertRejected(S.scene("", extra: "\"scale\": \"2\""), "scale", "expected a number, got a string")
        assertRejected(S.scene("", extra: "\"scale\": -1e999"), "scale", "not a finite number")
        assertRejected(S.scene("", extra: "\"background\": \"red\""), "background",
                       "expected a colour (\"#RRGGBB\", \"#RRGGBBAA\" or [r, g, b, a]), got \"red\"")
        assertRejected(S.scene("", extra: "\"background\": \"#FFF\""), "background", "got \"#FFF\"")
        assertRejected(S.scene("", extra: "\"background\": [1, 0, 0]"), "background", "expected 4 numbers [r, g, b, a], got 3")
        assertRejected(S.scene("", extra: "\"background\": [1, 0, 2, 1]"), "background[2]", "must be in 0...1, got 2")
        assertRejected(S.scene("", extra: "\"background\": null"), "background", "got null")
    }

    func testCanvasSizes() {
        func sized(_ size: String, scale: String = "1") -> String {
            "{\"format\": \"penumbra-scene\", \"version\": 1, \"size\": \(size), \"scale\": \(scale), \"ops\": []}"
        }
        assertRejected(sized("[10]"), "size", "expected 2 numbers, got 1")
        assertRejected(sized("\"10x10\""), "size", "expected an array of 2 numbers, got a string")
        assertRejected(sized("[-5, 10]"), "size[0]", "must be greater than 0, got -5")
        assertRejected(sized("[10, 0]"), "size[1]", "must be greater than 0, got 0")
        assertRejected(sized("[1e999, 10]"), "size[0]", "not a finite number")
        assertRejected(sized("[10, -1e999]"), "size[1]", "not a finite number")
        assertRejected(sized("[10, \"5\"]"), "size[1]", "expected a number, got a string")
        assertRejected(sized("[100000, 100000]"), "size", "the canvas is 100000 x 100000 pixels, over the limit of 100000000")
        assertRejected(sized("[1e300, 1e300]"), "size", "over the limit of 100000000 pixels")
        assertRejected(sized("[1e308, 1]", scale: "10"), "size", "not finite")
        assertRejected(sized("[5000, 5000]", scale: "3"), "size", "15000 x 15000 pixels")
        assertRejected(sized("[0.4, 10]"), "size", "the canvas is 0 x 10 pixels")
        assertRejected(sized("[1, 1]", scale: "0.2"), "size", "must be at least 1 x 1")
        assertRejected(sized("[4, 4]"), "size", "over the limit of 15 pixels", limits: ResourceLimits(maxPixels: 15))
        XCTAssertNoThrow(try S.decode(sized("[0.5, 0.5]")), "0.5 rounds half up to 1 pixel")
        XCTAssertNoThrow(try S.decode(sized("[10000, 10000]")), "exactly 100 megapixels is allowed")
    }

    func testOpsAndKeys() {
        assertRejected(op("{\"op\": \"filll\", \"path\": {\"rect\": [0, 0, 1, 1]}}"), "ops[0]", "unknown op \"filll\" (did you mean \"fill\"? known ops: beginLayer, ")
        assertRejected(op("{\"path\": {\"rect\": [0, 0, 1, 1]}}"), "ops[0]", "missing key \"op\"")
        assertRejected(op("{\"op\": 3}"), "ops[0].op", "expected a string, got a number")
        assertRejected(op("{\"op\": \"save\"}, {\"op\": \"setFillColor\", \"colour\": \"#FFFFFF\"}"), "ops[1]", "unknown key \"colour\" (did you mean \"color\"? known keys: color, op)")
        assertRejected(op("{\"op\": \"save\", \"color\": \"#FFFFFF\"}"), "ops[0]", "unknown key \"color\" (known keys: op)")
        assertRejected(op("{\"op\": \"setFillColor\", \"color\": 5}"), "ops[0].color",
                       "expected a colour (\"#RRGGBB\", \"#RRGGBBAA\" or [r, g, b, a]), got a number")
        assertRejected(op("{\"op\": \"setStrokeColor\", \"color\": [0, 0, 0, 1e999]}"), "ops[0].color[3]", "not a finite number")
        assertRejected(op("{\"op\": \"concat\", \"matrix\": [1, 0, 0, 1, 0]}"), "ops[0].matrix", "expected 6 numbers, got 5")
        assertRejected(op("{\"op\": \"concat\", \"matrix\": [1, 0, \"0\", 1, 0, 0]}"), "ops[0].matrix[2]", "expected a number, got a string")
        assertRejected(op("{\"op\": \"concat\", \"matrix\": {\"a\": 1}}"), "ops[0].matrix", "expected an array of 6 numbers, got an object")
        assertRejected(op("{\"op\": \"translate\", \"x\": 1}"), "ops[0]", "missing key \"y\"")
        assertRejected(op("{\"op\": \"translate\", \"x\": 1e999, \"y\": 0}"), "ops[0].x", "not a finite number")
        assertRejected(op("{\"op\": \"scale\", \"x\": 1, \"y\": null}"), "ops[0].y", "expected a number, got null")
        assertRejected(op("{\"op\": \"rotate\", \"angle\": -1e999}"), "ops[0].angle", "not a finite number")
        assertRejected(op("{\"op\": \"setAlpha\", \"alpha\": 1.5}"), "ops[0].alpha", "must be in 0...1, got 1.5")
        assertRejected(op("{\"op\": \"setAlpha\", \"alpha\": -0.25}"), "ops[0].alpha", "must be in 0...1, got -0.25")
        assertRejected(op("{\"op\": \"setAlpha\", \"alpha\": true}"), "ops[0].alpha", "expected a number, got true")
        assertRejected(op("{\"op\": \"setBlendMode\", \"mode\": \"mutliply\"}"), "ops[0].mode", "expected a blend mode")
        assertRejected(op("{\"op\": \"setShadow\", \"offset\": [1, 1], \"blur\": 257}"), "ops[0].blur", "must be in 0...256, got 257")
        assertRejected(op("{\"op\": \"setShadow\", \"offset\": [1], \"blur\": 2}"), "ops[0].offset", "expected 2 numbers, got 1")
        assertRejected(op("{\"op\": \"setShadow\", \"offset\": [1, 1]}"), "ops[0]", "missing key \"blur\"")
        assertRejected(op("{\"op\": \"setShadow\", \"offset\": [1, 1], \"blur\": 1, \"color\": \"#12345\"}"), "ops[0].color", "got \"#12345\"")
        assertRejected(op("{\"op\": \"setLineWidth\", \"width\": -1}"), "ops[0].width", "width must not be negative, got -1")
        assertRejected(op("{\"op\": \"setLineCap\", \"cap\": \"flat\"}"), "ops[0].cap",
                       "expected one of \"butt\", \"round\", \"square\", got \"flat\"")
        assertRejected(op("{\"op\": \"setLineJoin\", \"join\": 1}"), "ops[0].join", "got a number")
        assertRejected(op("{\"op\": \"setMiterLimit\", \"limit\": -2}"), "ops[0].limit", "must not be negative")
        assertRejected(op("{\"op\": \"setLineDash\", \"phase\": 0, \"lengths\": [0, 0]}"), "ops[0].lengths", "must not all be 0")
        assertRejected(op("{\"op\": \"setLineDash\", \"phase\": 0, \"lengths\": [1, -1]}"), "ops[0].lengths[1]", "must not be negative")
        assertRejected(op("{\"op\": \"setLineDash\", \"lengths\": [1]}"), "ops[0]", "missing key \"phase\"")
        assertRejected(op("{\"op\": \"setLineDash\", \"phase\": 1e999, \"lengths\": [1]}"), "ops[0].phase", "not a finite number")
        assertRejected(op("{\"op\": \"setLineDash\", \"phase\": 0, \"lengths\": 4}"), "ops[0].lengths", "expected an array of dash lengths")
    }

    func testPaths() {
        func fill(_ path: String) -> String { op("{\"op\": \"fill\", \"path\": \(path)}") }
        assertRejected(fill("5"), "ops[0].path", "expected a path (an SVG path-data string or a shape object), got a number")
        assertRejected(op("{\"op\": \"fill\", \"path\": {\"rect\": [0, 0, 1, 1]}, \"rule\": \"even-odd\"}"), "ops[0].rule",
                       "expected one of \"nonzero\", \"evenodd\", got \"even-odd\"")
        assertRejected(fill("{\"rect\": [0, 0, -1, 1]}"), "ops[0].path.rect[2]", "width must not be negative, got -1")
        assertRejected(fill("{\"ellipse\": [0, 0, 1, -3]}"), "ops[0].path.ellipse[3]", "height must not be negative, got -3")
        assertRejected(fill("{\"rect\": [0, 0, 1]}"), "ops[0].path.rect", "expected 4 numbers, got 3")
        assertRejected(fill("{\"circle\": [0, 0, 1]}"), "ops[0].path", "unknown key \"circle\" (known keys: arc, ellipse, radius, rect, roundedRect)")
        assertRejected(fill("{}"), "ops[0].path", "needs one of the keys \"rect\", \"ellipse\", \"roundedRect\", \"arc\"")
        assertRejected(fill("{\"rect\": [0, 0, 1, 1], \"ellipse\": [0, 0, 1, 1]}"), "ops[0].path", "exactly one shape, got \"rect\" and \"ellipse\"")
        assertRejected(fill("{\"rect\": [0, 0, 1, 1], \"radius\": 2}"), "ops[0].path", "\"radius\" goes with \"roundedRect\" only")
        assertRejected(fill("{\"roundedRect\": [0, 0, 1, 1]}"), "ops[0].path", "missing key \"radius\"")
        assertRejected(fill("{\"roundedRect\": [0, 0, 1, 1], \"radius\": -2}"), "ops[0].path.radius", "radius must not be negative")
        assertRejected(fill("{\"arc\": {\"center\": [0, 0], \"radius\": 1, \"start\": 0, \"end\": 1, \"sweep\": 1}}"),
                       "ops[0].path.arc", "unknown key \"sweep\" (known keys: center, clockwise, end, radius, start)")
        assertRejected(fill("{\"arc\": {\"center\": [0, 0], \"radius\": -1, \"start\": 0, \"end\": 1}}"), "ops[0].path.arc.radius",
                       "radius must not be negative")
        assertRejected(fill("{\"arc\": {\"center\": [0, 0], \"radius\": 1, \"start\": 0}}"), "ops[0].path.arc", "missing key \"end\"")
        assertRejected(fill("{\"arc\": {\"center\": [0, 0], \"radius\": 1, \"start\": 0, \"end\": 1, \"clockwise\": \"yes\"}}"),
                       "ops[0].path.arc.clockwise", "expected true or false, got a string")
        assertRejected(fill("{\"arc\": [0, 0, 1]}"), "ops[0].path.arc", "expected an object, got an array")
        assertRejected(fill("{\"rect\": [1e308, 0, 1e308, 1]}"), "ops[0].path", "not finite")
        // SVG path data: the parser's own message, with its character offset, at the path.
        for data in ["M 0 0 L 10 10 Q", "M 0 0 L x 10", "L 1 1", "M 1e999 0 L 1 1"] {
            var expected = "(accepted)"
            do { _ = try Path(svgPathData: data) } catch { expected = "\(error)" }
            XCTAssertTrue(expected.hasPrefix("at character "), expected)
            assertRejected(op("{\"op\": \"stroke\", \"path\": \"\(data)\"}"), "ops[0].path", expected)
        }
        assertRejected(fill("\"M 0 0 L x 10\""), "ops[0].path", "at character 8: expected a number")
    }

    func testStructure() throws {
        assertRejected(op("{\"op\": \"restore\"}"), "ops[0]", "restore without a matching save")
        assertRejected(op("{\"op\": \"save\"}, {\"op\": \"restore\"}, {\"op\": \"restore\"}"), "ops[2]", "restore without a matching save")
        assertRejected(op("{\"op\": \"save\"}, {\"op\": \"beginLayer\"}, {\"op\": \"restore\"}"), "ops[2]",
                       "restore cannot pop past the beginLayer at ops[1]")
        assertRejected(op("{\"op\": \"save\"}, {\"op\": \"endLayer\"}"), "ops[1]", "endLayer without a matching beginLayer")
        assertRejected(op("{\"op\": \"beginLayer\"}, {\"op\": \"endLayer\"}, {\"op\": \"endLayer\"}"), "ops[2]", "endLayer without a matching beginLayer")
        // endLayer with saves still open inside the layer restores the state saved at beginLayer.
        let nested = op("{\"op\": \"save\"}, {\"op\": \"beginLayer\"}, {\"op\": \"save\"}, {\"op\": \"save\"}, {\"op\": \"endLayer\"}, {\"op\": \"restore\"}")
        XCTAssertEqual(try S.decode(nested).ops.count, 6)
        assertRejected(nested, "ops[3]", "nested deeper than 3", limits: ResourceLimits(maxNesting: 3))
    }

    func testNestingAndResourceLimits() throws {
        let saves = Array(repeating: "{\"op\": \"save\"}", count: 65).joined(separator: ",")
        assertRejected(op(saves), "ops[64]", "save and beginLayer nested deeper than 64")
        XCTAssertNoThrow(try S.decode(op(Array(repeating: "{\"op\": \"save\"}", count: 64).joined(separator: ","))))
        let mixed = (0..<40).map { $0 % 2 == 0 ? "{\"op\": \"beginLayer\"}" : "{\"op\": \"save\"}" }.joined(separator: ",")
        assertRejected(op(mixed), "ops[5]", "nested deeper than 5", limits: ResourceLimits(maxNesting: 5))
        // Depth counts what is open: closing frees room again.
        let balanced = Array(repeating: "{\"op\": \"beginLayer\"}, {\"op\": \"save\"}, {\"op\": \"endLayer\"}", count: 10).joined(separator: ",")
        XCTAssertNoThrow(try S.decode(op(balanced), limits: ResourceLimits(maxNesting: 2)))

        // Exactly the default limit of 100,000 ops is accepted, one more is not.
        let manyOps = Array(repeating: "{\"op\": \"clearShadow\"}", count: 100_000).joined(separator: ",")
        XCTAssertEqual(try S.decode(op(manyOps)).ops.count, 100_000)
        assertRejected(op(manyOps + ", {\"op\": \"save\"}"), "ops", "100001 ops, over the limit of 100000")

        let fourOps = op(Array(repeating: "{\"op\": \"clearShadow\"}", count: 4).joined(separator: ","))
        assertRejected(fourOps, "ops", "4 ops, over the limit of 3", limits: ResourceLimits(maxOps: 3))
        XCTAssertNoThrow(try S.decode(fourOps, limits: ResourceLimits(maxOps: 4)))

        let twoRects = op("{\"op\": \"fill\", \"path\": {\"rect\": [0, 0, 1, 1]}}, {\"op\": \"clip\", \"path\": {\"rect\": [0, 0, 1, 1]}}")
        assertRejected(twoRects, "ops[1].path", "more than 9 segments", limits: ResourceLimits(maxPathSegments: 9))
        XCTAssertNoThrow(try S.decode(twoRects, limits: ResourceLimits(maxPathSegments: 10)), "a rect is 5 elements")

        let longDash = "[" + Array(repeating: "1", count: 1025).joined(separator: ",") + "]"
        assertRejected(op("{\"op\": \"setLineDash\", \"phase\": 0, \"lengths\": \(longDash)}"), "ops[0].lengths",
                       "1025 dash lengths, over the limit of 1024")
        assertRejected(op("{\"op\": \"setLineDash\", \"phase\": 0, \"lengths\": [1, 2, 3]}"), "ops[0].lengths",
                       "over the limit of 2", limits: ResourceLimits(maxDashEntries: 2))
    }

    func testGradients() {
        func linear(_ stops: String, extra: String = "") -> String {
            op("{\"op\": \"linearGradient\", \"start\": [0, 0], \"end\": [1, 0], \"stops\": \(stops)\(extra)}")
        }
        assertRejected(linear("[[0.5, \"#000000\"], [0.25, \"#FFFFFF\"]]"), "ops[0].stops[1][0]",
                       "stop offsets must not decrease: 0.25 comes after 0.5")
        assertRejected(linear("[]"), "ops[0].stops", "at least one stop")
        assertRejected(linear("[[1.5, \"#000000\"]]"), "ops[0].stops[0][0]", "must be in 0...1, got 1.5")
        assertRejected(linear("[[0]]"), "ops[0].stops[0]", "expected a stop [offset, colour], got 1 values")
        assertRejected(linear("[0, \"#000000\"]"), "ops[0].stops[0]", "expected a stop [offset, colour], got a number")
        assertRejected(linear("[[0, \"black\"]]"), "ops[0].stops[0][1]", "expected a colour")
        assertRejected(linear("[[0, \"#000000\"]]", extra: ", \"extend\": [true]"), "ops[0].extend", "expected 2 booleans")
        assertRejected(linear("[[0, \"#000000\"]]", extra: ", \"extend\": [1, 0]"), "ops[0].extend[0]", "expected true or false, got a number")
        assertRejected(op("{\"op\": \"linearGradient\", \"start\": [0, 0], \"stops\": [[0, \"#000000\"]]}"), "ops[0]", "missing key \"end\"")
        assertRejected(op("{\"op\": \"radialGradient\", \"startCenter\": [0, 0], \"startRadius\": -1, \"endCenter\": [0, 0], "
                          + "\"endRadius\": 1, \"stops\": [[0, \"#000000\"]]}"), "ops[0].startRadius", "radius must not be negative")
        assertRejected(op("{\"op\": \"radialGradient\", \"startCenter\": [0, 0], \"startRadius\": 0, \"endCenter\": [0], "
                          + "\"endRadius\": 1, \"stops\": [[0, \"#000000\"]]}"), "ops[0].endCenter", "expected 2 numbers, got 1")
    }

    func testDrawImageAttributes() {
        let images = "{\"a\": \"\(S.dataURI(S.samplePNG))\"}"
        func draw(_ fields: String) -> String { op("{\"op\": \"drawImage\", \"image\": \"a\", \(fields)}", images: images) }
        assertRejected(op("{\"op\": \"drawImage\", \"image\": \"venus\", \"at\": [0, 0]}", images: images), "ops[0].image",
                       "no image named \"venus\" in \"images\"")
        assertRejected(op("{\"op\": \"drawImage\", \"image\": \"a\", \"at\": [0, 0]}"), "ops[0].image", "no image named \"a\"")
        assertRejected(draw("\"at\": [0, 0], \"rect\": [0, 0, 1, 1]"), "ops[0]", "takes \"rect\" or \"at\", not both")
        assertRejected(draw("\"alpha\": 1"), "ops[0]", "needs \"rect\" or \"at\"")
        assertRejected(draw("\"rect\": [0, 0, 1, -1]"), "ops[0].rect[3]", "height must not be negative")
        assertRejected(draw("\"at\": [0, 0], \"alpha\": 2"), "ops[0].alpha", "must be in 0...1, got 2")
        assertRejected(draw("\"at\": [0, 0], \"blendMode\": \"add\""), "ops[0].blendMode", "expected a blend mode")
        assertRejected(draw("\"at\": [0, 0], \"resizingMode\": \"tile\""), "ops[0].resizingMode", "needs \"capInsets\"")
        assertRejected(draw("\"at\": [0, 0], \"capInsets\": [1, 2, 3]"), "ops[0].capInsets", "expected 4 numbers, got 3")
        assertRejected(draw("\"at\": [0, 0], \"capInsets\": [1, -2, 3, 4]"), "ops[0].capInsets[1]", "must not be negative")
        assertRejected(draw("\"at\": [0, 0], \"capInsets\": [1, 1, 1, 1], \"resizingMode\": \"repeat\""), "ops[0].resizingMode",
                       "expected one of \"tile\", \"stretch\"")
        assertRejected(draw("\"at\": [0, 0], \"tint\": \"#FF0000\""), "ops[0].tint", "needs \"renderingMode\": \"template\"")
        assertRejected(draw("\"at\": [0, 0], \"renderingMode\": \"original\", \"tint\": \"#FF0000\""), "ops[0].tint", "needs")
        assertRejected(draw("\"at\": [0, 0], \"renderingMode\": \"tinted\""), "ops[0].renderingMode", "expected one of \"original\", \"template\"")
        assertRejected(draw("\"at\": [0, 0], \"renderingMode\": \"template\", \"tint\": 3"), "ops[0].tint", "expected a colour")
        assertRejected(draw("\"at\": [0, 0], \"flipped\": \"vertical\""), "ops[0].flipped", "expected \"horizontal\", got \"vertical\"")
        assertRejected(draw("\"at\": [0, 0], \"flipped\": true"), "ops[0].flipped", "expected \"horizontal\", got true")
        assertRejected(draw("\"at\": [0, 0], \"crop\": [0, 0, -1, 1]"), "ops[0].crop[2]", "width must not be negative")
        assertRejected(op("{\"op\": \"drawImage\", \"image\": 3, \"at\": [0, 0]}", images: images), "ops[0].image",
                       "expected a string, got a number")
    }

    // MARK: Image sources

    func testImageDeclarations() {
        let draw = "{\"op\": \"drawImage\", \"image\": \"mars\", \"at\": [0, 0]}"
        assertRejected(op(draw, images: "[]"), "images", "expected an object mapping image names to sources, got an array")
        assertRejected(op(draw, images: "{\"mars\": 5}"), "images.mars", "expected an image source")
        assertRejected(op(draw, images: "{\"mars\": {\"path\": \"m.png\", \"scal\": 2}}"), "images.mars", "unknown key \"scal\" (did you mean \"scale\"? known keys: orientation, path, scale)")
        assertRejected(op(draw, images: "{\"mars\": {\"scale\": 2}}"), "images.mars", "missing key \"path\"")
        assertRejected(op(draw, images: "{\"mars\": {\"path\": \"m.png\", \"scale\": 0}}"), "images.mars.scale", "must be greater than 0")
        assertRejected(op(draw, images: "{\"mars\": \"\"}"), "images.mars", "must not be empty")
        assertRejected(op(draw, images: "{\"mars\": \"/etc/passwd\"}"), "images.mars", "absolute path \"/etc/passwd\" is not allowed")
        assertRejected(op(draw, images: "{\"mars\": \"../x.png\"}"), "images.mars", "\"../x.png\" leads outside the scene's folder")
        assertRejected(op(draw, images: "{\"mars\": \"a/./../../x.png\"}"), "images.mars", "leads outside the scene's folder")
        assertRejected(op(draw, images: "{\"mars\": \"a\\u0000.png\"}"), "images.mars", "NUL character")
        assertRejected(op(draw, images: "{\"mars\": \"data:image/bmp;base64,AAAA\"}"), "images.mars",
                       "unsupported data URI \"data:image/bmp;base64\"")
        assertRejected(op(draw, images: "{\"mars\": \"data:text/plain,hello\"}"), "images.mars", "unsupported data URI")
        assertRejected(op(draw, images: "{\"mars\": \"data:image/png;base64,abc\"}"), "images.mars", "not a multiple of 4")
        assertRejected(op(draw, images: "{\"mars\": \"data:image/png;base64,ab!d\"}"), "images.mars", "invalid base64 in the data URI at character 3")
        assertRejected(op(draw, images: "{\"mars\": \"data:image/png;base64,a=bc\"}"), "images.mars", "invalid base64")
        // Names that are not plain words are bracketed in locations.
        assertRejected(op("{\"op\": \"clearShadow\"}", images: "{\"my \\\"image\\\"\": 1}"), "images[\"my \\\"image\\\"\"]", "expected an image source")
    }

    func testImageFiles() throws {
        let root = try TemporaryFolder()
        try root.write("secret.png", S.samplePNG)
        try root.write("scene/images/ok.png", S.samplePNG)
        try root.write("scene/images/notes.txt", Array("not a png".utf8))
        let base = root.path + "/scene"
        try FileManager.default.createSymbolicLink(atPath: base + "/link.png", withDestinationPath: root.path + "/secret.png")
        try FileManager.default.createSymbolicLink(atPath: base + "/relative-link.png", withDestinationPath: "../secret.png")
        try FileManager.default.createSymbolicLink(atPath: base + "/inside-link.png", withDestinationPath: "images/ok.png")
        try FileManager.default.createSymbolicLink(atPath: base + "/dir-link", withDestinationPath: root.path)
        func scene(_ source: String) -> String {
            op("{\"op\": \"drawImage\", \"image\": \"mars\", \"at\": [0, 0]}", images: "{\"mars\": \"\(source)\"}")
        }
        assertRejected(scene("images/mars.png"), "images.mars", "file \"images/mars.png\" not found", base: base)
        do {
            _ = try S.decode(scene("images/mars.png"), base: base)
        } catch let error as SceneError {
            XCTAssertEqual(error.description, "images.mars: file \"images/mars.png\" not found")
        }
        assertRejected(scene("link.png"), "images.mars", "\"link.png\" leads outside the scene's folder through a symbolic link", base: base)
        assertRejected(scene("relative-link.png"), "images.mars", "leads outside the scene's folder", base: base)
        assertRejected(scene("dir-link/secret.png"), "images.mars", "leads outside the scene's folder", base: base)
        assertRejected(scene("images"), "images.mars", "\"images\" is not a regular file", base: base)
        assertRejected(scene("images/ok.png/x"), "images.mars", "not found", base: base)
        assertRejected(scene("ok.png"), "images.mars", "/missing-folder\" cannot be opened", base: base + "/missing-folder")
        // A symbolic link that stays inside the folder is fine, and so is the same file reached directly.
        XCTAssertEqual(try S.decode(scene("inside-link.png"), base: base).images["mars"]?.bitmap.width, 4)
        XCTAssertEqual(try S.decode(scene("images/ok.png"), base: base + "/").images["mars"]?.bitmap.height, 2)
        // A file that is not a PNG fails with the codec's message, at the image.
        assertRejected(scene("images/notes.txt"), "images.mars", pngMessage(Array("not a png".utf8)), base: base)
    }

    // MARK: Bad PNGs

    /// The codec's own message for bytes it must reject.
    private func pngMessage(_ bytes: [UInt8], maxPixels: Int = 100_000_000) -> String {
        do {
            _ = try PNGCodec.decode(bytes, maxPixels: maxPixels)
            XCTFail("the codec accepted bad bytes")
            return "(accepted)"
        } catch let error as PNGError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    func testBadPNGsByDataURI() {
        let good = S.samplePNG
        let truncated = Array(good.prefix(good.count / 2))
        var corrupted = good
        corrupted[good.count - 20] ^= 0x5A  // inside the IDAT data: its CRC no longer matches
        let bomb = Array(good.prefix(8)) + S.chunk("IHDR", S.bigEndian(100_000) + S.bigEndian(100_000) + [8, 6, 0, 0, 0])
            + S.chunk("IEND", [])
        let notPNG = Array("GIF89a".utf8)
        for (name, bytes) in [("truncated", truncated), ("corrupted", corrupted), ("bomb", bomb), ("gif", notPNG), ("empty", [])] {
            let json = op("{\"op\": \"drawImage\", \"image\": \"\(name)\", \"at\": [0, 0]}",
                          images: "{\"\(name)\": \"\(S.dataURI(bytes))\"}")
            assertRejected(json, "images.\(name)", pngMessage(bytes))
            // Unused images are validated too.
            assertRejected(op("", images: "{\"ok\": \"\(S.dataURI(good))\", \"\(name)\": \"\(S.dataURI(bytes))\"}"),
                           "images.\(name)", pngMessage(bytes))
        }
        // An image over a custom pixel limit that the 10 x 10 canvas meets.
        let big = S.png(width: 11, height: 10, rgba: [UInt8](repeating: 255, count: 11 * 10 * 4))
        assertRejected(op("", images: "{\"big\": \"\(S.dataURI(big))\"}"), "images.big", pngMessage(big, maxPixels: 100),
                       limits: ResourceLimits(maxPixels: 100))
    }
}

/// A temporary folder deleted when the value goes away.
final class TemporaryFolder {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "penumbra-scene-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `bytes` at a relative path, creating folders.
    func write(_ relative: String, _ bytes: [UInt8]) throws {
        let full = path + "/" + relative
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
    }
}
