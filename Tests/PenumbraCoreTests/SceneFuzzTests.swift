// A seeded mutation fuzz test of the scene decoder: valid scenes are damaged
// by byte mutations (delete, duplicate, flip, overwrite) and token mutations
// (numbers swapped for strings, 1e999 and other hostile tokens inserted, op
// names and keys exchanged), and every result must either decode or be
// rejected with a SceneError: never crash, never hang, never throw anything
// else. Inputs stay small (a few kilobytes), so every case is quick; the
// seed makes a failure reproducible.

import XCTest
import PenumbraTestSupport
import PenumbraModel
import PenumbraCore

final class SceneFuzzTests: XCTestCase {
    typealias S = SceneTestSupport

    private static var seedScenes: [String] {
        let image = S.dataURI(S.samplePNG)
        return [
            S.scene("""
                {"op": "setFillColor", "color": "#336699"}, {"op": "fill", "path": {"rect": [1, 1, 8, 8]}, "rule": "evenodd"},
                {"op": "save"}, {"op": "translate", "x": 2, "y": 3}, {"op": "rotate", "angle": 0.5}, {"op": "scale", "x": 2, "y": 0.5},
                {"op": "setStrokeColor", "color": [0.1, 0.2, 0.3, 0.4]}, {"op": "setLineWidth", "width": 2},
                {"op": "setLineCap", "cap": "round"}, {"op": "setLineJoin", "join": "bevel"}, {"op": "setMiterLimit", "limit": 3},
                {"op": "setLineDash", "phase": 1, "lengths": [2, 1]}, {"op": "stroke", "path": {"ellipse": [0, 0, 5, 3]}},
                {"op": "restore"}, {"op": "concat", "matrix": [1, 0, 0, 1, 0.5, 0.5]}
                """, extra: "\"scale\": 2, \"background\": \"#FFFFFFFF\""),
            S.scene("""
                {"op": "setShadow", "offset": [-2, 1.5], "blur": 3, "color": "#00000080"}, {"op": "beginLayer"},
                {"op": "setAlpha", "alpha": 0.5}, {"op": "setBlendMode", "mode": "multiply"},
                {"op": "clip", "path": {"roundedRect": [0, 0, 10, 10], "radius": 3}},
                {"op": "linearGradient", "start": [0, 0], "end": [10, 10], "stops": [[0, "#FF0000"], [0.5, "#00FF00"], [1, "#0000FF"]],
                 "extend": [false, true]},
                {"op": "endLayer"}, {"op": "clearShadow"},
                {"op": "radialGradient", "startCenter": [5, 5], "startRadius": 0, "endCenter": [6, 5], "endRadius": 4,
                 "stops": [[0, [1, 1, 1, 1]], [1, [0, 0, 0, 0]]]},
                {"op": "fill", "path": {"arc": {"center": [5, 5], "radius": 2, "start": 0, "end": 3.14, "clockwise": false}}}
                """),
            S.scene("""
                {"op": "drawImage", "image": "a", "rect": [0, 0, 8, 4], "alpha": 0.75, "blendMode": "screen", "crop": [1, 0, 2, 2],
                 "capInsets": [0.5, 0.5, 0.5, 0.5], "resizingMode": "stretch", "renderingMode": "template", "tint": "#FF0000",
                 "flipped": "horizontal"},
                {"op": "drawImage", "image": "b", "at": [1, 1]}, {"op": "stroke", "path": "M 1 1 L 9 1 L 9 9 Z"}
                """, images: "{\"a\": \"\(image)\", \"b\": {\"path\": \"\(image)\", \"scale\": 2}}"),
        ]
    }

    private static let tokens = [
        "1e999", "-1e999", "1e308", "-0", "0", "-1", "257", "0.5", "1e-320", "\"x\"", "\"\"", "null", "true", "false",
        "[", "]", "{", "}", ",", ":", "\"", "\\", "\"\\ud800\"", "\"\\u0000\"", "NaN", "[1, 2, 3, 4, 5, 6]", "{}", "[]",
        "\"save\"", "\"restore\"", "\"endLayer\"", "\"beginLayer\"", "{\"op\": \"restore\"}", "{\"op\": \"endLayer\"}",
        "{\"op\": \"beginLayer\"}", "\"op\"", "\"path\"", "\"radius\"", "\"../x.png\"", "\"/etc/passwd\"", "\"data:image/png;base64,AAAA\"",
        "\"#FFF\"", "\"#FFFFFFFFFF\"", "\u{00E9}", "\u{FF}",
    ]

    private static let words = [
        "op", "fill", "stroke", "clip", "save", "restore", "path", "rect", "ellipse", "roundedRect", "arc", "radius", "color",
        "matrix", "x", "y", "alpha", "blur", "offset", "stops", "extend", "image", "at", "crop", "capInsets", "tint", "size",
        "scale", "ops", "images", "format", "version", "beginLayer", "endLayer", "lengths", "phase", "mode", "rule", "horizontal",
    ]

