import Foundation
import Dispatch
import Synchronization
import XCTest
@testable import PenumbraModel
@testable import PenumbraCore
@testable import PenumbraCPU

/// The planner walks draws in renderer order; PlanAhead hands out the same plans from another thread.
final class DrawPlannerTests: XCTestCase {
    /// Many shapes, a clip, shadows, nested layers and one layer left open at the end.
    private func list() throws -> DisplayList {
        var ops: [String] = [#"{"op": "setShadow", "offset": [4, 6], "blur": 6, "color": [0, 0, 0, 0.5]}"#]
        for i in 0..<12 {
            ops.append(#"{"op": "fill", "path": {"ellipse": [\#(i * 7), \#(i * 5), 40, 30]}}"#)
        }
        ops += [#"{"op": "save"}"#, #"{"op": "clip", "path": {"rect": [10, 10, 80, 60]}}"#,
                #"{"op": "setAlpha", "alpha": 0.5}"#, #"{"op": "beginLayer"}"#, #"{"op": "fill", "path": {"rect": [0, 0, 200, 200]}}"#,
                #"{"op": "beginLayer"}"#, #"{"op": "stroke", "path": {"ellipse": [20, 20, 50, 50]}}"#,
                #"{"op": "endLayer"}"#, #"{"op": "endLayer"}"#, #"{"op": "restore"}"#]
        let json = #"{"format": "penumbra-scene", "version": 1, "size": [120, 90], "ops": [\#(ops.joined(separator: ","))]}"#
        var list = try Scene.decode(Array(json.utf8), baseDirectory: "/nonexistent").displayList()
        // Scenes close their layers; a display list built in code may leave the last one open.
        guard case .fill(let shape, let color, var state) = list.commands[1] else { throw RenderError("unexpected fixture: the second command is not a fill") }
        state.shadow = nil
        list.commands += [.beginLayer(state), .fill(shape, color, state)]
        return list
    }

    private static func summary(_ draw: PlannedDraw) -> [String] {
        func mask(_ m: CoverageMask?) -> String { m.map { "\($0.region) \($0.denseValues().hashValue)" } ?? "-" }
        return [mask(draw.clip?.mask), draw.op.map { "\($0.region) \(mask($0.coverage))" } ?? "-",
                draw.shadow.map { "\($0.plane) \($0.compositeRegion) \(mask($0.casterCoverage))" } ?? "-"]
    }

    /// Every draw of `list` planned on this thread, in order.
    private static func inlinePlans(_ list: DisplayList) -> [[String]] {
        let planner = DrawPlanner(list, form: .masks)
        return DrawSequence.draws(of: list).map { summary(planner.plan($0)) }
    }

    func testOneDrawPerDrawingCommandAndLayerEnd() throws {
        let list = try list()
        let count = DrawSequence.draws(of: list).count
        let draws = list.commands.filter { if case .beginLayer = $0 { return false } else { return true } }.count
        let layers = list.commands.filter { if case .beginLayer = $0 { return true } else { return false } }.count
        let ends = list.commands.filter { if case .endLayer = $0 { return true } else { return false } }.count
        XCTAssertEqual(layers - ends, 1, "the fixture leaves one layer open")
        XCTAssertEqual(count, draws + 1, "every drawing command, every endLayer, and the layer left open")
        var stream = DrawStream(list, form: .masks)
        XCTAssertEqual(stream.count, count + layers, "a step per draw and per layer's beginning")
        var steps = 0
        while stream.next() != nil { steps += 1 }
        XCTAssertEqual(steps, stream.count)
        XCTAssertNil(stream.next(), "stays at the end")
    }

    private static func describe(_ step: DrawStep) -> String {
        func draw(_ d: LoweredDraw) -> String {
            let op = d.op.map { "\($0.region) \($0.coverage?.denseValues().hashValue ?? 0)" } ?? "-"
            return "\(op) clip \(d.clip?.index ?? -1) shadow \(d.shadow.map { "\($0.plan.compositeRegion)" } ?? "-") \(d.alpha8) \(d.mode)"
        }
        switch step {
        case .beginLayer(let frame): return "begin \(frame)"
        case .draw(let d): return "draw " + draw(d)
        case .endLayer(let d): return "end " + draw(d)
        case .blurBackdrop(_, let bounds, let d): return "blur \(bounds) " + draw(d)
        case .maskBackdrop(_, let d): return "mask " + draw(d)
        }
    }

    /// Looking ahead (as the GPU does to batch coverage) lowers steps early and keeps them: a
    /// stream peeked at every distance returns the steps of one never peeked at, in order, and
    /// each peek shows the step `next()` later returns there.
    func testPeekingAheadKeepsTheStepsAndTheirOrder() throws {
        let list = try list()
        var plain = DrawStream(list, form: .masks)
        var expected: [String] = []
        while let step = plain.next() { expected.append(Self.describe(step)) }
        XCTAssertGreaterThan(expected.count, 12)
        var peeking = DrawStream(list, form: .masks)
        var taken: [String] = []
        for turn in 0... {
            let distance = turn % 5
            let index = peeking.position + distance
            XCTAssertEqual(peeking.peek(distance).map(Self.describe), index < expected.count ? expected[index] : nil, "step \(index)")
            guard let step = peeking.next() else { break }
            taken.append(Self.describe(step))
        }
        XCTAssertEqual(taken, expected)
        XCTAssertEqual(peeking.position, peeking.count)
    }

    /// A layer ended as a backdrop mask: its frame has no shadow margin (the shadow of its
    /// beginning does not apply), its draw writes with `copy` at alpha 1 through the clip of its
    /// beginning alone, its op is cut to the layer's frame and its paint is placed there; the
    /// render budget counts the layer as popped after it.
    func testALayerEndedAsABackdropMask() throws {
        let context = GraphicsContext(pixelWidth: 100, pixelHeight: 80)
        context.clip(to: Path(rect: Rect(x: 5, y: 5, width: 60, height: 50)))
        context.setAlpha(0.5)
        context.setBlendMode(.multiply)
        context.setShadow(offset: Size(width: 30, height: 30), blur: 10)
        context.beginTransparencyLayer()
        context.fill(Path(rect: Rect(x: 20, y: 10, width: 30, height: 20)))
        let filter = BackdropMaskFilter(saturation: 1.6, brightness: 0.25)
        context.endTransparencyLayer(maskingBackdropWith: filter)
        XCTAssertEqual(context.state.alpha, 0.5)
        XCTAssertEqual(context.openLayerCount, 0)
        let list = context.displayList
        guard case .endLayerMaskingBackdrop(filter) = list.commands.last else { return XCTFail("\(list.commands)") }

        let layerFrame = PixelRect(x: 19, y: 9, width: 32, height: 22)  // the fill grown by 1, no shadow margin
        let steps = Array(DrawSequence(list))
        XCTAssertEqual(steps.count, 3)
        guard case .beginLayer(let frame) = steps[0] else { return XCTFail("\(steps[0])") }
        XCTAssertEqual(frame, layerFrame)
        guard case .draw(let input, .backdropMask(let f, let layer)) = steps[2] else { return XCTFail("\(steps[2])") }
        XCTAssertEqual(f, filter)
        XCTAssertEqual(layer, layerFrame)
        XCTAssertEqual(input.state, CompositeState(alpha: 1, blendMode: .copy, shadow: nil, clip: 0))
        XCTAssertEqual(input.frame, PixelRect(x: 0, y: 0, width: 100, height: 80))

        var stream = DrawStream(list, form: .masks)
        _ = stream.next(); _ = stream.next()
        guard case .maskBackdrop(let replacement, let draw) = stream.next() else { return XCTFail("the third step is the mask") }
        // The filter over the target (a stand-in for its pixels), lowered for the op's region.
        XCTAssertEqual(replacement?.region, layerFrame)
        XCTAssertEqual(replacement?.passes.map { "\($0.operation)".prefix { $0 != "(" } }, ["input", "color"])
        XCTAssertEqual(draw.op?.region, layerFrame)
        XCTAssertNil(draw.op?.coverage)
        XCTAssertNil(draw.shadow)
        XCTAssertEqual(draw.alpha8, 255)
        XCTAssertEqual(draw.mode, .copy)
        XCTAssertEqual(draw.clip?.index, 0)
        guard case .placed(let placed) = draw.paint else { return XCTFail("\(draw.paint)") }
        XCTAssertEqual(placed.frame, layerFrame)
        XCTAssertNil(stream.next())

        // The clip cuts the op's region: a layer partly outside it.
        let cut = GraphicsContext(pixelWidth: 100, pixelHeight: 80)
        cut.clip(to: Path(rect: Rect(x: 30, y: 0, width: 70, height: 80)))
        cut.beginTransparencyLayer()
        cut.fill(Path(rect: Rect(x: 20, y: 10, width: 30, height: 20)))
        cut.endTransparencyLayer(maskingBackdropWith: filter)
        var cutStream = DrawStream(cut.displayList, form: .masks)
        _ = cutStream.next(); _ = cutStream.next()
        guard case .maskBackdrop(_, let cutDraw) = cutStream.next() else { return XCTFail("the third step is the mask") }
        XCTAssertEqual(cutDraw.op?.region, PixelRect(x: 30, y: 9, width: 21, height: 22))  // the layer's frame from x 30

        // The budget pops the layer at the mask: a second layer of the same size fits again.
        let twice = GraphicsContext(pixelWidth: 100, pixelHeight: 80)
        for _ in 0..<2 {
            twice.beginTransparencyLayer()
            twice.fill(Path(rect: Rect(x: 0, y: 0, width: 100, height: 80)))
            twice.endTransparencyLayer(maskingBackdropWith: filter)
        }
        var limits = ResourceLimits.default
        limits.maxRenderBytes = 100 * 80 * 4 * 2 + 100 * 80 * 12
        XCTAssertNoThrow(try RenderBudget(limits: limits, imageBytes: 0).check(twice.displayList) { "ops[\($0)]" })
        limits.maxRenderBytes = 100 * 80 * 4 * 2 + 100 * 80 * 2
        XCTAssertThrowsError(try RenderBudget(limits: limits, imageBytes: 0).check(twice.displayList) { "ops[\($0)]" })
    }

    /// A pool whose only thread is held by another job: the consumer plans every draw itself, and
    /// dropping the PlanAhead withdraws its queued jobs instead of waiting for them.
    func testABusyPoolNeitherStallsNorHoldsARender() throws {
        let list = try list()
        let expected = Self.inlinePlans(list)
        let pool = PlanningPool(threads: 1)
        let release = DispatchSemaphore(value: 0), holding = DispatchSemaphore(value: 0)
        _ = pool.submit { holding.signal(); release.wait() }
        holding.wait()
        do {
            let ahead = PlanAhead(list, depth: 4, workers: 3, form: .masks, pool: pool)
            var actual: [[String]] = []
            while let draw = ahead.next() { actual.append(Self.summary(draw)) }
            XCTAssertEqual(actual, expected)
            let early = PlanAhead(list, depth: 4, workers: 3, form: .masks, pool: pool)
            XCTAssertNotNil(early.next())
            // Both are dropped here with their jobs still queued behind the held one.
        }
        release.signal()
        // The pool still works once free: a later render's jobs run on it.
        let after = PlanAhead(list, depth: 2, workers: 2, form: .masks, pool: pool)
        var again: [[String]] = []
        while let draw = after.next() { again.append(Self.summary(draw)) }
        XCTAssertEqual(again, expected)
    }

    /// Renders planning at once on one small shared pool each get their own plans, in order.
    func testConcurrentRendersShareOnePool() throws {
        let list = try list()
        let expected = Self.inlinePlans(list)
        let pool = PlanningPool(threads: 2)
        let results = Mutex<[[[String]]]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            let ahead = PlanAhead(list, depth: 3, workers: 2, form: .masks, pool: pool)
            var actual: [[String]] = []
            while let draw = ahead.next() { actual.append(Self.summary(draw)) }
            results.withLock { $0.append(actual) }
        }
        let all = results.withLock { $0 }
        XCTAssertEqual(all.count, 6)
        for actual in all { XCTAssertEqual(actual, expected) }
    }

    func testPlanningAheadGivesTheInlinePlansInOrder() throws {
        let list = try list()
        XCTAssertGreaterThanOrEqual(DrawSequence.draws(of: list).count, PlanAhead.minimumDraws, "long enough to plan on a thread")
        let expected = Self.inlinePlans(list)
        XCTAssertTrue(expected.contains { $0[2] != "-" }, "the fixture has shadows")
        XCTAssertTrue(expected.contains { $0[0] != "-" }, "the fixture has a clip")
        for depth in [1, 3, 16] {
            for workers in [1, 2, 5] {
                let ahead = PlanAhead(list, depth: depth, workers: workers, form: .masks)
                var actual: [[String]] = []
                while let draw = ahead.next() { actual.append(Self.summary(draw)) }
                XCTAssertEqual(actual, expected, "depth \(depth), \(workers) workers")
                XCTAssertNil(ahead.next(), "stays at the end")
            }
        }
    }

    /// A consumer that stops early (a renderer that failed) must not leave the planner blocked.
    func testDroppingThePlanAheadEarlyStopsThePlanner() throws {
        let list = try list()
        for (taken, workers) in [(0, 1), (1, 2), (5, 3), (2, 4)] {
            let holder = Holder(PlanAhead(list, depth: 2, workers: workers, form: .masks))
            for _ in 0..<taken { XCTAssertNotNil(holder.value?.next()) }
            // deinit stops and waits for the planning threads: drop the last reference on another
            // thread and give it a bounded time, so that a planner left blocked fails here.
            let dropped = DispatchSemaphore(value: 0)
            Thread { holder.value = nil; dropped.signal() }.start()
            XCTAssertEqual(dropped.wait(timeout: .now() + 30), .success,
                           "dropping a PlanAhead after \(taken) draws with \(workers) workers did not return")
        }
    }
}

/// Carries the last reference to a PlanAhead to the thread that drops it.
private final class Holder: @unchecked Sendable {
    var value: PlanAhead?
    init(_ value: PlanAhead) { self.value = value }
}
