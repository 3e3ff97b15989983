// GPUCountersTests: the per-frame counters of `penumbra bench --json`'s "gpu"
// object count what the renderer hands the driver.
import Foundation
import XCTest
import Penumbra
import PenumbraGPU

final class GPUCountersTests: XCTestCase {
    func testCountersFollowTheFrame() throws {
        let gpu = try GPUTestSupport.renderer()
        var pixels = [UInt8](repeating: 0, count: 37 * 23 * 4)
        for i in pixels.indices { pixels[i] = UInt8(truncatingIfNeeded: i &* 7 | 3) }
        for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 }
        let image = Image(bitmap: Bitmap(width: 37, height: 23, pixels: pixels), scale: 1)
        let context = GraphicsContext(pixelWidth: 64, pixelHeight: 48, scale: 1, background: .white)
        context.draw(image, in: Rect(x: 3, y: 4, width: 37, height: 23))
        context.setFillColor(Color(red: 0.2, green: 0.4, blue: 0.9))
        context.fill(Path(ellipseIn: Rect(x: 10, y: 10, width: 30, height: 20)))
        let list = context.displayList

        _ = try gpu.render(list)  // sizes GPU coverage's cell buffer, which purging keeps
        gpu.purgeCaches()
        _ = try gpu.render(list)
        let first = gpu.lastFrameCounters
        _ = try gpu.render(list)
        let second = gpu.lastFrameCounters
        XCTAssertEqual(first.readbackBytes, 64 * 48 * 4)
        XCTAssertEqual(second.readbackBytes, 64 * 48 * 4)
        XCTAssertEqual(first.drawCalls, 0, "no fragment pass: coverage and composites are compute")
        XCTAssertEqual(first.dispatches, 4, "both ops' coverage in one batch (accumulate, resolve), a composite per op")
        XCTAssertEqual(first.passes, 4)
        XCTAssertEqual(first.uploadBytes - second.uploadBytes, 37 * 23 * 4, "the image is uploaded on first use only")
        XCTAssertGreaterThan(second.uploadBytes, 0, "the shapes' edges and the passes' blocks are uploaded every frame")
        XCTAssertLessThan(second.uploadBytes, 16 * 1024, "edges and blocks only: no coverage mask")
        XCTAssertGreaterThan(first.hostMilliseconds, 0)
    }
}