    /// One random mutation of the bytes.
    private static func mutate(_ bytes: inout [UInt8], _ rng: inout SplitMix64) {
        guard !bytes.isEmpty else { bytes = Array("{}".utf8); return }
        let at = Int.random(in: 0..<bytes.count, using: &rng)
        switch Int.random(in: 0..<8, using: &rng) {
        case 0:  // delete a short range
            bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...8, using: &rng)))
        case 1:  // duplicate a range
            let end = min(bytes.count, at + Int.random(in: 1...40, using: &rng))
            bytes.insert(contentsOf: bytes[at..<end], at: end)
        case 2:  // flip a bit
            bytes[at] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
        case 3:  // overwrite with a structural character
            bytes[at] = Array("{}[],:\"0123456789eE.-+ntf\\ ".utf8).randomElement(using: &rng)!
        case 4:  // insert a hostile token
            bytes.insert(contentsOf: Array(tokens.randomElement(using: &rng)!.utf8), at: at)
        case 5:  // swap a number for a string
            if let (start, end) = numberRange(in: bytes, near: at) { bytes.replaceSubrange(start..<end, with: Array("\"n\"".utf8)) }
        case 6:  // replace a number with a hostile number
            if let (start, end) = numberRange(in: bytes, near: at) {
                let hostile = ["1e999", "-1e999", "-5", "0", "1e300", "300", "2.5", "-0"].randomElement(using: &rng)!
                bytes.replaceSubrange(start..<end, with: Array(hostile.utf8))
            }
        default:  // exchange one quoted word for another
            if let (start, end) = stringRange(in: bytes, near: at) {
                bytes.replaceSubrange(start..<end, with: Array(words.randomElement(using: &rng)!.utf8))
            }
        }
    }

    /// The digits of the first number token at or after `at`.
    private static func numberRange(in bytes: [UInt8], near at: Int) -> (Int, Int)? {
        func isNumberByte(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) || b == 0x2E || b == 0x2D || b == 0x65 || b == 0x45 || b == 0x2B }
        guard var start = bytes[at...].firstIndex(where: { (0x30...0x39).contains($0) }) else { return nil }
        while start > 0, bytes[start - 1] == 0x2D || bytes[start - 1] == 0x2E || (0x30...0x39).contains(bytes[start - 1]) { start -= 1 }
        var end = start
        while end < bytes.count, isNumberByte(bytes[end]) { end += 1 }
        return (start, end)
    }

    /// The contents (between the quotes) of the first short string at or after `at`.
    private static func stringRange(in bytes: [UInt8], near at: Int) -> (Int, Int)? {
        guard let open = bytes[at...].firstIndex(of: 0x22), open + 1 < bytes.count,
              let close = bytes[(open + 1)...].firstIndex(of: 0x22), close - open < 40 else { return nil }
        return (open + 1, close)
    }

    func testMutatedScenesDecodeOrFailCleanly() {
        var rng = SplitMix64(seed: 0x5CE_E5EED)
        let seeds = Self.seedScenes.map { Array($0.utf8) }
        let limits = ResourceLimits(maxPixels: 1_000_000, maxOps: 1_000, maxPathSegments: 10_000, maxNesting: 16, maxDashEntries: 64)
        var accepted = 0, rejected = 0
        var locations = Set<String>()
        for iteration in 0..<4_000 {
            var bytes = seeds[iteration % seeds.count]
            for _ in 0..<Int.random(in: 1...3, using: &rng) { Self.mutate(&bytes, &rng) }
            if bytes.count > 16_384 { bytes.removeSubrange(16_384...) }
            do {
                let scene = try Scene.decode(bytes, baseDirectory: "/nonexistent-scene-folder", limits: limits)
                XCTAssertLessThanOrEqual(scene.ops.count, limits.maxOps)
                XCTAssertLessThanOrEqual(scene.pixelWidth * scene.pixelHeight, limits.maxPixels)
                XCTAssertGreaterThan(scene.pixelWidth, 0)
                accepted += 1
            } catch let error as SceneError {
                XCTAssertFalse(error.message.isEmpty, "iteration \(iteration): an empty message")
                locations.insert(error.location.hasPrefix("line ") ? "syntax" : String(error.location.prefix(while: { $0 != "[" && $0 != "." })))
                rejected += 1
            } catch {
                XCTFail("iteration \(iteration): \(type(of: error)) \(error) for \(String(decoding: bytes, as: UTF8.self))")
            }
        }
        XCTAssertEqual(accepted + rejected, 4_000)
        XCTAssertGreaterThan(accepted, 60, "some mutations leave a valid scene")
        XCTAssertGreaterThan(rejected, 1_000, "most mutations break something")
        XCTAssertTrue(locations.isSuperset(of: ["syntax", "ops", "images"]), "errors were found at many places: \(locations)")
    }

    /// The JSON parser alone, on random bytes biased towards JSON's alphabet.
    func testRandomBytesNeverCrashTheParser() {
        var rng = SplitMix64(seed: 42)
        let alphabet = Array("{}[],:\"\\0123456789-+.eEtruefalsnl \n\u{7F}".utf8) + [0xC3, 0xA9, 0xFF, 0x00, 0xED, 0xA0, 0x80]
        var parsed = 0
        for _ in 0..<3_000 {
            let count = Int.random(in: 0...64, using: &rng)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &rng)! }
            do {
                _ = try JSONValue.parse(bytes)
                parsed += 1
            } catch let error as SceneError {
                XCTAssertTrue(error.location.hasPrefix("line "), "\(error)")
            } catch {
                XCTFail("\(type(of: error)) \(error)")
            }
        }
        XCTAssertLessThan(parsed, 3_000)
    }
}
