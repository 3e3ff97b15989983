// What the GPU draws for a scene to draw again (its offscreen images, its filter chains) is
// kept as an image texture, copied on the GPU from the render target (GLImageCache.adopt):
// drawing the scene uploads none of those pixels, and its bytes stay the CPU's.
import Foundation
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

    func testOffscreenImagesAndChainsDrawnOnTheGPUAreNotUploadedToDrawTheScene() throws {
        let gpu = try GPUTestSupport.renderer()
        let onCPU = try Scene.decode(scene, baseDirectory: "/nonexistent", environment: .standard)
        let cpuList = try onCPU.displayList()
        _ = try gpu.render(cpuList) // what a first frame of its kind sets up, out of the counts

        gpu.purgeCaches()
        let (adoptedBefore, uploadsBefore) = (gpu.images.adopted, gpu.images.uploads)
        let onGPU = try Scene.decode(scene, baseDirectory: "/nonexistent", environment: .standard(renderingWith: gpu))
        let keptList = try onGPU.displayList()
        XCTAssertEqual(gpu.images.adopted - adoptedBefore, 2, "the badge and the chain, copied on the GPU")
        let kept = try gpu.render(keptList)
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

    /// The first frame of each Example that draws offscreen images or filter chains: kept on the
    /// GPU it uploads less than with its images drawn by the CPU, and the same bytes.
    func testExamplesFirstFramesUploadLessWithTheirImagesKept() throws {
        let gpu = try GPUTestSupport.renderer()
        for name in GPUTestSupport.examplesDrawingImages {
            let (onCPU, onGPU) = try GPUTestSupport.exampleDecodedForBoth(name, gpu: gpu)
            let cpuList = try onCPU.displayList()
            _ = try gpu.render(cpuList)
            gpu.purgeCaches()
            let keptList = try onGPU.displayList()
            let kept = try gpu.render(keptList)
            let keptUploads = gpu.lastFrameCounters.uploadBytes
            gpu.purgeCaches()
            let uploaded = try gpu.render(cpuList)
            let allUploads = gpu.lastFrameCounters.uploadBytes
            print("kept images \(name): first frame uploads \(keptUploads) B kept, \(allUploads) B drawn by the CPU")
            XCTAssertLessThan(keptUploads, allUploads, name)
            XCTAssertTrue(kept == uploaded, name)
        }
    }
}
