// A cancelled render stops inside a long draw, not only between draws: one op whose shadow
// covers a large canvas takes a long time to cast, blur and composite, and a token set early in
// it ends the render in a fraction of that time, with RenderCancelled and no bitmap.
import Dispatch
import Penumbra
import PenumbraModel
import PenumbraCore
import PenumbraCPU
import XCTest

final class CPUCancellationTests: XCTestCase {
    /// One draw: a canvas-sized rectangle with a wide shadow (long to cast, blur and composite).
    private static func oneLongDraw() -> DisplayList {
        let context = GraphicsContext(pixelWidth: 480, pixelHeight: 480, scale: 1, background: Color(red: 1, green: 1, blue: 1, alpha: 1))
        context.setFillColor(Color(red: 0.2, green: 0.4, blue: 0.8, alpha: 0.5))
        context.setShadow(offset: Size(width: 10, height: 10), blur: 16, color: Color(red: 0, green: 0, blue: 0, alpha: 0.5))
        context.fill(Path(ellipseIn: Rect(x: 10, y: 10, width: 460, height: 460)))
        return context.displayList
    }

    func testACancelledRenderStopsInsideOneDraw() throws {
        let list = Self.oneLongDraw()
        XCTAssertEqual(list.commands.count, 1)
        let renderer = CPURenderer()
        let clock = ContinuousClock()
        var full = Duration.seconds(1000)
        var reference: Bitmap?
        for _ in 0..<2 {  // the faster of two, so a busy machine does not inflate it
            let start = clock.now
            let bitmap = try renderer.render(list, cancellation: RenderCancellation())
            full = min(full, clock.now - start)
            XCTAssertEqual(bitmap.width, 480)
            reference = bitmap
        }
        let token = RenderCancellation()
        let early = full / 8
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(early / .nanoseconds(1)))) { token.cancel() }
        let start = clock.now
        XCTAssertThrowsError(try renderer.render(list, cancellation: token)) { XCTAssertTrue($0 is RenderCancelled, "\($0)") }
        let stopped = clock.now - start
        XCTAssertLessThan(stopped, full * 0.6, "cancelled at \(early), stopped after \(stopped) of a \(full) render")
        // The renderer is whole afterwards: the same list renders to the same pixels as before.
        XCTAssertEqual(try renderer.render(list).pixels, reference?.pixels)
    }
}
