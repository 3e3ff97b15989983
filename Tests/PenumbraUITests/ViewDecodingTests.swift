import XCTest
import Penumbra
import PenumbraCPU
import Foundation
@testable import PenumbraModel
@testable import PenumbraCore

/// `drawView` decoding: the tree it builds and the errors it names.
final class ViewDecodingTests: XCTestCase {
    private func decode(_ ops: String, images: String = "{}") throws -> Scene {
        try Scene.decode("""
            {"format":"penumbra-scene","version":1,"size":[200,100],"images":\(images),"ops":\(ops)}
            """, baseDirectory: "/nonexistent", environment: .standard)
    }

    private func expectError(_ ops: String, images: String = "{}", at location: String, containing text: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try decode(ops, images: images), file: file, line: line) { error in
            guard let e = error as? SceneError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(e.location, location, file: file, line: line)
            XCTAssertTrue(e.message.contains(text), "\(e.message)", file: file, line: line)
        }
    }

    func testTreeKeepsGeometryAndStyle() throws {
        let scene = try decode("""
            [{"op":"drawView","layoutDirection":"rightToLeft","view":{"frame":[10,20,100,50],"bounds":[0,30,100,50],
              "alpha":0.5,"backgroundColor":"#FF0000","clipsToBounds":true,"tintColor":"#00FF00",
              "layer":{"cornerRadius":8,"borderWidth":2,"shadowOpacity":0.4,"shadowOffset":[1,2]},
              "subviews":[{"center":[50,25],"bounds":[0,0,20,10],"transform":[0,1,-1,0,0,0],"hidden":true}]}}]
            """)
        guard case .drawView(let op) = scene.ops[0] else { return XCTFail("not a drawView") }
        XCTAssertEqual(op.layoutDirection, .rightToLeft)
        let root = op.root
        XCTAssertEqual(root.placement, .frame(Rect(x: 10, y: 20, width: 100, height: 50)))
        XCTAssertEqual(root.bounds, Rect(x: 0, y: 30, width: 100, height: 50))
        XCTAssertEqual(root.alpha, 0.5)
        XCTAssertTrue(root.clipsToBounds)
        XCTAssertEqual(root.layer.cornerRadius, 8)
        XCTAssertEqual(root.layer.shadowOffset, Size(width: 1, height: 2))
        XCTAssertEqual(root.layer.shadowRadius, 3, "UIKit's default")
        XCTAssertFalse(root.castsShadow, "a clipping view casts no shadow")
        XCTAssertEqual(root.subviews.count, 1)
        XCTAssertTrue(root.subviews[0].isHidden)
        // The subview's bounds point (0, 0) lands at centre - half size, rotated, moved by the bounds origin.
        let p = root.subviews[0].transformToSuperview.apply(Point(x: 0, y: 0))
        XCTAssertEqual(p.x, 55, accuracy: 1e-9)
        XCTAssertEqual(p.y, 15, accuracy: 1e-9)
    }

    func testErrorsNameThePlace() {
        expectError(#"[{"op":"drawView","view":{"frame":[0,0,10,10],"subviews":[{},{"type":"button"}]}}]"#,
                    at: "ops[0].view.subviews[1].type", containing: "unknown view type \"button\"")
        expectError(#"[{"op":"drawView","view":{"frame":[0,0,10,10],"colour":"red"}}]"#,
                    at: "ops[0].view", containing: "colour")
        expectError(#"[{"op":"drawView","view":{"frame":[0,0,10,10],"transform":[1,0,0,1,0,0]}}]"#,
                    at: "ops[0].view.transform", containing: "cannot have a \"transform\"")
        expectError(#"[{"op":"drawView","view":{"frame":[0,0,-10,10]}}]"#,
                    at: "ops[0].view.frame[2]", containing: "width")
        expectError(#"[{"op":"drawView","view":{"center":[5,5]}}]"#, at: "ops[0].view", containing: "needs \"bounds\"")
        expectError(#"[{"op":"drawView","view":{"type":"imageView","frame":[0,0,10,10],"image":"nope"}}]"#,
                    at: "ops[0].view.image", containing: "no image named \"nope\"")
        expectError(#"[{"op":"drawView","view":{"type":"label","frame":[0,0,10,10],"draw":[]}}]"#,
                    at: "ops[0].view", containing: "draw")
        expectError(#"[{"op":"drawView","view":{"frame":[0,0,10,10],"draw":[{"op":"restore"}]}}]"#,
                    at: "ops[0].view.draw[0]", containing: "restore without a matching save")
        expectError(#"[{"op":"drawView","view":{"type":"visualEffect","effect":"glow"}}]"#,
                    at: "ops[0].view.effect", containing: "\"blur\" or \"vibrancy\"")
        expectError(#"[{"op":"drawView","view":{"frame":[0,0,10,10],"bounds":[0,0,5,5]}}]"#,
                    at: "ops[0].view.bounds", containing: "must be the frame's")
    }

    func testLimitsOnViewsAndLevels() throws {
        var deep = #"{"frame":[0,0,1,1]}"#
        for _ in 0..<64 { deep = #"{"frame":[0,0,1,1],"subviews":["# + deep + "]}" }
        expectError(#"[{"op":"drawView","view":"# + deep + "}]", at: "ops[0].view" + String(repeating: ".subviews[0]", count: 64),
                    containing: "more than 64 levels")
        let many = (0..<30).map { _ in #"{"frame":[0,0,1,1]}"# }.joined(separator: ",")
        var limits = ResourceLimits.default
        limits.maxViews = 20
        XCTAssertThrowsError(try Scene.decode("""
            {"format":"penumbra-scene","version":1,"size":[10,10],"ops":[{"op":"drawView","view":{"subviews":[\(many)]}}]}
            """, baseDirectory: "/", limits: limits, environment: .standard)) { error in
            XCTAssertEqual((error as? SceneError)?.location, "ops[0].view.subviews[19]")
            XCTAssertTrue("\(error)".contains("--max-views"), "\(error)")
        }
        // The views of a draw's ops count towards --max-ops.
        limits = .default
        limits.maxOps = 3
        XCTAssertThrowsError(try Scene.decode("""
            {"format":"penumbra-scene","version":1,"size":[10,10],"ops":[{"op":"drawView","view":{"draw":[{"op":"save"},{"op":"restore"},{"op":"save"}]}}]}
            """, baseDirectory: "/", limits: limits, environment: .standard))
    }

    func testImageTraitsAndSnapshotImages() throws {
        let px = "data:image/png;base64," + Self.onePixelPNG
        let scene = try decode("""
            [{"op":"drawView","view":{"type":"imageView","frame":[0,0,10,10],"image":"icon"}},
             {"op":"drawImage","image":"snap","rect":[0,0,20,10]}]
            """, images: """
            {"icon":{"path":"\(px)","renderingMode":"alwaysTemplate","flipsForRightToLeftLayoutDirection":true},
             "snap":{"view":{"frame":[5,5,20,10],"backgroundColor":"#FF0000"},"scale":2}}
            """)
        guard case .drawView(let op) = scene.ops[0], case .image(let shown) = op.root.content else { return XCTFail() }
        XCTAssertTrue(shown.isTemplate)
        XCTAssertTrue(shown.flipsForRightToLeft)
        let snap = try XCTUnwrap(scene.images["snap"])
        XCTAssertEqual(snap.bitmap.width, 40, "the root's bounds' size at scale 2")
        XCTAssertEqual(snap.bitmap.height, 20)
        XCTAssertEqual(Array(snap.bitmap.pixels[0..<4]), [255, 0, 0, 255], "the root drawn at the origin")
        XCTAssertThrowsError(try decode("[]", images: #"{"x":{"renderingMode":"alwaysTemplate"}}"#))
    }

    func testAnImageViewOfAnAnimationShowsTheFrameAtTheScenesTime() throws {
        let red = try Image(bitmap: Bitmap(width: 1, height: 1, pixels: [255, 0, 0, 255])).pngData()
        let blue = try Image(bitmap: Bitmap(width: 1, height: 1, pixels: [0, 0, 255, 255])).pngData()
        let uri = { (png: [UInt8]) in "data:image/png;base64," + Data(png).base64EncodedString() }
        let scene = try decode(#"[{"op":"drawView","view":{"type":"imageView","frame":[0,0,4,4],"image":"blink"}}]"#,
                               images: #"{"blink":{"frames":[""# + uri(red) + #"",""# + uri(blue) + #""],"duration":1}}"#)
        func firstPixel(_ s: Scene) throws -> [UInt8] { Array(try CPURenderer().render(s.displayList()).pixels[0..<4]) }
        XCTAssertEqual(try firstPixel(scene.at(time: 0.25)), [255, 0, 0, 255])
        XCTAssertEqual(try firstPixel(scene.at(time: 0.75)), [0, 0, 255, 255])
    }

    /// A 1 x 1 opaque white PNG.
    static let onePixelPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg=="
}
