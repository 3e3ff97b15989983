// CoverageFormTests: the CPU renderer composites large shapes as their rows
// are resolved (ShapeBands) and small ones through masks planned ahead; both
// must give the bytes of masks everywhere, with clips, every paint and blend
// mode, in layers and shadows, on one core or several.
import XCTest
import PenumbraTestSupport
@testable import PenumbraModel
@testable import PenumbraCore
import PenumbraCPU

final class CoverageFormTests: XCTestCase {
    private func firstDifference(_ a: Bitmap, _ b: Bitmap) -> Int? {
        guard a.width == b.width, a.height == b.height else { return -1 }
        return a.pixels.indices.first { a.pixels[$0] != b.pixels[$0] }
    }

    /// Fuzz scenes with every shape in bands against every shape in masks.
    func testBandsGiveTheBytesOfMasksOnFuzzScenes() throws {
        let masks = CPURenderer(coverageForm: .masks), bands = CPURenderer(coverageForm: .bands(minimumPixels: 0))
        var differing: [UInt64] = []
        for i in 0..<120 {
            let seed = 0xC0_FE00 &+ UInt64(i)
            var builder = FuzzSceneBuilder(seed: seed)
            let list = builder.build()
            if try firstDifference(masks.render(list), bands.render(list)) != nil { differing.append(seed) }
        }
        XCTAssertEqual(differing, [], "seeds whose bands differ from their masks")
    }

    /// Rings over a 640 x 640 canvas (resolved on every core), clipped and not, solid and
    /// gradient paint, in a layer with a shadow: the default renderer against masks.
    func testLargeShapesOnEveryCoreGiveTheBytesOfMasks() throws {
        var list = DisplayList(width: 640, height: 640, scale: 1, background: nil)
        var rings = Path()
        for k in 0..<16 {
            let r = 320.0 - Double(k) * 19.7
            rings.addEllipse(in: Rect(x: 320 - r, y: 320 - r, width: 2 * r, height: 2 * r))
            rings.addEllipse(in: Rect(x: 325 - r, y: 317 - r, width: 2 * r - 10, height: 2 * r - 10))
        }
        let ringShape = DeviceShape(contours: rings.flattened().map(\.points), rule: .evenOdd)
        var clipPath = Path()
        clipPath.addEllipse(in: Rect(x: 60.3, y: 25.7, width: 500, height: 440))
        list.clips.append(ClipNode(parent: nil, shape: DeviceShape(contours: clipPath.flattened().map(\.points), rule: .nonzero)))
        var plain = CompositeState()
        list.commands.append(.fill(ringShape, Color(red: 0.5, green: 0, blue: 0.5, alpha: 1), plain))
        plain.clip = 0
        plain.alpha = 0.7
        plain.blendMode = .multiply
        list.commands.append(.fill(ringShape.offsetBy(Point(x: 3.5, y: -2.25)), Color(red: 0.1, green: 0.8, blue: 0.3, alpha: 0.9), plain))
        var layer = CompositeState()
        layer.shadow = DeviceShadow(offset: Point(x: 6, y: 9), sigma: 4, color: Color(red: 0, green: 0, blue: 0, alpha: 0.5))
        list.commands.append(.beginLayer(layer))
        var inLayer = CompositeState()
        inLayer.clip = 0
        let gradient = GradientDraw(kind: .linear(start: Point(x: 0, y: 0), end: Point(x: 640, y: 560)),
                                    stops: [GradientStop(offset: 0, color: Color(red: 1, green: 0.5, blue: 0, alpha: 1)),
                                            GradientStop(offset: 1, color: Color(red: 0, green: 0.2, blue: 1, alpha: 0.6))],
                                    extendStart: true, extendEnd: true, transform: .identity)
        list.commands.append(.fill(ringShape.offsetBy(Point(x: -7, y: 4)), Color(red: 1, green: 1, blue: 0, alpha: 1), inLayer))
        list.commands.append(.gradient(gradient, inLayer))
        list.commands.append(.endLayer)
        let expected = try CPURenderer(coverageForm: .masks).render(list)
        let actual = try CPURenderer().render(list)
        XCTAssertNil(firstDifference(expected, actual), "bands resolved on every core differ from masks")
        // Something was drawn: the check compares real pixels.
        XCTAssertGreaterThan(Set(actual.pixels).count, 100)
    }
}
