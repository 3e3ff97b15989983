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

    /// Subpaths of one path: rings, open polylines (some with a cusp), lone points, one with a
    /// non-finite point.
    private func manySubpaths(seed: UInt64, count: Int) -> [FlatSubpath] {
        var rng = SplitMix64(seed: seed)
        var path = Path()
        for i in 0..<count {
            switch rng.next() % 4 {
            case 0: path.addEllipse(in: Rect(x: rng.double(in: 0...200), y: rng.double(in: 0...200),
                                             width: rng.double(in: 1...150), height: rng.double(in: 1...150)))
            case 1: path.move(to: rng.point(in: 0...300))
            default:
                path.move(to: rng.point(in: 0...300))
                for _ in 0..<Int(rng.next() % 6 + 1) { path.addLine(to: rng.point(in: 0...300)) }
                if rng.next() % 3 == 0 { path.closeSubpath() }
            }
            if i == count / 2 { path.move(to: Point(1, 1)); path.addLine(to: Point(.infinity, 3)) }
        }
        return path.flattened(tolerance: 0.1)
    }

    /// A solid stroke's subpaths outlined on several threads give the contours of one thread, in
    /// order, for every join and cap; a dashed stroke stays on one thread and gives them too.
    func testASubpathsOutlinedOnSeveralThreadsGiveOneThreadsContours() {
        for seed: UInt64 in [5, 6, 7] {
            let subpaths = manySubpaths(seed: seed, count: 60)
            XCTAssertGreaterThan(subpaths.count, 40)
            for (join, cap) in [(LineJoin.miter, LineCap.butt), (.round, .round), (.bevel, .square)] {
                var style = StrokeStyle(width: 9)
                style.join = join; style.cap = cap
                let one = Stroker.outline(subpaths, style: style, tolerance: 0.05, budget: nil, cancellation: nil)
                XCTAssertGreaterThan(one.contours.count, 60, "seed \(seed): the fixture outlines many contours")
                for threads in [2, 3, 8] {
                    let many = Stroker.outline(subpaths, style: style, tolerance: 0.05, budget: nil, cancellation: nil, threads: threads)
                    XCTAssertTrue(many.contours == one.contours && !many.overBudget, "seed \(seed), \(join), \(cap), \(threads) threads")
                }
                style.dashLengths = [7, 3]
                let dashed = Stroker.outline(subpaths, style: style, tolerance: 0.05, budget: nil, cancellation: nil)
                let dashedMany = Stroker.outline(subpaths, style: style, tolerance: 0.05, budget: nil, cancellation: nil, threads: 4)
                XCTAssertTrue(dashed.contours == dashedMany.contours, "seed \(seed): dashed")
            }
        }
    }

    /// Under a shared budget the threads' outline runs out exactly when one thread's does, and a
    /// budget that suffices is charged the same points.
    func testSeveralThreadsRunOutOfABudgetWhenOneThreadDoes() {
        let subpaths = manySubpaths(seed: 8, count: 60)
        let style = StrokeStyle(width: 6)
        let probe = GeometryBudget(limit: 1 << 24)
        let one = Stroker.outline(subpaths, style: style, tolerance: 0.05, budget: probe, cancellation: nil)
        let needed = (1 << 24) - probe.remaining
        XCTAssertFalse(one.overBudget)
        for limit in [needed, needed - 1, needed / 2] {
            let single = GeometryBudget(limit: limit), shared = GeometryBudget(limit: limit)
            let a = Stroker.outline(subpaths, style: style, tolerance: 0.05, budget: single, cancellation: nil)
            let b = Stroker.outline(subpaths, style: style, tolerance: 0.05, budget: shared, cancellation: nil, threads: 4)
            XCTAssertEqual(a.overBudget, b.overBudget, "limit \(limit)")
            XCTAssertEqual(a.overBudget, limit < needed, "limit \(limit)")
            if !a.overBudget { XCTAssertTrue(a.contours == b.contours); XCTAssertEqual(single.remaining, shared.remaining) }
        }
    }

    /// Recording one large stroke of many rings (W4's path) spreads its subpaths over the cores
    /// and records what outlining on one thread does.
    func testOneLargeStrokeRecordsWhatOneThreadOutlines() {
        var rings = Path()
        for r in stride(from: 512.0, to: 0, by: -20) { rings.addEllipse(in: Rect(x: 512 - r, y: 512 - r, width: 2 * r, height: 2 * r)) }
        let context = GraphicsContext(pixelWidth: 1024, pixelHeight: 1024)
        context.setLineWidth(10)
        context.stroke(rings)
        guard case .fill(let shape, _, _)? = context.displayList.commands.first else { return XCTFail("no stroke recorded") }
        let flat = rings.flattened(tolerance: 1.0 / 64)
        let expected = Stroker.outline(flat, style: StrokeStyle(width: 10), tolerance: 1.0 / 64)
        XCTAssertEqual(shape.contours.count, 52)
        XCTAssertTrue(shape.contours == expected, "the recorded outline is one thread's")
    }
}
