// ExampleParityTests: every Examples/*.json scene on the CPU and the GPU,
// checked against the parity contract, with the figures printed.
import XCTest
import Penumbra
import PenumbraGPU

final class ExampleParityTests: XCTestCase {
    func testEveryExampleMeetsTheParityContract() throws {
        let gpu = try GPUTestSupport.renderer()
        let scenes = try GPUTestSupport.exampleScenes()
        XCTAssertFalse(scenes.isEmpty)
        for url in scenes {
            let list = try GPUTestSupport.loadScene(url).displayList()
            try GPUTestSupport.assertParity(list, name: url.deletingPathExtension().lastPathComponent, gpu: gpu)
        }
    }
}
