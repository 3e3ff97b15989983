// drawImage's contentMode and clipsToBounds are placement: every mode's
// placed rectangle, and the rendered result equal to the ops a UIKit
// program would write by hand (a draw in the placed rect, or save / clip /
// draw / restore), on the CPU renderer.
import Foundation
import XCTest
import Penumbra
import PenumbraCPU

final class PlacementTests: XCTestCase {
    func testEveryContentModesRect() {
        let bounds = Rect(x: 10, y: 20, width: 100, height: 50)
        let size = Size(width: 40, height: 40)
        let expected: [ContentMode: Rect] = [
            .scaleToFill: bounds,
            .scaleAspectFit: Rect(x: 35, y: 20, width: 50, height: 50),
            .scaleAspectFill: Rect(x: 10, y: -5, width: 100, height: 100),
            .center: Rect(x: 40, y: 25, width: 40, height: 40),
            .top: Rect(x: 40, y: 20, width: 40, height: 40),
            .bottom: Rect(x: 40, y: 30, width: 40, height: 40),
            .left: Rect(x: 10, y: 25, width: 40, height: 40),
            .right: Rect(x: 70, y: 25, width: 40, height: 40),
            .topLeft: Rect(x: 10, y: 20, width: 40, height: 40),
            .topRight: Rect(x: 70, y: 20, width: 40, height: 40),
            .bottomLeft: Rect(x: 10, y: 30, width: 40, height: 40),
            .bottomRight: Rect(x: 70, y: 30, width: 40, height: 40),
        ]
        XCTAssertEqual(Set(expected.keys), Set(ContentMode.allCases))
        for (mode, rect) in expected { XCTAssertEqual(mode.placedRect(imageSize: size, in: bounds), rect, "\(mode)") }
    }

    func render(_ ops: String, images: String) throws -> Bitmap {
        let json = "{\"format\": \"penumbra-scene\", \"version\": 1, \"size\": [60, 40], \"scale\": 2, \"background\": \"#FFFFFF\", "
            + "\"images\": \(images), \"ops\": \(ops)}"
        return try CPURenderer().render(Scene.decode(json, baseDirectory: ".", environment: .standard).displayList())
    }

    func testContentModeAndClipEqualTheHandWrittenOps() throws {
        let uri = "data:image/jpeg;base64," + Data(try Fixtures.bytes("baseline.jpg")).base64EncodedString()
        let images = "{\"p\": \"\(uri)\"}"  // 24 x 16 points
        let placed = try render("[{\"op\": \"drawImage\", \"image\": \"p\", \"rect\": [5, 5, 30, 30], \"contentMode\": \"scaleAspectFill\", \"clipsToBounds\": true, \"interpolation\": \"high\"}]", images: images)
        // aspect fill: scale 30/16, 45 x 30 centred on the 30 x 30 box.
        let byHand = try render("[{\"op\": \"save\"}, {\"op\": \"clip\", \"path\": {\"rect\": [5, 5, 30, 30]}}, "
            + "{\"op\": \"drawImage\", \"image\": \"p\", \"rect\": [-2.5, 5, 45, 30]}, {\"op\": \"restore\"}]", images: images)
        XCTAssertTrue(placed == byHand, "differs by \(Fixtures.maxDifference(placed, byHand))")
        let unclipped = try render("[{\"op\": \"drawImage\", \"image\": \"p\", \"rect\": [5, 5, 30, 30], \"contentMode\": \"scaleAspectFill\"}]", images: images)
        XCTAssertNotEqual(unclipped[2, 20], placed[2, 20], "without the clip the image spills left of the box")
        XCTAssertEqual(placed[2, 20], SIMD4(255, 255, 255, 255))
        let centred = try render("[{\"op\": \"drawImage\", \"image\": \"p\", \"rect\": [0, 0, 60, 40], \"contentMode\": \"center\"}]", images: images)
        let natural = try render("[{\"op\": \"drawImage\", \"image\": \"p\", \"at\": [18, 12]}]", images: images)
        XCTAssertTrue(centred == natural)
    }

    func testPlacementErrors() {
        XCTAssertThrowsError(try render("[{\"op\": \"drawImage\", \"image\": \"p\", \"at\": [0, 0], \"contentMode\": \"center\"}]",
                                        images: "{\"p\": {\"size\": [2, 2], \"ops\": []}}")) { error in
            XCTAssertEqual((error as? SceneError)?.location, "ops[0].contentMode")
        }
        XCTAssertThrowsError(try render("[{\"op\": \"drawImage\", \"image\": \"p\", \"rect\": [0, 0, 1, 1], \"interpolation\": \"cubic\"}]",
                                        images: "{\"p\": {\"size\": [2, 2], \"ops\": []}}")) { error in
            XCTAssertEqual((error as? SceneError)?.location, "ops[0].interpolation")
        }
    }
}
