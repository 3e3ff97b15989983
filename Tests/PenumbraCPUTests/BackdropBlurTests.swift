// blurBackdrop on the CPU (BackdropBlur.swift, CPURenderer+Backdrop.swift):
// under the path the destination is replaced by its blur (transparent outside
// the target), saturation and tint applied, with the path's coverage times the
// clip; elsewhere nothing changes; the alpha and blend mode do not apply; bad
// fields are rejected with their place.

import Foundation
import Penumbra
import PenumbraModel
import PenumbraCore
import PenumbraCPU
import XCTest

final class BackdropBlurTests: XCTestCase {
    func stripes(_ context: GraphicsContext) {
        for i in 0..<8 {
            context.setFillColor(i % 2 == 0 ? Color(red: 1, green: 0.2, blue: 0.1) : Color(red: 0.1, green: 0.3, blue: 0.9))
            context.fill(Path(rect: Rect(x: Double(i) * 8, y: 0, width: 8, height: 40)))
        }
    }

    func testTheBackdropIsReplacedByItsFilteredSelfUnderThePath() throws {
        let before = GraphicsContext(pixelWidth: 64, pixelHeight: 40, scale: 1, background: nil)
        stripes(before)
        let backdrop = try CPURenderer().render(before.displayList)

        let context = GraphicsContext(pixelWidth: 64, pixelHeight: 40, scale: 1, background: nil)
        stripes(context)
        context.setAlpha(0.3)
        context.setBlendMode(.multiply)  // neither applies
        let tint = Color(red: 1, green: 1, blue: 1, alpha: 0.25)
        context.blurBackdrop(Path(rect: Rect(x: 10, y: 5, width: 30, height: 20)), radius: 3, saturation: 1.5, tint: tint)
        let out = try CPURenderer().render(context.displayList)

        let expected = try FilterEvaluator(services: .cpu).render(
            BackdropBlur(shape: DeviceShape(contours: [], rule: .nonzero), sigma: 3, saturation: 1.5, tint: tint).replacement(over: .bitmap(backdrop)),
            in: PixelRect(x: 10, y: 5, width: 30, height: 20))
        for y in 0..<40 {
            for x in 0..<64 {
                let inside = x >= 10 && x < 40 && y >= 5 && y < 25
                XCTAssertEqual(out[x, y], inside ? expected[x - 10, y - 5] : backdrop[x, y], "(\(x), \(y))")
            }
        }
        XCTAssertNotEqual(out[16, 10], backdrop[16, 10])
    }

    func testTheClipBoundsTheReplacementAndAnEmptyPathDrawsNothing() throws {
        let context = GraphicsContext(pixelWidth: 64, pixelHeight: 40, scale: 1, background: nil)
        stripes(context)
        let backdrop = try CPURenderer().render(context.displayList)
        context.clip(to: Path(rect: Rect(x: 0, y: 0, width: 20, height: 40)))
        context.blurBackdrop(Path(rect: Rect(x: 10, y: 0, width: 40, height: 40)), radius: 4)
        context.blurBackdrop(Path(), radius: 4)
        let out = try CPURenderer().render(context.displayList)
        XCTAssertEqual(out[30, 20], backdrop[30, 20])   // outside the clip
        XCTAssertNotEqual(out[15, 20], backdrop[15, 20])  // blurred across a stripe edge
        XCTAssertEqual(out[5, 20], backdrop[5, 20])     // outside the path
    }

    func testBadFieldsNameTheirPlace() {
        let cases: [(String, String)] = [
            ("{\"op\": \"blurBackdrop\", \"path\": {\"rect\": [0, 0, 4, 4]}, \"radius\": 300}", "ops[0].radius"),
            ("{\"op\": \"blurBackdrop\", \"path\": {\"rect\": [0, 0, 4, 4]}}", "ops[0]"),
            ("{\"op\": \"blurBackdrop\", \"path\": {\"rect\": [0, 0, 4, 4]}, \"radius\": 2, \"tint\": 3}", "ops[0].tint"),
            ("{\"op\": \"blurBackdrop\", \"path\": {\"rect\": [0, 0, 4, 4]}, \"radius\": 2, \"alpha\": 1}", "ops[0]"),
        ]
        for (op, location) in cases {
            let json = "{\"format\": \"penumbra-scene\", \"version\": 1, \"size\": [10, 10], \"ops\": [\(op)]}"
            XCTAssertThrowsError(try Scene.decode(json, baseDirectory: NSTemporaryDirectory())) { error in
                XCTAssertEqual((error as? SceneError)?.location, location, "\(error)")
            }
        }
    }
}
