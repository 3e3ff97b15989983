// NameSuggestionTests: unknown ops and keys name the nearest known name and
// list the known ones (NameSuggestion.swift): the edit distance, when a name
// is near enough to suggest, and the decoder's messages at their places,
// exactly as docs/scene-format.md ("Errors") shows them.

import XCTest
import PenumbraModel
import PenumbraCore

final class NameSuggestionTests: XCTestCase {
    typealias S = SceneTestSupport

    private let allOps = "beginLayer, blurBackdrop, clearShadow, clip, concat, drawImage, drawText, drawView, endLayer, fill, "
        + "linearGradient, radialGradient, restore, rotate, save, scale, setAlpha, setBlendMode, setFillColor, setLineCap, "
        + "setLineDash, setLineJoin, setLineWidth, setMiterLimit, setShadow, setStrokeColor, stroke, translate"

    func testDistance() {
        XCTAssertEqual(NameSuggestion.distance("fill", "fill"), 0)
        XCTAssertEqual(NameSuggestion.distance("filll", "fill"), 1)        // a deletion
        XCTAssertEqual(NameSuggestion.distance("colour", "color"), 1)
        XCTAssertEqual(NameSuggestion.distance("clor", "color"), 1)         // an insertion
        XCTAssertEqual(NameSuggestion.distance("colro", "color"), 1)        // a swap of neighbours
        XCTAssertEqual(NameSuggestion.distance("setfillcolor", "setFillColor"), 0)  // case does not count
        XCTAssertEqual(NameSuggestion.distance("kitten", "sitting"), 3)
        XCTAssertEqual(NameSuggestion.distance("", "abc"), 3)
        XCTAssertEqual(NameSuggestion.distance("abc", ""), 3)
        XCTAssertEqual(NameSuggestion.distance("fillRect", "fill"), 4)
    }

    func testNearest() {
        let ops = Set(SceneVocabulary.ops.keys)
        XCTAssertEqual(NameSuggestion.nearest(to: "fillRect", among: ops), "fill")          // a known name is its prefix
        XCTAssertEqual(NameSuggestion.nearest(to: "filll", among: ops), "fill")
        XCTAssertEqual(NameSuggestion.nearest(to: "strokeColor", among: ops), "setStrokeColor")
        XCTAssertEqual(NameSuggestion.nearest(to: "setfillcolor", among: ops), "setFillColor")
        XCTAssertEqual(NameSuggestion.nearest(to: "rotation", among: ops), "rotate")
        XCTAssertEqual(NameSuggestion.nearest(to: "blurRadius", among: ["offset", "blur", "color"]), "blur")
        XCTAssertEqual(NameSuggestion.nearest(to: "colour", among: ["offset", "blur", "color"]), "color")
        // Nothing near: no guess.
        XCTAssertNil(NameSuggestion.nearest(to: "circle", among: ["rect", "ellipse", "roundedRect", "arc", "radius"]))
        XCTAssertNil(NameSuggestion.nearest(to: "transform", among: ops))
        XCTAssertNil(NameSuggestion.nearest(to: "", among: ops))
        XCTAssertNil(NameSuggestion.nearest(to: "x", among: []))
        // Ties go to the alphabetically first name.
        XCTAssertEqual(NameSuggestion.nearest(to: "bb", among: ["bc", "ba"]), "ba")
    }

    private func message(_ json: String) -> String {
        do {
            _ = try S.decode(json)
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    func testUnknownOpSuggestsTheNearestAndListsAll() {
        XCTAssertEqual(message(S.scene(#"{"op": "fillRect", "path": {"rect": [0, 0, 1, 1]}}"#)),
                       "ops[0]: unknown op \"fillRect\" (did you mean \"fill\"? known ops: \(allOps))")
        XCTAssertEqual(message(S.scene(#"{"op": "save"}, {"op": "Restore"}"#)),
                       "ops[1]: unknown op \"Restore\" (did you mean \"restore\"? known ops: \(allOps))")
        XCTAssertEqual(message(S.scene(#"{"op": "transform", "matrix": [1, 0, 0, 1, 0, 0]}"#)),
                       "ops[0]: unknown op \"transform\" (known ops: \(allOps))")
    }

    func testUnknownKeySuggestsTheNearestAndListsAll() {
        XCTAssertEqual(message(S.scene(#"{"op": "setShadow", "offset": [0, 2], "blurRadius": 4}"#)),
                       "ops[0]: unknown key \"blurRadius\" (did you mean \"blur\"? known keys: blur, color, offset, op)")
        // A key the object already has is not suggested: here the typo is not a second "blur".
        XCTAssertEqual(message(S.scene(#"{"op": "setShadow", "offset": [0, 2], "blur": 4, "blurRadius": 4}"#)),
                       "ops[0]: unknown key \"blurRadius\" (known keys: blur, color, offset, op)")
        XCTAssertEqual(message(S.scene(##"{"op": "setFillColor", "colour": "#FFFFFF"}"##)),
                       "ops[0]: unknown key \"colour\" (did you mean \"color\"? known keys: color, op)")
        XCTAssertEqual(message(S.scene("", extra: ##""backgroud": "#FFFFFF""##)),
                       "unknown key \"backgroud\" (did you mean \"background\"? known keys: background, fonts, format, "
                        + "images, ops, scale, size, time, version)")
        XCTAssertEqual(message(S.scene(#"{"op": "fill", "path": {"circle": [0, 0, 1]}}"#)),
                       "ops[0].path: unknown key \"circle\" (known keys: arc, ellipse, radius, rect, roundedRect)")
        XCTAssertEqual(message(S.scene("", images: #"{"mars": {"path": "m.png", "scal": 2}}"#)),
                       "images.mars: unknown key \"scal\" (did you mean \"scale\"? known keys: orientation, path, scale)")
    }
}
