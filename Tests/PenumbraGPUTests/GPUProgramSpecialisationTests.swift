// GPUProgramSpecialisationTests: the specialised programs (paint kind and
// blend mode compiled in as constants) give the CPU renderer's bytes on every
// small example and on seeded random scenes that use every paint, every blend
// mode, clips, layers and shadows, and the renderer really draws with them.
//
// It used to compare against the generic programs (every paint and mode
// behind uniforms); with the integer arithmetic both must equal the CPU byte
// for byte, which is the stronger check, and the generic composite program
// (all 28 modes, all paints, 64-bit sampling) costs llvmpipe's JIT minutes to
// compile.
import XCTest
import Penumbra
import PenumbraCPU
@testable import PenumbraGPU

final class GPUProgramSpecialisationTests: XCTestCase {
    func testSpecialisedProgramsGiveTheCPUsBytes() throws {
        let specialised = try GPUTestSupport.renderer()
        var lists: [(String, DisplayList)] = []
        for url in try GPUTestSupport.exampleScenes() {
            let list = try GPUTestSupport.loadScene(url).displayList()
            if list.width * list.height <= 300_000 { lists.append((url.lastPathComponent, list)) }
        }
        for i in 0..<80 {
            var builder = FuzzSceneBuilder(seed: 0x5BEC_0000 &+ UInt64(i))
            lists.append(("fuzz \(i)", builder.build()))
        }
        let cpu = CPURenderer()
        for (name, list) in lists {
            let diff = try XCTUnwrap(ImageDifference(try cpu.render(list), try specialised.render(list)))
            XCTAssertTrue(diff.isExact, "\(name): the specialised programs differ from the CPU: \(diff)")
        }
        XCTAssertGreaterThan(specialised.programs.count, 4, "the specialised renderer drew with the generic programs")
    }
}
