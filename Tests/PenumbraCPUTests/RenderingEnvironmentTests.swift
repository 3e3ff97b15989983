// SceneEnvironment.standard(renderingWith:): the images a scene draws (offscreen images, vector
// images' pixels) are drawn by the renderer given, the one that renders the scene, with the bytes
// of the standard environment's CPU renderer; and they are drawn when the scene is rendered, not
// while it is decoded (DeferredPixels.swift).
import Foundation
import Synchronization
import XCTest
import Penumbra
import PenumbraCPU

final class RenderingEnvironmentTests: XCTestCase {
    /// A CPU renderer that counts the lists it renders and their sizes.
    final class CountingRenderer: Renderer, Sendable {
        let name = "counting"
        private let drawn = Mutex<[String]>([])
        /// The sizes of the lists rendered, in order.
        var sizes: [String] { drawn.withLock { $0 } }
        func render(_ list: DisplayList) throws -> Bitmap { try render(list, cancellation: nil) }
        func render(_ list: DisplayList, cancellation: RenderCancellation?) throws -> Bitmap {
            drawn.withLock { $0.append("\(list.width)x\(list.height)") }
            return try CPURenderer().render(list, cancellation: cancellation)
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
        XCTAssertEqual(counting.sizes, [], "decoding draws nothing")
        _ = try given.displayList()
        // The badge at the scene's scale (60 x 40), then the tile at its own (30 x 30), which draws the badge.
        XCTAssertEqual(counting.sizes, ["60x40", "30x30"])
        _ = try given.displayList()
        XCTAssertEqual(counting.sizes, ["60x40", "30x30"], "each image is drawn once")
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

    func testImagesAreDrawnOnceWhenScenesRenderOnTwoThreadsAtOnce() throws {
        let counting = CountingRenderer()
        let given = try Scene.decode(scene, baseDirectory: "/nonexistent", environment: .standard(renderingWith: counting))
        let lists = Mutex<[Bitmap]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let bitmap = try? CPURenderer().render(given.displayList())
            lists.withLock { $0.append(bitmap ?? Bitmap(width: 0, height: 0)) }
        }
        XCTAssertEqual(counting.sizes, ["60x40", "30x30"])
        let bitmaps = lists.withLock { $0 }
        let reference = try CPURenderer().render(Scene.decode(scene, baseDirectory: "/nonexistent", environment: .standard).displayList())
        XCTAssertEqual(bitmaps.count, 4)
        for bitmap in bitmaps { XCTAssertTrue(bitmap == reference) }
    }

    /// A renderer that fails, as a GPU whose context is lost does.
    final class FailingRenderer: Renderer, Sendable {
        struct Lost: Error, CustomStringConvertible { var description: String { "the context was lost" } }
        let name = "failing"
        private let failures = Mutex(1)
        func render(_ list: DisplayList) throws -> Bitmap { try render(list, cancellation: nil) }
        func render(_ list: DisplayList, cancellation: RenderCancellation?) throws -> Bitmap {
            if failures.withLock({ n in defer { n -= 1 }; return n > 0 }) { throw Lost() }
            return try CPURenderer().render(list, cancellation: cancellation)
        }
    }

    func testAnImageThatCannotBeDrawnFailsTheRenderNamingItAndIsDrawnByTheNextOne() throws {
        let given = try Scene.decode(scene, baseDirectory: "/nonexistent", environment: .standard(renderingWith: FailingRenderer()))
        XCTAssertThrowsError(try given.displayList()) { error in
            XCTAssertEqual(error as? SceneError, SceneError(location: "images.badge",
                                                            message: "the offscreen image could not be rendered: the context was lost"))
        }
        // The failure is not kept: the next render draws the image.
        let reference = try CPURenderer().render(Scene.decode(scene, baseDirectory: "/nonexistent", environment: .standard).displayList())
        XCTAssertTrue(try CPURenderer().render(given.displayList()) == reference)
    }

    func testAnOffscreenImageOverTheBudgetIsDecodedAndRefusedWhenDrawn() throws {
        let big = """
            {"format": "penumbra-scene", "version": 1, "size": [40, 40],
             "images": {"big": {"size": [40, 40], "ops": [{"op": "setShadow", "offset": [0, 0], "blur": 4, "color": "#000000"},
                                                         {"op": "fill", "path": {"rect": [2, 2, 30, 30]}}]}},
             "ops": [{"op": "drawImage", "image": "big", "at": [0, 0]}]}
            """
        var limits = ResourceLimits.default
        // The canvas (6,400 bytes) and the image (8,532) fit; the image's shadow plane does not.
        limits.maxRenderBytes = 17_000
        let counting = CountingRenderer()
        let given = try Scene.decode(big, baseDirectory: "/nonexistent", limits: limits, environment: .standard(renderingWith: counting))
        XCTAssertThrowsError(try given.displayList()) { error in
            let failure = error as? SceneError
            XCTAssertEqual(failure?.location, "images.big")
            XCTAssertTrue(failure?.message.hasPrefix("the offscreen image does not fit: ops[1]") == true, "\(error)")
        }
        XCTAssertEqual(counting.sizes, [])
    }

    func testFilterChainsOverOffscreenImagesAreBuiltWhileDecodingAndDrawnWhenRendered() throws {
        // A chain over an offscreen image, a chain over that chain with the offscreen image as its
        // mask: decoding checks both (their extents come from the stand-ins) and draws nothing.
        let chained = """
            {"format": "penumbra-scene", "version": 1, "size": [120, 80], "scale": 2,
             "images": {"badge": {"size": [30, 20], "ops": [{"op": "setFillColor", "color": "#E0402080"},
                                                           {"op": "fill", "path": {"ellipse": [2, 2, 26, 16]}}]},
                        "soft": {"input": "badge", "filters": [{"filter": "gaussianBlur", "radius": 3}]},
                        "masked": {"input": "soft", "filters": [{"filter": "colorControls", "saturation": 0.2},
                                                                {"filter": "blendWithMask", "mask": "badge"}]}},
             "ops": [{"op": "drawImage", "image": "soft", "rect": [5, 5, 60, 40]},
                     {"op": "drawImage", "image": "masked", "rect": [60, 30, 60, 40]}]}
            """
        let counting = CountingRenderer()
        let given = try Scene.decode(chained, baseDirectory: "/nonexistent", environment: .standard(renderingWith: counting))
        XCTAssertEqual(counting.sizes, [], "decoding draws nothing")
        let list = try given.displayList()
        XCTAssertEqual(counting.sizes, ["60x40"])
        // The chains' pixels are the graphs evaluated over the badge's pixels, drawn first.
        let badge = try XCTUnwrap(given.images["badge"]).bitmap
        let region = PixelRect(x: 0, y: 0, width: 60, height: 40)
        let soft = FilterNode.filtered(.bitmap(badge), .gaussianBlur(radius: 3))
        XCTAssertTrue(try FilterEvaluator.cpu(soft, region, Int.max) == given.images["soft"]?.bitmap)
        let masked = FilterNode.filtered(.filtered(soft, .colorControls(saturation: 0.2, brightness: 0, contrast: 1)),
                                         .blendWithMask(mask: .bitmap(badge), background: nil))
        XCTAssertTrue(try FilterEvaluator.cpu(masked, region, Int.max) == given.images["masked"]?.bitmap)
        XCTAssertFalse(try FilterEvaluator.cpu(soft, region, Int.max) == given.images["masked"]?.bitmap)
        XCTAssertTrue(try CPURenderer().render(list)
            == CPURenderer().render(Scene.decode(chained, baseDirectory: "/nonexistent", environment: .standard).displayList()))
    }
}
