// GPUContextTests: the context exists (or the CI rule applies), every program
// compiles and links on it, and the renderer names its GL renderer.
import XCTest
import Penumbra
import PenumbraGPU
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
        for name in ShaderSources.fragmentPrograms {
            let source = try XCTUnwrap(ShaderSources.fragment(name))
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
    /// A render deletes every texture and framebuffer it made: afterwards only the renderer's
    /// byte lookup texture is alive on the context.
    func testARenderLeavesNoTexturesOrFramebuffersBehind() throws {
        let gpu = try GPUTestSupport.renderer()
        for name in ["layers", "decorator", "gradients"] {
            let url = GPUTestSupport.examples.appendingPathComponent("\(name).json")
            _ = try gpu.render(try GPUTestSupport.loadScene(url).displayList())
        }
        let textures = (1...4096).filter { glIsTexture(GLuint($0)) == GLboolean(GL_TRUE) }
        let framebuffers = (1...4096).filter { glIsFramebuffer(GLuint($0)) == GLboolean(GL_TRUE) }
        XCTAssertEqual(textures.count, 1, "textures alive after render: \(textures)")
        XCTAssertEqual(framebuffers.count, 0, "framebuffers alive after render: \(framebuffers)")
    }
}
