// BackendChoiceTests: `auto` takes a hardware GPU only (SCENE_FORMAT.md,
// Command line); a software rasterizer runs only when `gpu` is asked for.
import Foundation
import XCTest
@testable import Penumbra
import PenumbraCPU
import PenumbraGPU

final class BackendChoiceTests: XCTestCase {
    func testSoftwareRasterizersAreRecognisedByName() {
        for name in ["llvmpipe (LLVM 15.0.6, 256 bits)", "softpipe", "SwiftShader Device (Subzero)", "Software Rasterizer"] {
            XCTAssertTrue(GPURenderer.isSoftware(name), name)
        }
        for name in ["NVIDIA H100 80GB HBM3/PCIe/SSE2", "AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 15.0.6)",
                     "Mesa Intel(R) UHD Graphics 630 (CFL GT2)"] {
            XCTAssertFalse(GPURenderer.isSoftware(name), name)
        }
    }

    /// On a machine whose only GL is a software rasterizer (CI's llvmpipe), `auto` renders on the
    /// CPU and says why, while `gpu` still renders on that rasterizer.
    func testAutoTakesAHardwareGPUOnly() throws {
        let probed = try? GPURenderer.probeRendererString()
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            XCTAssertNotNil(probed, "CI has llvmpipe: an EGL context must be made")
        }
        let choice = try Backend.auto.makeRenderer()
        if let probed, !GPURenderer.isSoftware(probed) {
            XCTAssertTrue(choice.renderer is AutoRenderer, "a hardware GPU (\(probed)) is taken")
        } else {
            XCTAssertTrue(choice.renderer is CPURenderer)
            let note = try XCTUnwrap(choice.note)
            XCTAssertTrue(note.hasPrefix("auto: rendering on the CPU"), note)
            if !Backend.hasGPUDeviceNode {
                XCTAssertTrue(note.contains("no GPU device"), note)
            } else if let probed {
                XCTAssertTrue(note.contains(probed), note)
            }
        }
        if let probed, GPURenderer.isSoftware(probed) {
            let gpu = try Backend.gpu.makeRenderer().renderer
            XCTAssertEqual((gpu as? GPURenderer)?.name, probed, "--backend gpu runs on the software rasterizer")
        }
    }
}
