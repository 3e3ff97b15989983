// GPUProgramSpecialisationTests: the specialised programs (paint kind and
// blend mode compiled in as constants) give exactly the generic program's
// pixels, byte for byte, on every example and on seeded random scenes that
// use every paint, every blend mode, clips, layers and shadows.
import XCTest
import Penumbra
@testable import PenumbraGPU

final class GPUProgramSpecialisationTests: XCTestCase {
    func testSpecialisedProgramsGiveTheGenericProgramsBytes() throws {
        let specialised = try GPUTestSupport.renderer()
        let generic: GPURenderer
        do { generic = try GPURenderer(specialisesPrograms: false) } catch { throw XCTSkip("no second context: \(error)") }
        var lists: [(String, DisplayList)] = []
        // The generic programs branch on every paint and blend mode per pixel, which a software
        // rasterizer pays in full: the examples up to 300,000 pixels, and the seeded scenes, which
        // use every paint and mode.
        for url in try GPUTestSupport.exampleScenes() {
            let list = try GPUTestSupport.loadScene(url).displayList()
            if list.width * list.height <= 300_000 { lists.append((url.lastPathComponent, list)) }
        }
        for i in 0..<80 {
            var builder = FuzzSceneBuilder(seed: 0x5BEC_0000 &+ UInt64(i))
            lists.append(("fuzz \(i)", builder.build()))
        }
        for (name, list) in lists {
            let a = try specialised.render(list), b = try generic.render(list)
            XCTAssertEqual(a.pixels, b.pixels, "\(name): the specialised programs changed pixels")
        }
        XCTAssertEqual(generic.programs.count, 4, "the generic renderer compiled variants")
        XCTAssertGreaterThan(specialised.programs.count, 4, "the specialised renderer drew with the generic programs")
    }
}
