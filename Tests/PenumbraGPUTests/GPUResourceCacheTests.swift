// GPUResourceCacheTests: what a GPURenderer keeps across renders. Image
// textures are shared by content (two draws, two scenes, two equal bitmaps)
// and never served stale (an edited image, or one whose hash collides, gets
// its own pixels); the cache stays within its budget; pooled textures and
// framebuffers are all given back after a render, even a failing one, and
// do not grow across renders.
import XCTest
import CEGL
import Penumbra
import PenumbraCPU
@testable import PenumbraGPU

final class GPUResourceCacheTests: XCTestCase {
    /// A w x h bitmap with distinct opaque pixels, seeded.
    func pattern(_ w: Int, _ h: Int, seed: UInt8) -> Bitmap {
        var b = Bitmap(width: w, height: h)
        for i in 0..<(w * h) {
            b.pixels[i * 4] = UInt8(truncatingIfNeeded: i &* 7) &+ seed
            b.pixels[i * 4 + 1] = UInt8(truncatingIfNeeded: i &* 13) ^ seed
            b.pixels[i * 4 + 2] = UInt8(truncatingIfNeeded: i / 3) &+ seed
            b.pixels[i * 4 + 3] = 255
        }
        return b
    }

    /// A 32x32 list drawing each bitmap scaled over its own quarter.
    func list(_ bitmaps: [Bitmap]) -> DisplayList {
        var list = DisplayList(width: 32, height: 32, scale: 1, background: .white)
        for (i, b) in bitmaps.enumerated() {
            let rect = Rect(x: Double(i % 2) * 16, y: Double(i / 2 % 2) * 16, width: 16, height: 16)
            list.commands.append(.image(ImageDraw(bitmap: b, scale: 1, transform: .identity, rect: rect), CompositeState()))
        }
        return list
    }

    func testEqualPixelsShareOneTextureAcrossDrawsAndRenders() throws {
        let gpu = try GPURenderer()
        let a = pattern(8, 8, seed: 1)
        var twin = Bitmap(width: 8, height: 8)   // same bytes, another array
        twin.pixels = a.pixels.map { $0 }
        let first = try gpu.render(list([a, a, twin]))
        let second = try gpu.render(list([twin, a, a]))
        XCTAssertEqual(gpu.images.uploads, 1, "equal pixels were uploaded more than once")
        XCTAssertEqual(gpu.images.hits, 5)
        XCTAssertEqual(gpu.images.count, 1)
        let reference = try GPURenderer()
        XCTAssertEqual(first.pixels, try reference.render(list([a, a, twin])).pixels)
        XCTAssertEqual(second.pixels, try reference.render(list([twin, a, a])).pixels)
    }

    func testAnEditedImageIsNotServedStale() throws {
        let gpu = try GPURenderer()
        var image = pattern(8, 8, seed: 3)
        let before = try gpu.render(list([image]))
        image.pixels[0] = 0; image.pixels[1] = 255; image.pixels[2] = 0   // edit in place (the cache keeps the old buffer)
        let after = try gpu.render(list([image]))
        let fresh = try GPURenderer().render(list([image]))
        XCTAssertEqual(after.pixels, fresh.pixels, "the edited image rendered with the old texture")
        XCTAssertNotEqual(after.pixels, before.pixels)
        XCTAssertEqual(gpu.images.uploads, 2)
    }

    func testCollidingHashesStillGiveEachImageItsOwnPixels() throws {
        let gpu = try GPURenderer()
        gpu.images.contentHash = { _ in 42 }   // every image collides
        let a = pattern(8, 8, seed: 5), b = pattern(8, 8, seed: 90)
        let reference = try GPURenderer()
        for bitmaps in [[a], [b], [a, b], [b, a]] {
            XCTAssertEqual(try gpu.render(list(bitmaps)).pixels, try reference.render(list(bitmaps)).pixels)
        }
    }

