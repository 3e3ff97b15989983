// What the GPU draws for a scene to draw again (its offscreen images, its filter chains) is
// kept on the GPU as the texture the scene draws it from (GLKeptImages.swift): drawing the scene
// reads none of those pixels back and uploads none of them, and its bytes stay the CPU's. Their
// pixels, asked for anyway, are read back on the renderer's thread between frames, and made by
// the CPU reference renderer anywhere else: the same bytes either way.
import Foundation
import Synchronization
import XCTest
import Penumbra
@testable import PenumbraModel
@testable import PenumbraCore
import PenumbraCPU
@testable import PenumbraGPU

final class KeptImageTests: XCTestCase {
    private let scene = """
        {"format": "penumbra-scene", "version": 1, "size": [120, 80], "scale": 2, "background": "#F4F0E8",
         "images": {"badge": {"size": [30, 20], "ops": [{"op": "setFillColor", "color": "#E0402080"},
                                                       {"op": "fill", "path": {"ellipse": [2, 2, 26, 16]}},
                                                       {"op": "setFillColor", "color": "#2050C0"},
                                                       {"op": "fill", "path": {"rect": [4, 4, 8, 8]}}]},
                    "tinted": {"input": "badge", "filters": [{"filter": "colorControls", "saturation": 0.3, "contrast": 1.2}]}},
         "ops": [{"op": "drawImage", "image": "badge", "at": [4, 4]},
                 {"op": "drawImage", "image": "tinted", "at": [50, 30]}]}
        """

    func testOffscreenImagesAndChainsDrawnOnTheGPUAreNeitherReadBackNorUploaded() throws {
        let gpu = try GPUTestSupport.renderer()
        let onCPU = try Scene.decode(scene, baseDirectory: "/nonexistent", environment: .standard)
        let cpuList = try onCPU.displayList()
        _ = try gpu.render(cpuList) // what a first frame of its kind sets up, out of the counts

        gpu.purgeCaches()
        let (keptBefore, readBefore, uploadsBefore) = (gpu.images.kept.kept, gpu.images.kept.readBackBytes, gpu.images.uploads)
        let onGPU = try Scene.decode(scene, baseDirectory: "/nonexistent", environment: .standard(renderingWith: gpu))
        let keptList = try onGPU.displayList()
        // The chain's passes, the last GPU work of the lowering, take the badge from the texture
        // its readback was adopted as: they upload less than its 60 x 40 pixels.
        XCTAssertLessThan(gpu.lastFrameCounters.uploadBytes, 60 * 40 * 4, "the chain's source copied on the GPU")
        XCTAssertEqual(gpu.images.kept.kept - keptBefore, 2, "the badge and the chain, kept on the GPU")
        // The chain reads the badge as its input: the one readback, on this thread, adopted by
        // content so that the chain's passes upload nothing.
        XCTAssertEqual(gpu.images.kept.readBackBytes - readBefore, 60 * 40 * 4, "the badge, read back for the chain")
        let (drawsBefore, readBeforeFrame) = (gpu.images.kept.draws, gpu.images.kept.readBackBytes)
        let kept = try gpu.render(keptList)
        XCTAssertEqual(gpu.images.kept.draws - drawsBefore, 2, "both drawn from their kept textures")
        XCTAssertEqual(gpu.images.kept.readBackBytes, readBeforeFrame, "the frame reads no kept image back")
        XCTAssertEqual(gpu.lastFrameCounters.readbackBytes, 240 * 160 * 4, "the frame reads back the canvas alone")
        let keptUploads = gpu.lastFrameCounters.uploadBytes
        XCTAssertEqual(gpu.images.uploads, uploadsBefore)

        // The same scene with its images drawn by the CPU: the GPU uploads both, 60 x 40 pixels each.
        gpu.purgeCaches()
        let uploaded = try gpu.render(cpuList)
        let allUploads = gpu.lastFrameCounters.uploadBytes
        XCTAssertEqual(allUploads - keptUploads, 2 * 60 * 40 * 4, "kept \(keptUploads) B, uploaded \(allUploads) B")

        let reference = try CPURenderer().render(cpuList)
        XCTAssertTrue(kept == reference, "the kept textures' bytes are the CPU's")
        XCTAssertTrue(uploaded == reference)
        let other = scene.replacingOccurrences(of: "\"saturation\": 0.3", with: "\"saturation\": 0.9")
        XCTAssertFalse(try CPURenderer().render(Scene.decode(other, baseDirectory: "/nonexistent", environment: .standard).displayList())
                       == kept, "the comparison sees the chain")
    }

