// SceneEnvironment.standard(renderingWith:): what a scene draws before its ops (offscreen images,
// vector images' pixels) is drawn by the renderer given, the one that will render the scene,
// with the bytes of the standard environment's CPU renderer.
import Foundation
import XCTest
import Penumbra
import PenumbraCPU

final class RenderingEnvironmentTests: XCTestCase {
    /// A CPU renderer that counts the lists it renders and their sizes.
    final class CountingRenderer: Renderer {
        let name = "counting"
        private let inner = CPURenderer()
        private(set) var sizes: [String] = []
        func render(_ list: DisplayList) throws -> Bitmap { try render(list, cancellation: nil) }
        func render(_ list: DisplayList, cancellation: RenderCancellation?) throws -> Bitmap {
            sizes.append("\(list.width)x\(list.height)")
            return try inner.render(list, cancellation: cancellation)
        }
    }

    private let scene = """
        {"format": "penumbra-scene", "version": 1, "size": [120, 80], "scale": 2,
         "images": {"badge": {"size": [30, 20], "ops": [{"op": "setFillColor", "color": "#E0402080"},
                                                       {"op": "fill", "path": {"ellipse": [2, 2, 26, 16]}}]},
                    "tile": {"size": [10, 10], "scale": 3, "background": "#203040",
                             "ops": [{"op": "drawImage", "image": "badge", "rect": [0, 0, 10, 7]}]}},
         "ops": [{"op": "drawImage", "image": "badge", "rect": [5, 5, 60, 40]},
                 {"op": "rotate", "angle": 0.2}, {"op": "drawImage", "image": "tile", "rect": [60, 20, 40, 40]}]}
        """

    func testOffscreenImagesAreDrawnByTheRendererGivenWithTheStandardBytes() throws {
        let counting = CountingRenderer()
        let given = try Scene.decode(scene, baseDirectory: "/nonexistent", environment: .standard(renderingWith: counting))
        // The badge at the scene's scale (60 x 40), and the tile at its own (30 x 30), which draws the badge.
        XCTAssertEqual(counting.sizes.sorted(), ["30x30", "60x40"])
        let standard = try Scene.decode(scene, baseDirectory: "/nonexistent", environment: .standard)
        XCTAssertEqual(Set(given.images.keys), ["badge", "tile"])
        for (name, image) in standard.images {
            XCTAssertTrue(image.bitmap == given.images[name]?.bitmap, "\(name) differs")
        }
        let renderer = CPURenderer()
        XCTAssertTrue(try renderer.render(given.displayList()) == renderer.render(standard.displayList()))
        // The comparison sees a real difference: the tile without its background.
        let bare = try Scene.decode(scene.replacingOccurrences(of: "\"background\": \"#203040\",", with: ""),
                                    baseDirectory: "/nonexistent", environment: .standard(renderingWith: counting))
        XCTAssertFalse(bare.images["tile"]?.bitmap == given.images["tile"]?.bitmap)
    }
}
