// GPUContextTests: the context exists (or the CI rule applies), every program
// compiles and links on it, and the renderer names its GL renderer.
import XCTest
import Penumbra
@testable import PenumbraGPU
import PenumbraShaders

final class GPUContextTests: XCTestCase {
    func testEveryProgramCompilesAndLinks() throws {
        let gpu = try GPUTestSupport.renderer()
        print("GL_RENDERER: \(gpu.rendererString); GL_VERSION: \(gpu.versionString); platform \(gpu.platform)")
        XCTAssertEqual(gpu.programNames().sorted(), ShaderSources.fragmentPrograms.sorted())
        XCTAssertEqual(gpu.name, gpu.rendererString)
        XCTAssertFalse(gpu.rendererString.isEmpty)
        XCTAssertTrue(gpu.versionString.contains("OpenGL ES 3"), gpu.versionString)
    }

    func testSnippetsAreIncludedAndVersionComesFirst() throws {
        let sources = try ShaderSources.fragmentPrograms.map { ($0, try XCTUnwrap(ShaderSources.fragment($0))) }
            + ShaderSources.computePrograms.map { ($0, try XCTUnwrap(ShaderSources.compute($0))) }
        for (name, source) in sources {
            XCTAssertTrue(source.hasPrefix("#version 320 es"), name)
            XCTAssertFalse(source.contains("//! include"), name)
            XCTAssertFalse(source.contains("#error missing snippet"), name)
        }
    }

    func testCanvasLargerThanTheTextureLimitIsUnavailable() throws {
        let gpu = try GPUTestSupport.renderer()
        let list = DisplayList(width: gpu.maxTextureSize + 1, height: 1, scale: 1, background: nil)
        XCTAssertThrowsError(try gpu.render(list)) { XCTAssertTrue($0 is BackendUnavailable, "\($0)") }
    }
}

import CEGL

final class GPUResourceHygieneTests: XCTestCase {
    func liveObjects() -> (textures: [Int], framebuffers: [Int]) {
        ((1...4096).filter { glIsTexture(GLuint($0)) == GLboolean(GL_TRUE) },
         (1...4096).filter { glIsFramebuffer(GLuint($0)) == GLboolean(GL_TRUE) })
    }

    /// Renders keep textures and framebuffers for reuse, but the same renders again make none
    /// new, and `purgeCaches` leaves only the renderer's byte lookup texture alive.
    func testRendersDoNotGrowTheLiveTexturesAndPurgingFreesThem() throws {
        let gpu = try GPURenderer()
        let lists = try ["layers", "decorator", "gradients", "mars-halves"].map {
            try GPUTestSupport.loadScene(GPUTestSupport.examples.appendingPathComponent("\($0).json")).displayList()
        }
        for list in lists { _ = try gpu.render(list) }
        let warm = liveObjects()
        XCTAssertGreaterThan(warm.textures.count, 1, "nothing was kept for reuse")
        for _ in 0..<2 { for list in lists { _ = try gpu.render(list) } }
        let again = liveObjects()
        XCTAssertEqual(again.textures, warm.textures, "textures grew across renders")
        XCTAssertEqual(again.framebuffers, warm.framebuffers, "framebuffers grew across renders")
        XCTAssertEqual(warm.textures.count, 1 + gpu.pool.surfaceCount + gpu.images.count)
        XCTAssertEqual(gpu.pool.surfaceCount, gpu.pool.idleCount, "surfaces still out after the render")

        gpu.purgeCaches()
        let purged = liveObjects()
        XCTAssertEqual(purged.textures.count, 1, "textures alive after purgeCaches: \(purged.textures)")
        XCTAssertEqual(purged.framebuffers.count, 0, "framebuffers alive after purgeCaches: \(purged.framebuffers)")
    }
}
