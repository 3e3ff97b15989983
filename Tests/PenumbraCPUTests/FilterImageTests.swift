// The lazy FilterImage API (Sources/Penumbra/FilterImage.swift): building a
// chain computes nothing, a FilterContext renders it, the seed's vignetter as
// a custom filter equals the same chain written out, and a scene's chain draws
// the same bytes as the API's.

import Foundation
import Penumbra
import PenumbraModel
import PenumbraCore
import PenumbraCPU
import XCTest

final class FilterImageTests: XCTestCase {
    let photo = Image(bitmap: ColorFilterTests.randomBitmap(width: 64, height: 40, seed: 21), scale: 2)

    func testChainsAreDescriptionsUntilRendered() throws {
        let chain = photo.filterImage
            .applyingFilter(.colorControls(saturation: 1.2, brightness: 0, contrast: 1.1))
            .applyingFilter(.gaussianBlur(radius: 2))
            .cropped(to: Rect(x: 4, y: 4, width: 20, height: 10))
        XCTAssertEqual(chain.extent, Rect(x: 4, y: 4, width: 20, height: 10))
        XCTAssertNil(chain.clampedToExtent().extent)
        XCTAssertEqual(chain.scale, 2)
        let context = FilterContext()
        let out = try context.createImage(chain)
        XCTAssertEqual(out.bitmap.width, 20); XCTAssertEqual(out.scale, 2)
        // The same context renders again to the same bytes; an infinite image needs a rectangle.
        XCTAssertEqual(try context.createImage(chain).bitmap, out.bitmap)
        XCTAssertThrowsError(try context.createImage(photo.filterImage.clampedToExtent()))
        XCTAssertEqual(try context.createImage(photo.filterImage.clampedToExtent(), from: Rect(x: -3, y: -3, width: 2, height: 2))
            .bitmap[0, 0], photo.bitmap[0, 0])
    }

    func testVignetteFilterIsTheSeedChain() throws {
        let context = FilterContext()
        let vignetted = try context.createImage(photo.filterImage.applyingFilter(VignetteFilter(percentage: 0.7)))
        let mask = FilterImage.radialGradient(center: Point(x: 32, y: 20), radius0: 0.7 * 20, radius1: 32)
        let manual = try context.createImage(photo.filterImage.blended(withMask: mask))
        XCTAssertEqual(vignetted.bitmap, manual.bitmap)
        XCTAssertEqual(vignetted.bitmap[32, 20], photo.bitmap[32, 20])  // white at the centre
        XCTAssertEqual(vignetted.bitmap[0, 0], .zero)  // beyond the outer radius: black mask
    }

    func testASceneChainDrawsTheAPIsBytes() throws {
        let json = """
        {"format": "penumbra-scene", "version": 1, "size": [30, 20],
         "images": {"o": {"size": [30, 20], "ops": [{"op": "linearGradient", "start": [0, 0], "end": [30, 20],
                          "stops": [[0, "#FF8800"], [1, "#0044FF"]]}]},
                    "out": {"input": "o", "filters": [{"filter": "sepiaTone", "intensity": 0.6},
                                                      {"filter": "unsharpMask", "radius": 1.5, "intensity": 1}]}},
         "ops": []}
        """
        let scene = try Scene.decode(json, baseDirectory: NSTemporaryDirectory(), environment: .standard)
        let input = try XCTUnwrap(scene.images["o"])
        let api = try FilterContext().createImage(input.filterImage.applyingFilter(.sepiaTone(intensity: 0.6))
            .applyingFilter(.unsharpMask(radius: 1.5, intensity: 1)))
        XCTAssertEqual(scene.images["out"]?.bitmap, api.bitmap)
    }
}