    /// A kept image's pixels, asked for on another thread, are made by the CPU reference renderer;
    /// on the renderer's thread they are read back from the texture: both are the CPU's bytes.
    /// After `purgeCaches` (which deletes the kept textures) the scene still draws its bytes.
    func testAKeptImagesPixelsAreTheCPUsWhereverTheyAreAskedFor() throws {
        let gpu = try GPUTestSupport.renderer()
        let onCPU = try Scene.decode(scene, baseDirectory: "/nonexistent", environment: .standard)
        let reference = try CPURenderer().render(onCPU.displayList())
        let expected = try XCTUnwrap(onCPU.images["tinted"]).bitmap
        let expectedBadge = try XCTUnwrap(onCPU.images["badge"]).bitmap

        // Elsewhere: a thread the GPU's context is not current on.
        let elsewhere = try Scene.decode(scene, baseDirectory: "/nonexistent", environment: .standard(renderingWith: gpu))
        _ = try elsewhere.displayList()
        let readBefore = gpu.images.kept.readBacks
        let tinted = try XCTUnwrap(elsewhere.images["tinted"])
        guard case .deferred(let deferred) = tinted.pixels else { return XCTFail("the chain's pixels are deferred") }
        XCTAssertNotNil(deferred.kept as? GLKeptImage, "kept on the GPU")
        let made = Mutex<Bitmap?>(nil)
        let thread = Thread { made.withLock { $0 = tinted.bitmap } }
        thread.start()
        while made.withLock({ $0 == nil }) { usleep(1000) }
        XCTAssertEqual(gpu.images.kept.readBacks, readBefore, "nothing read back off the renderer's thread")
        XCTAssertTrue(made.withLock { $0 } == expected, "the CPU's twin made the chain's bytes")

        // Here: the renderer's thread, between frames.
        let here = try Scene.decode(scene, baseDirectory: "/nonexistent", environment: .standard(renderingWith: gpu))
        let list = try here.displayList()
        let badgeBefore = gpu.images.kept.readBacks
        XCTAssertTrue(try XCTUnwrap(here.images["tinted"]).bitmap == expected, "read back on the renderer's thread")
        XCTAssertEqual(gpu.images.kept.readBacks, badgeBefore + 1)
        XCTAssertTrue(try XCTUnwrap(here.images["badge"]).bitmap == expectedBadge)

        // Its textures deleted, the scene draws its images from their pixels.
        let purged = try Scene.decode(scene, baseDirectory: "/nonexistent", environment: .standard(renderingWith: gpu))
        let purgedList = try purged.displayList()
        gpu.purgeCaches()
        XCTAssertTrue(try gpu.render(purgedList) == reference, "drawn from their pixels once the textures are gone")
        XCTAssertTrue(try gpu.render(list) == reference)
        XCTAssertFalse(expected == expectedBadge, "the comparison sees the chain's filter")
    }

    /// A kept texture lives as long as its image: once the scene holding it is gone, the next
    /// render deletes it.
    func testAKeptTextureIsDeletedAfterItsImageIsGone() throws {
        let gpu = try GPUTestSupport.renderer()
        _ = try gpu.render(DisplayList(width: 4, height: 4, scale: 1, background: nil)) // collects what earlier tests left
        let before = gpu.images.kept.count
        do {
            let decoded = try Scene.decode(scene, baseDirectory: "/nonexistent", environment: .standard(renderingWith: gpu))
            let list = try decoded.displayList()
            XCTAssertEqual(gpu.images.kept.count, before + 2, "the badge and the chain")
            _ = try gpu.render(list)
            XCTAssertEqual(gpu.images.kept.count, before + 2, "alive while the scene and its list are")
        }
        _ = try gpu.render(DisplayList(width: 4, height: 4, scale: 1, background: nil))
        XCTAssertEqual(gpu.images.kept.count, before, "deleted at the next render")
    }

