import XCTest
import PenumbraTestSupport
@testable import PenumbraModel
@testable import PenumbraCore

/// Strokes are outlined when the list is read, all at once on every core: the list must be the
/// one outlining each stroke as it is recorded gives (same shapes, same order, empty ones dropped).
final class DeferredStrokeTests: XCTestCase {
    /// Records strokes (some of which outline to nothing), fills and layers; `readEach` reads the
    /// list after every call, which outlines each stroke on its own, as recording used to.
    private func record(seed: UInt64, readEach: Bool) -> [DrawCommand] {
        let context = GraphicsContext(pixelWidth: 300, pixelHeight: 300)
        var rng = SplitMix64(seed: seed)
        for i in 0..<80 {
            var path = Path()
            switch rng.next() % 4 {
            case 0: path.move(to: rng.point(in: 0...300))  // a lone point: nothing to stroke with butt caps
            case 1: path.addEllipse(in: Rect(x: rng.double(in: 0...200), y: rng.double(in: 0...200),
                                             width: rng.double(in: 1...90), height: rng.double(in: 1...90)))
            default:
                path.move(to: rng.point(in: 0...300))
                for _ in 0..<Int(rng.next() % 5 + 1) { path.addLine(to: rng.point(in: 0...300)) }
            }
            context.setLineWidth(rng.double(in: 0.5...14))
            context.setLineCap(rng.next() % 3 == 0 ? .round : .butt)
            context.setStrokeColor(Color(red: Double(i) / 80, green: 0.5, blue: 0))
            if rng.next() % 5 == 0 { context.rotate(by: 0.05) }
            context.stroke(path)
            if rng.next() % 7 == 0 { context.fill(path) }
            if rng.next() % 11 == 0 { context.beginTransparencyLayer() }
            if rng.next() % 13 == 0 { context.endTransparencyLayer() }
            if readEach { _ = context.commandCount }
        }
        return context.displayList.commands
    }

    func testOutliningAtReadEqualsOutliningEachStrokeAsRecorded() {
        for seed: UInt64 in [1, 2, 3, 0x57_0CE] {
            let once = record(seed: seed, readEach: false), each = record(seed: seed, readEach: true)
            XCTAssertEqual(once, each, "seed \(seed)")
            let strokes = once.filter { if case .fill = $0 { return true } else { return false } }.count
            XCTAssertGreaterThan(strokes, 40, "seed \(seed): the fixture records many shapes")
            XCTAssertLessThan(strokes, 80 + 80 / 7 + 1, "seed \(seed): lone points stroke to nothing and are dropped")
        }
    }

    func testStrokesThatCoverNothingLeaveNoCommand() {
        let context = GraphicsContext(pixelWidth: 50, pixelHeight: 50)
        var point = Path(); point.move(to: Point(10, 10))
        var line = Path(); line.move(to: Point(5, 5)); line.addLine(to: Point(40, 5))
        context.stroke(point); context.stroke(line); context.stroke(point)
        XCTAssertEqual(context.commandCount, 1)
        guard case .fill(let shape, _, _)? = context.displayList.commands.first else { return XCTFail("no stroke recorded") }
        XCTAssertEqual(shape.bounds.map { $0.minX }, 5)
    }
}
