import XCTest
import PenumbraCPU
import PenumbraModel
import PenumbraCore

/// `render(_:into:)`: the pixels of `render(_:)`, in the previous frame's memory when it fits.
final class RenderIntoTests: XCTestCase {
    private func list(_ w: Int, _ h: Int, background: Color?, shift: Double) -> DisplayList {
        let context = GraphicsContext(pixelWidth: w, pixelHeight: h, scale: 1, background: background)
        var path = Path()
        path.addEllipse(in: Rect(x: 3 + shift, y: 5, width: Double(w) - 9, height: Double(h) - 12))
        context.setFillColor(Color(red: 0.2, green: 0.6, blue: 0.9, alpha: 0.8))
        context.fill(path)
        return context.displayList
    }

    private func address(_ b: Bitmap) -> UnsafeRawPointer? { b.pixels.withUnsafeBytes { $0.baseAddress } }

    func testFramesRenderedIntoOneBitmapAreTheFreshRendersAndReuseItsMemory() throws {
        let renderer = CPURenderer()
        var frame = Bitmap(width: 0, height: 0)
        var first: UnsafeRawPointer?
        for i in 0..<6 {
            // Transparent and filled backgrounds alternate: what the last frame drew must not stay.
            let l = list(300, 200, background: i % 2 == 0 ? nil : .white, shift: Double(i) * 7.5)
            try renderer.render(l, into: &frame)
            let fresh = try renderer.render(l)
            XCTAssertTrue(frame == fresh, "frame \(i) differs from a fresh render")
            if i == 0 { first = address(frame) } else { XCTAssertEqual(address(frame), first, "frame \(i) was reallocated") }
        }
        // A bitmap of another size is replaced, not written past.
        var small = Bitmap(width: 10, height: 10)
        try renderer.render(list(300, 200, background: nil, shift: 0), into: &small)
        XCTAssertEqual(small.width, 300)
        XCTAssertEqual(small.height, 200)
    }

    func testABitmapStillSharedIsNotWrittenThrough() throws {
        let renderer = CPURenderer()
        var frame = try renderer.render(list(120, 80, background: nil, shift: 0))
        let kept = frame
        try renderer.render(list(120, 80, background: .white, shift: 20), into: &frame)
        XCTAssertTrue(kept == (try renderer.render(list(120, 80, background: nil, shift: 0))), "the kept copy changed")
        XCTAssertFalse(kept == frame)
    }
}
