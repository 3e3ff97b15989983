// GPUPendingFrameTests: submitted renders read back through pixel-pack
// buffers give exactly what `render` gives, finished in order or not, and a
// pending frame dropped unfinished leaks nothing.
import XCTest
import Penumbra
@testable import PenumbraGPU

final class GPUPendingFrameTests: XCTestCase {
    func examples() throws -> [DisplayList] {
        try ["star", "gradients", "layers", "template"].map {
            try GPUTestSupport.loadScene(GPUTestSupport.examples.appendingPathComponent("\($0).json")).displayList()
        }
    }

    func testSubmittedFramesGiveTheSameBitmapsAsRender() throws {
        let gpu = try GPUTestSupport.renderer()
        let lists = try examples()
        let expected = try lists.map { try gpu.render($0) }
        let pending = try lists.map { try gpu.submit($0) }
        // Finish out of order: the last first, then the rest.
        let last = try pending[3].bitmap()
        let rest = try pending[0..<3].map { try $0.bitmap() }
        for (i, b) in (rest + [last]).enumerated() {
            XCTAssertEqual(b.width, expected[i].width)
            XCTAssertEqual(b.pixels, expected[i].pixels, "frame \(i) differs from render()")
        }
        XCTAssertThrowsError(try pending[0].bitmap(), "a frame's bitmap was taken twice")
    }

    func testADroppedPendingFrameLeaksNoBuffer() throws {
        let gpu = try GPURenderer()
        let lists = try examples()
        _ = try gpu.render(lists[0])
        let settled = gpu.readbacks.count
        for _ in 0..<3 { _ = try gpu.submit(lists[1]) }   // dropped unfinished
        _ = try gpu.render(lists[0])
        XCTAssertEqual(gpu.readbacks.count, settled, "abandoned readback buffers were not deleted")
    }
}
