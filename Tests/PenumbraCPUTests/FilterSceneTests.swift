// Filter chains and generators in scenes (SceneDecoder+Filters.swift): what a
// chain decodes to, and every kind of bad input rejected with its place named.

import Foundation
import Penumbra
import PenumbraModel
import PenumbraCore
import PenumbraCPU
import XCTest

final class FilterSceneTests: XCTestCase {
    /// A scene with `images` and one drawImage of `draw` (nil: no ops).
    func scene(_ images: String, draw: String? = "out") -> String {
        let ops = draw.map { "[{\"op\": \"drawImage\", \"image\": \"\($0)\", \"at\": [0, 0]}]" } ?? "[]"
        return "{\"format\": \"penumbra-scene\", \"version\": 1, \"size\": [40, 30], \"images\": {\(images)}, \"ops\": \(ops)}"
    }

    func decode(_ json: String) throws -> Scene {
        try Scene.decode(json, baseDirectory: NSTemporaryDirectory(), environment: .standard)
    }

    let square = "\"sq\": {\"size\": [20, 10], \"background\": \"#3366CC\", \"ops\": []}"

    func testAChainBecomesItsPixelsCroppedToTheInputExtent() throws {
        let s = try decode(scene(square + ", \"out\": {\"input\": \"sq\", \"filters\": [{\"filter\": \"colorInvert\"}, "
            + "{\"filter\": \"gaussianBlur\", \"radius\": 1}]}"))
        let out = try XCTUnwrap(s.images["out"])
        XCTAssertEqual(out.bitmap.width, 20); XCTAssertEqual(out.bitmap.height, 10)
        XCTAssertEqual(out.bitmap[10, 5], SIMD4(0xCC, 0x99, 0x33, 255))
        XCTAssertLessThan(out.bitmap[0, 0][3], 255)  // blurred against transparency at the edge
    }

    func testExtentsGeneratorsAndScale() throws {
        let s = try decode(scene("\"g\": {\"generator\": \"constantColor\", \"color\": \"#FF000080\"}, "
            + "\"out\": {\"input\": \"g\", \"filters\": [], \"extent\": [1.5, 0, 3, 2]}, "
            + "\"lin\": {\"generator\": \"linearGradient\", \"start\": [0, 0], \"end\": [10, 0], "
            + "\"stops\": [[0, \"#000000\"], [1, \"#FFFFFF\"]], \"extent\": [0, 0, 10, 1]}"))
        let out = try XCTUnwrap(s.images["out"])
        XCTAssertEqual(out.bitmap.width, 4)  // [1.5, 4.5] rounded out
        XCTAssertEqual(out.bitmap[0, 0], SIMD4(128, 0, 0, 128))
        XCTAssertEqual(out.scale, 1)
        let lin = try XCTUnwrap(s.images["lin"])
        XCTAssertEqual(lin.bitmap.width, 10)
        XCTAssertLessThan(lin.bitmap[1, 0].x, lin.bitmap[8, 0].x)
        // An empty extent is a valid image that draws nothing.
        let empty = try decode(scene("\"g\": {\"generator\": \"constantColor\", \"color\": \"#FF0000\", \"extent\": [0, 0, 0, 5]}",
                                     draw: "g"))
        XCTAssertEqual(empty.images["g"]?.bitmap.width, 0)
    }

    func testAnUnusedUnboundedGeneratorIsNoError() throws {
        XCTAssertNoThrow(try decode(scene("\"g\": {\"generator\": \"constantColor\", \"color\": \"#FF0000\"}", draw: nil)))
    }

