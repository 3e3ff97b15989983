import XCTest
@testable import PenumbraModel
@testable import PenumbraCore

/// A filter graph lowered once into passes (FilterPlan.swift): the regions, kernels and
/// fixed-point words are resolved there, and the passes read only earlier passes.
final class FilterPlanTests: XCTestCase {
    private let image = Bitmap(width: 40, height: 30)

    func testABlurIsOnePassWithItsKernelAndTheRegionItReads() throws {
        let node = FilterNode.filtered(.bitmap(image), .gaussianBlur(radius: 2))
        let region = PixelRect(x: 5, y: 5, width: 10, height: 8)
        let plan = try FilterPlan(node, in: region, maxPixels: 1 << 20)
        XCTAssertEqual(plan.passes.count, 2)
        let read = ImageFilter.blurInputRegion(region, radius: 2, inputExtent: .finite(PixelRect(x: 0, y: 0, width: 40, height: 30)))
        XCTAssertEqual(plan.passes[0].rect, read, "the source is asked for what the blur reads")
        guard case .bitmap = plan.passes[0].operation else { return XCTFail("\(plan.passes[0].operation)") }
        guard case .blur(0, let kernel, let blurRead) = plan.passes[1].operation else { return XCTFail("\(plan.passes[1].operation)") }
        XCTAssertEqual(kernel, GaussianKernel(sigma: 2))
        XCTAssertEqual(blurRead, read)
        XCTAssertEqual(plan.passes[1].rect, region)
        XCTAssertEqual(plan.lastReaders, [1, 2])
    }

    /// crop and clampToExtent of an infinite input are the input asked for less: no pass of
    /// their own; a region outside every extent is one transparent pass.
    func testCropsNeedNoPassAndNothingIsTransparent() throws {
        let cropped = FilterNode.filtered(.bitmap(image), .colorInvert).cropped(to: Rect(x: 2, y: 3, width: 4, height: 5))
        let plan = try FilterPlan(cropped, in: PixelRect(x: 0, y: 0, width: 40, height: 30), maxPixels: 1 << 20)
        XCTAssertEqual(plan.passes.map(\.rect), [PixelRect(x: 2, y: 3, width: 4, height: 5), PixelRect(x: 2, y: 3, width: 4, height: 5)])
        guard case .color(0, _) = plan.passes[1].operation else { return XCTFail("\(plan.passes[1].operation)") }

        let outside = try FilterPlan(.filtered(.bitmap(image), .colorInvert), in: PixelRect(x: 100, y: 100, width: 5, height: 5),
                                     maxPixels: 1 << 20)
        XCTAssertEqual(outside.passes.count, 1)
        guard case .transparent = outside.passes[0].operation else { return XCTFail("\(outside.passes[0].operation)") }
        XCTAssertTrue(outside.passes[0].rect.isEmpty)
    }

    /// The stand-in node is the renderer's input wherever the graph holds it, asked for what its
    /// reader reads; a graph over it refers to no pixels of its own.
    func testTheStandInIsTheInput() throws {
        let blur = BackdropBlur(shape: DeviceShape(contours: [], rule: .nonzero), sigma: 3, saturation: 1.4,
                                tint: Color(red: 1, green: 1, blue: 1, alpha: 0.2))
        let plan = FilterPlan.backdrop(blur.replacement(over:), frame: PixelRect(x: 10, y: 10, width: 64, height: 48),
                                       bounds: PixelRect(x: 20, y: 15, width: 16, height: 12))
        XCTAssertEqual(plan.region, PixelRect(x: 10, y: 5, width: 16, height: 12), "in the target's own grid")
        let operations = plan.passes.map { "\($0.operation)".prefix { $0 != "(" } }
        XCTAssertEqual(operations, ["constant", "input", "blur", "color", "composite"])
        XCTAssertEqual(plan.lastReaders, [4, 2, 3, 4, 5])
    }

    func testEveryRegionAskedIsCheckedWhileLowering() {
        let node = FilterNode.filtered(.bitmap(image), .gaussianBlur(radius: 10))
        // The result's region fits; what the blur reads of its input does not.
        XCTAssertThrowsError(try FilterPlan(node, in: PixelRect(x: 0, y: 0, width: 10, height: 10), maxPixels: 150)) { error in
            XCTAssertTrue("\(error)".contains("over the limit of 150"), "\(error)")
        }
        XCTAssertNoThrow(try FilterPlan(node, in: PixelRect(x: 0, y: 0, width: 10, height: 10), maxPixels: 50 * 50))
    }
}