    /// A mipmapped draw of a kept image samples a mip atlas the CPU builds from its pixels: the
    /// frame reads the image back before it plans (on the renderer's thread), and draws the
    /// CPU's bytes.
    func testAMipmappedDrawOfAKeptImageReadsItBackBeforeTheFrame() throws {
        let shrunk = """
            {"format": "penumbra-scene", "version": 1, "size": [40, 30], "background": "#FFFFFF",
             "images": {"stripes": {"size": [64, 64], "ops": [{"op": "setFillColor", "color": "#2050C0"},
                                                             {"op": "fill", "path": {"rect": [0, 0, 64, 8]}},
                                                             {"op": "fill", "path": {"rect": [0, 16, 64, 8]}},
                                                             {"op": "fill", "path": {"rect": [0, 32, 64, 8]}},
                                                             {"op": "fill", "path": {"rect": [0, 48, 64, 8]}}]}},
             "ops": [{"op": "drawImage", "image": "stripes", "rect": [2, 2, 12, 12]}]}
            """
        let gpu = try GPUTestSupport.renderer()
        let reference = try CPURenderer().render(Scene.decode(shrunk, baseDirectory: "/nonexistent", environment: .standard).displayList())
        let onGPU = try Scene.decode(shrunk, baseDirectory: "/nonexistent", environment: .standard(renderingWith: gpu))
        let list = try onGPU.displayList()
        guard case .image(let draw, _) = list.commands.first(where: { if case .image = $0 { true } else { false } }) else {
            return XCTFail("the list draws the image")
        }
        XCTAssertNotNil(ImageSamplingPlan(draw).mipmaps, "a draw at a fifth of the size samples mip levels")
        let (readBefore, drawsBefore) = (gpu.images.kept.readBacks, gpu.images.kept.draws)
        let drawn = try gpu.render(list)
        XCTAssertEqual(gpu.images.kept.readBacks, readBefore + 1, "read back before the frame")
        XCTAssertEqual(gpu.images.kept.draws, drawsBefore, "sampled with its atlas, from its pixels")
        XCTAssertTrue(drawn == reference)
    }

    /// The first frame of each Example that draws offscreen images or filter chains: kept on the
    /// GPU it uploads less than with its images drawn by the CPU, and the same bytes; and of the
    /// images the GPU draws for the scene, only those a chain reads as its input, or a draw
    /// samples mip levels of, are read back.
    func testExamplesFirstFramesUploadLessWithTheirImagesKept() throws {
        let gpu = try GPUTestSupport.renderer()
        var (allRead, allDrawn) = (0, 0)
        for name in GPUTestSupport.examplesDrawingImages {
            let (onCPU, onGPU) = try GPUTestSupport.exampleDecodedForBoth(name, gpu: gpu)
            let cpuList = try onCPU.displayList()
            _ = try gpu.render(cpuList)
            gpu.purgeCaches()
            let (readBefore, copiedBefore) = (gpu.images.kept.readBackBytes, gpu.images.sourceCopyBytes)
            let keptList = try onGPU.displayList()
            let copied = gpu.images.sourceCopyBytes - copiedBefore
            let kept = try gpu.render(keptList)
            let keptUploads = gpu.lastFrameCounters.uploadBytes
            let read = gpu.images.kept.readBackBytes - readBefore
            let drawn = onGPU.deferredImages.pending.reduce(0) { $0 + $1.width * $1.height * 4 }
            gpu.purgeCaches()
            let uploaded = try gpu.render(cpuList)
            let allUploads = gpu.lastFrameCounters.uploadBytes
            print("kept images \(name): first frame uploads \(keptUploads) B kept, \(allUploads) B drawn by the CPU; "
                  + "\(onGPU.deferredImages.pending.count) images drawn by the GPU, \(drawn) B, \(read) B of them read back, "
                  + "\(copied) B of chain sources copied on the GPU")
            XCTAssertLessThan(keptUploads, allUploads, name)
            XCTAssertLessThanOrEqual(read, drawn, name)
            XCTAssertTrue(kept == uploaded, name)
            (allRead, allDrawn) = (allRead + read, allDrawn + drawn)
        }
        XCTAssertLessThan(allRead, allDrawn, "images drawn for a scene are drawn from the GPU, not read back")
    }
}