    func testBadInputsNameTheirPlace() {
        let cases: [(String, String, String)] = [
            (square + ", \"out\": {\"input\": \"sq\", \"filters\": [{\"filter\": \"blurr\"}]}",
             "images.out.filters[0].filter", "unknown filter \"blurr\""),
            (square + ", \"out\": {\"input\": \"sq\", \"filters\": [{\"filter\": \"gaussianBlur\", \"sigma\": 2}]}",
             "images.out.filters[0]", "unknown key \"sigma\" (known keys: filter, radius)"),
            (square + ", \"out\": {\"input\": \"sq\", \"filters\": [{\"filter\": \"gaussianBlur\", \"radius\": \"2\"}]}",
             "images.out.filters[0].radius", "expected a number"),
            (square + ", \"out\": {\"input\": \"sq\", \"filters\": [{\"filter\": \"gaussianBlur\", \"radius\": 1e999}]}",
             "images.out.filters[0].radius", "finite"),
            (square + ", \"out\": {\"input\": \"sq\", \"filters\": [{\"filter\": \"gaussianBlur\", \"radius\": 300}]}",
             "images.out.filters[0].radius", "must be in 0...256"),
            (square + ", \"out\": {\"input\": \"sq\", \"filters\": [{\"filter\": \"gammaAdjust\", \"power\": 0}]}",
             "images.out.filters[0].power", "greater than 0"),
            (square + ", \"out\": {\"input\": \"sq\", \"filters\": [{\"filter\": \"affineTransform\", \"matrix\": [1, 0, 0, 1, 0]}]}",
             "images.out.filters[0].matrix", "expected 6 numbers, got 5"),
            (square + ", \"out\": {\"input\": \"sq\", \"filters\": [{\"filter\": \"composite\", \"mode\": \"normal\"}]}",
             "images.out.filters[0]", "missing key \"background\""),
            (square + ", \"out\": {\"input\": \"sq\", \"filters\": [{\"filter\": \"blendWithMask\", \"mask\": \"nope\"}]}",
             "images.out.filters[0].mask", "no image named \"nope\""),
            (square + ", \"out\": {\"input\": \"sq\", \"filters\": {}}", "images.out.filters", "expected an array of filters"),
            (square + ", \"out\": {\"input\": \"sq\", \"filters\": [], \"size\": 3}", "images.out", "unknown key \"size\" (known keys: extent, filters, input)"),
            ("\"g\": {\"generator\": \"constantColor\", \"color\": \"#FF0000\"}", "images.g", "extent is infinite"),
            ("\"g\": {\"generator\": \"constantColor\", \"color\": \"#FF0000\"}, \"out\": {\"input\": \"g\", \"filters\": "
                + "[{\"filter\": \"colorInvert\"}]}", "images.out", "infinite extent"),
            ("\"g\": {\"generator\": \"noise\"}", "images.g.generator", "unknown generator \"noise\""),
            ("\"g\": {\"generator\": \"radialGradient\", \"startCenter\": [0, 0], \"startRadius\": -1, \"endCenter\": [0, 0], "
                + "\"endRadius\": 5, \"stops\": [[0, \"#000000\"]], \"extent\": [0, 0, 4, 4]}", "images.g.startRadius", "negative"),
            ("\"g\": {\"generator\": \"constantColor\", \"color\": \"#FF0000\"}, \"out\": {\"input\": \"g\", \"filters\": "
                + "[{\"filter\": \"vignette\"}], \"extent\": [0, 0, 4, 4]}", "images.out.filters[0]", "needs \"center\" and \"radius\""),
            ("\"a\": {\"input\": \"out\", \"filters\": []}, \"out\": {\"input\": \"a\", \"filters\": [{\"filter\": \"colorInvert\"}]}",
             "images.", "cycle"),
            ("\"out\": {\"input\": \"out\", \"filters\": []}", "images.out", "cycle"),
            ("\"out\": {\"input\": \"missing\", \"filters\": []}", "images.out.input", "no image named \"missing\""),
            (square + ", \"out\": {\"input\": \"sq\", \"filters\": ["
                + Array(repeating: "{\"filter\": \"colorInvert\"}", count: 257).joined(separator: ", ") + "]}",
             "images.out.filters", "at most 256"),
        ]
        for (images, location, message) in cases {
            let draw = images.contains("\"out\"") ? "out" : "g"
            XCTAssertThrowsError(try decode(scene(images, draw: draw)), images) { error in
                guard let e = error as? SceneError else { return XCTFail("\(error)") }
                XCTAssertTrue(e.location.hasPrefix(location), "\(images): \(e)")
                XCTAssertTrue(e.message.contains(message), "\(images): \(e)")
            }
        }
    }

    func testFiltersNeedServices() {
        let json = scene("\"g\": {\"generator\": \"constantColor\", \"color\": \"#FF0000\", \"extent\": [0, 0, 2, 2]}", draw: "g")
        XCTAssertThrowsError(try Scene.decode(json, baseDirectory: NSTemporaryDirectory())) { error in
            XCTAssertTrue("\(error)".contains("images.g"), "\(error)")
        }
    }
}
