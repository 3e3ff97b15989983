import XCTest
import Penumbra
import PenumbraCPU
import PenumbraGPU

/// The seeds' decorator API: chains give the same pixels as the ops written by hand, and a scene
/// and the equivalent Swift calls give identical pixels.
final class DecoratorTests: XCTestCase {
    let mars: Image = {
        let url = TestSupport.examples.appendingPathComponent("images/mars.png")
        return try! Image(pngData: [UInt8](try! Data(contentsOf: url)))
    }()
    let rotation = AffineTransform(rotationAngle: -.pi / 4)
        .concatenating(AffineTransform(translationX: -256, y: 64))

    func render(_ draw: (GraphicsContext) -> Void) throws -> Bitmap {
        let context = GraphicsContext(pixelWidth: 1024, pixelHeight: 1024, scale: 1, background: .white)
        draw(context)
        return try CPURenderer().render(context.displayList)
    }

    func testShadowAroundTransformEqualsTheOpsByHand() throws {
        let chained = try render { ctx in
            ctx.translateBy(x: 300, y: 350)
            ShadowFilter(TransformFilter(mars, transform: rotation), offset: Size(width: -25, height: 15), blur: 20)
                .draw(in: Rect(x: 0, y: 0, width: 512, height: 512), context: ctx)
        }
        let byHand = try render { ctx in
            ctx.translateBy(x: 300, y: 350)
            ctx.saveGState()
            ctx.setShadow(offset: Size(width: -25, height: 15), blur: 20)
            ctx.concatenate(rotation)
            ctx.draw(mars, in: Rect(x: 0, y: 0, width: 512, height: 512))
            ctx.restoreGState()
        }
        XCTAssertTrue(try XCTUnwrap(ImageDifference(chained, byHand)).isExact)
        // The shadow falls down-left of the rotated image: a pixel there is grey, not white.
        XCTAssertLessThan(chained[60, 440].x, 250)
    }

    func testChainedDecoratorsAreTheNestedInitialisers() throws {
        let chain = mars.transformed(by: rotation).withDropShadow(offset: Size(width: -25, height: 15), blur: 20)
        // The chain nests in the order it reads: the shadow is that of the transformed image.
        let inner = try XCTUnwrap(chain.component as? TransformFilter)
        XCTAssertEqual(inner.transform, rotation)
        XCTAssertEqual(chain.offset, Size(width: -25, height: 15))
        let chained = try render { ctx in
            ctx.translateBy(x: 300, y: 350)
            chain.draw(at: .zero, context: ctx)
        }
        let nested = try render { ctx in
            ctx.translateBy(x: 300, y: 350)
            ShadowFilter(TransformFilter(mars, transform: rotation), offset: Size(width: -25, height: 15), blur: 20)
                .draw(at: .zero, context: ctx)
        }
        XCTAssertTrue(try XCTUnwrap(ImageDifference(chained, nested)).isExact)
        // Without the shadow the pixel down-left of the rotated image stays white.
        let unshadowed = try render { ctx in
            ctx.translateBy(x: 300, y: 350)
            mars.transformed(by: rotation).draw(at: .zero, context: ctx)
        }
        XCTAssertLessThan(chained[60, 440].x, 250)
        XCTAssertEqual(unshadowed[60, 440].x, 255)
    }

    func testTransformAroundShadowIsTheSameAsTheReverseOrder() throws {
        // The shadow is in base space, so wrapping order does not change the pixels.
        let a = try render { ctx in
            TransformFilter(ShadowFilter(mars, offset: Size(width: -25, height: 15), blur: 20), transform: rotation)
                .draw(at: Point(400, 400), context: ctx)
        }
        let b = try render { ctx in
            ShadowFilter(TransformFilter(mars, transform: rotation), offset: Size(width: -25, height: 15), blur: 20)
                .draw(at: Point(400, 400), context: ctx)
        }
        XCTAssertTrue(try XCTUnwrap(ImageDifference(a, b)).isExact)
    }

    func testDecoratorExampleSceneEqualsTheSwiftCalls() throws {
        let scene = try TestSupport.loadScene(TestSupport.examples.appendingPathComponent("decorator.json"))
        let fromScene = try CPURenderer().render(scene.displayList())
        let fromSwift = try render { ctx in
            ctx.translateBy(x: 300, y: 350)
            ShadowFilter(TransformFilter(mars, transform: AffineTransform(
                a: (0.5).squareRoot(), b: -(0.5).squareRoot(), c: (0.5).squareRoot(), d: (0.5).squareRoot(), tx: -256, ty: 64)),
                offset: Size(width: -25, height: 15), blur: 20).draw(in: Rect(x: 0, y: 0, width: 512, height: 512), context: ctx)
        }
        let diff = try XCTUnwrap(ImageDifference(fromScene, fromSwift))
        XCTAssertTrue(diff.isExact, diff.description)
    }

    func testEagerFiltersReturnImagesOfTheDocumentedSize() throws {
        let small = try XCTUnwrap(mars.cropped(to: Rect(x: 0, y: 0, width: 64, height: 32)))
        let rotated = try small.applying(AffineTransform(rotationAngle: .pi / 2))
        XCTAssertEqual(rotated.bitmap.width, 32); XCTAssertEqual(rotated.bitmap.height, 64)
        let shadowed = try small.renderingDropShadow(offset: Size(width: 4, height: 6), blur: 2)
        XCTAssertEqual(shadowed.bitmap.width, 64); XCTAssertEqual(shadowed.bitmap.height, 32)
        let grown = try small.renderingDropShadow(offset: Size(width: 4, height: 6), blur: 2, growingCanvas: true)
        XCTAssertGreaterThan(grown.bitmap.width, 64 + 4); XCTAssertGreaterThan(grown.bitmap.height, 32 + 6)
        // Growing keeps the image's own pixels intact somewhere inside: its top-left pixel is opaque
        // content, not shadow, and the far bottom-right corner holds only shadow.
        XCTAssertEqual(grown.bitmap[grown.bitmap.width - 1, grown.bitmap.height - 1].w, 0)
        let bottomRightShadow = grown.bitmap[Int(grown.size.width) - 4, Int(grown.size.height) - 4]
        XCTAssertGreaterThan(bottomRightShadow.w, 0)
    }

    /// An eager filter draws with the renderer it is given (a GPU renderer is reused, not made per
    /// call) and gives the CPU's bytes.
    func testEagerFiltersDrawWithTheCallersRenderer() throws {
        let small = try XCTUnwrap(mars.cropped(to: Rect(x: 0, y: 0, width: 64, height: 32)))
        let gpu: GPURenderer
        do { gpu = try GPURenderer() } catch {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("CI=true and no GPU context: \(error)"); throw error }
            throw XCTSkip("no headless EGL/GLES 3 context: \(error)")
        }
        let before = gpu.lastFrameCounters.passes
        let onGPU = try small.renderingDropShadow(offset: Size(width: 4, height: 6), blur: 2, renderer: gpu)
        XCTAssertGreaterThan(gpu.lastFrameCounters.passes, 0, "the given renderer drew the shadow")
        XCTAssertEqual(before, 0, "a fresh renderer had drawn nothing")
        let onCPU = try small.renderingDropShadow(offset: Size(width: 4, height: 6), blur: 2)
        XCTAssertTrue(try XCTUnwrap(ImageDifference(onCPU.bitmap, onGPU.bitmap)).isExact)
    }
}