    func testAMipmappedDrawKeepsBothItsTexturesUnderATinyBudget() throws {
        // The image and its mip atlas are two entries; the budget holds less than either, and
        // neither may be evicted by the other's upload before the draw.
        let gpu = try GPURenderer()
        gpu.images.budget = 16
        let image = Image(bitmap: pattern(64, 48, seed: 9))
        let context = GraphicsContext(pixelWidth: 20, pixelHeight: 20)
        context.draw(image, in: Rect(x: 1, y: 2, width: 15, height: 11), interpolation: .high)
        XCTAssertEqual(try gpu.render(context.displayList).pixels, try CPURenderer().render(context.displayList).pixels)
        XCTAssertEqual(gpu.images.count, 2, "both entries stay while they are the ones in use")
    }

    func testTheImageCacheStaysWithinItsBudget() throws {
        let gpu = try GPURenderer()
        let bitmaps = (0..<4).map { pattern(16, 16, seed: UInt8($0 * 40)) }
        gpu.images.budget = 2 * 16 * 16 * 4
        var evicted: [GLuint] = []
        for b in bitmaps {
            let before = Set(gpu.images.textureNames)
            _ = try gpu.render(list([b]))
            evicted += before.subtracting(gpu.images.textureNames)
            XCTAssertLessThanOrEqual(gpu.images.bytes, gpu.images.budget)
        }
        XCTAssertEqual(gpu.images.count, 2)
        XCTAssertEqual(evicted.count, 2)
        // An evicted texture is deleted. A driver may hand its name out again at once (NVIDIA's
        // does, for a later upload or a pooled surface), so a name still alive must belong to
        // something the renderer holds now.
        let held = Set(gpu.images.textureNames).union(gpu.pool.idleTextureNames)
        for name in evicted where glIsTexture(name) != GLboolean(GL_FALSE) {
            XCTAssertTrue(held.contains(name), "evicted texture \(name) still alive and held by nothing")
        }
        // The most recent ones are kept: drawing the last image again uploads nothing.
        let uploads = gpu.images.uploads
        _ = try gpu.render(list([bitmaps[3]]))
        XCTAssertEqual(gpu.images.uploads, uploads)
    }

    func testPooledSurfacesAreAllGivenBackEvenWhenARenderFails() throws {
        let gpu = try GPURenderer()
        _ = try gpu.render(try GPUTestSupport.loadScene(GPUTestSupport.examples.appendingPathComponent("layers.json")).displayList())
        XCTAssertEqual(gpu.pool.surfaceCount, gpu.pool.idleCount)
        // A layer whose shadow offset grows it beyond the GPU's texture size (its content reaches
        // from the canvas to where its shadow comes from) fails after the canvas, a layer and a
        // mask were taken.
        var list = DisplayList(width: 16, height: 16, scale: 1, background: .white)
        var far = CompositeState()
        let offset = Double(gpu.maxTextureSize)
        far.shadow = DeviceShadow(offset: Point(x: offset, y: 0), sigma: 0, color: .black)
        let triangle = DeviceShape(contours: [[Point(x: 2, y: 2), Point(x: 12, y: 2), Point(x: 7, y: 12)]], rule: .nonzero)
        let band = DeviceShape(contours: [[Point(x: -offset - 8, y: 2), Point(x: 14, y: 2), Point(x: 14, y: 12),
                                           Point(x: -offset - 8, y: 12)]], rule: .nonzero)
        list.commands = [.beginLayer(CompositeState()), .fill(triangle, .black, CompositeState()),
                         .beginLayer(far), .fill(band, .black, CompositeState()), .endLayer, .endLayer]
        XCTAssertThrowsError(try gpu.render(list)) { XCTAssertTrue($0 is BackendUnavailable, "\($0)") }
        XCTAssertEqual(gpu.pool.surfaceCount, gpu.pool.idleCount, "a failed render kept surfaces out")
        XCTAssertGreaterThan(gpu.pool.surfaceCount, 0)
    }
}
