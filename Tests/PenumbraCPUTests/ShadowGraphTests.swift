// The drop shadow as a user of the filter graph (FilterAlpha.swift,
// DrawPlan.swift): its blur is the graph's gaussianBlur on one channel, its
// rectangles come from the graph's extent and region-of-interest rules, so a
// clipped shadow renders and blurs only what its region reads and still gives
// the unclipped shadow's pixels there.

import XCTest
@testable import PenumbraCPU
@testable import PenumbraModel
@testable import PenumbraCore

final class ShadowGraphTests: XCTestCase {
    private func render(_ w: Int, _ h: Int, _ draw: (GraphicsContext) -> Void) throws -> (Bitmap, DisplayList) {
        let context = GraphicsContext(pixelWidth: w, pixelHeight: h, scale: 1)
        draw(context)
        return (try CPURenderer().render(context.displayList), context.displayList)
    }

    /// The shadows the planner makes for a list, in order.
    private func shadowPlans(_ list: DisplayList) -> [ShadowPlan] {
        let planner = DrawPlanner(list, form: .masks)
        return DrawSequence.draws(of: list).compactMap { planner.plan($0).shadow }
    }

    private func shadowed(_ c: GraphicsContext) {
        c.setShadow(offset: Size(width: 7, height: 5), blur: 16, color: Color(red: 0.1, green: 0.2, blue: 0.6, alpha: 0.8))
        c.setFillColor(Color(red: 1, green: 0.5, blue: 0, alpha: 1))
        c.fill(Path(ellipseIn: Rect(x: 20, y: 14, width: 70, height: 40)))
    }

    func testAClippedShadowIsTheUnclippedShadowCroppedAndReadsOnlyItsReach() throws {
        let (whole, wholeList) = try render(120, 90, shadowed)
        let clipRect = PixelRect(x: 88, y: 50, width: 14, height: 12)  // the shadow's lower right tail
        let (clipped, clippedList) = try render(120, 90) { c in
            c.clip(to: Path(rect: Rect(x: Double(clipRect.x), y: Double(clipRect.y),
                                       width: Double(clipRect.width), height: Double(clipRect.height))))
            shadowed(c)
        }
        var shadowSeen = false
        for y in 0..<90 { for x in 0..<120 {
            let inside = clipRect.intersection(PixelRect(x: x, y: y, width: 1, height: 1)) == PixelRect(x: x, y: y, width: 1, height: 1)
            XCTAssertEqual(clipped[x, y], inside ? whole[x, y] : .zero, "(\(x), \(y))")
            if inside && whole[x, y].w > 0 { shadowSeen = true }
        } }
        XCTAssertTrue(shadowSeen, "the clip holds part of the shadow")

        let full = try XCTUnwrap(shadowPlans(wholeList).first), small = try XCTUnwrap(shadowPlans(clippedList).first)
        let r = full.kernel.radius
        XCTAssertEqual(small.compositeRegion, clipRect)
        XCTAssertTrue(clipRect.grown(by: r).intersection(small.plane) == small.plane,
                      "the clipped caster plane \(small.plane) lies within the clip's reach")
        XCTAssertLessThan(small.plane.area, full.plane.area / 2, "and is much smaller than the whole shadow's")
        // The graph's rules give the rectangles.
        XCTAssertEqual(full.filter, .filtered(full.caster, .gaussianBlur(radius: full.kernel.sigma)))
        XCTAssertEqual(full.compositeRegion, full.filter.extent.rect?.intersection(PixelRect(x: 0, y: 0, width: 120, height: 90)))
    }

    /// The one-channel evaluation is the graph's RGBA blur on a grey image of the caster.
    func testTheSingleChannelBlurIsTheGraphsBlur() throws {
        var rng = SystemRandomNumberGenerator()
        let evaluator = FilterEvaluator(services: .cpu)
        for trial in 0..<20 {
            let extent = PixelRect(x: Int.random(in: -20...20, using: &rng), y: Int.random(in: -20...20, using: &rng),
                                   width: Int.random(in: 1...40, using: &rng), height: Int.random(in: 1...40, using: &rng))
            let sigma = Double.random(in: 0.3...5, using: &rng)
            var grey = Bitmap(width: extent.width, height: extent.height), values = [UInt8](repeating: 0, count: extent.area)
            for i in values.indices where Bool.random(using: &rng) {
                values[i] = UInt8.random(in: 1...255, using: &rng)
                let v = values[i]
                grey[i % extent.width, i / extent.width] = SIMD4(v, v, v, v)
            }
            let caster = FilterNode.standIn(extent: extent)
            let graph = FilterNode.filtered(caster, .gaussianBlur(radius: sigma))
            let blurred = try XCTUnwrap(graph.extent.rect)
            let region = PixelRect(x: blurred.x + Int.random(in: -5...10, using: &rng), y: blurred.y + Int.random(in: -5...10, using: &rng),
                                   width: Int.random(in: 1...blurred.width + 5, using: &rng),
                                   height: Int.random(in: 1...blurred.height + 5, using: &rng))
            let inside = region.intersection(blurred)
            guard !inside.isEmpty else { continue }
            let read = ImageFilter.blurInputRegion(inside, radius: sigma, inputExtent: .finite(extent))
            let plane = AlphaImage(rect: extent, values: values).covering(read)
            let alpha = try evaluator.executeAlpha(FilterPlan(graph, in: region, input: caster, maxPixels: 1 << 20), input: plane)
            // The bitmap's extent starts at (0, 0): the same pixels moved by the caster's origin.
            let moved = PixelRect(x: inside.x - extent.x, y: inside.y - extent.y, width: inside.width, height: inside.height)
            let rgba = try evaluator.render(.filtered(.bitmap(grey), .gaussianBlur(radius: sigma)), in: moved)
            for y in inside.y..<inside.maxY { for x in inside.x..<inside.maxX {
                let a = alpha.values[(y - alpha.rect.y) * alpha.rect.width + x - alpha.rect.x]
                XCTAssertEqual(a, rgba[x - inside.x, y - inside.y].w, "trial \(trial) (\(x), \(y))")
            } }
        }
    }

    func testFiltersWithoutASingleChannelFormAreRefusedByName() throws {
        let extent = PixelRect(x: 0, y: 0, width: 4, height: 4)
        let caster = FilterNode.standIn(extent: extent)
        let pixels = AlphaImage(rect: extent, values: [UInt8](repeating: 9, count: 16))
        let plan = try FilterPlan(.filtered(caster, .colorInvert), in: extent, input: caster, maxPixels: 1 << 20)
        XCTAssertThrowsError(try FilterEvaluator(services: .cpu).executeAlpha(plan, input: pixels)) { error in
            XCTAssertTrue("\(error)".contains("single-channel") && "\(error)".contains("invert"), "\(error)")
        }
    }
}
