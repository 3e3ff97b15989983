// InterpolationParityTests: `none`, `low` and `high` on the GPU against the
// CPU, byte for byte: scaled down past several mip levels, rotated and
// sheared, nine-slice (stretch and tile, with regions at different levels, so
// the atlas holds several), with a shadow (the alpha path), template, flipped,
// and the same image drawn at several levels in one list (one chain, several
// atlases).
import XCTest
import Penumbra
import PenumbraGPU
import PenumbraCPU

final class InterpolationParityTests: XCTestCase {
    static let image = FocusedParityTests.testImage(width: 97, height: 61)

    func check(_ name: String, width: Int = 64, height: Int = 64, _ draw: (GraphicsContext, ImageInterpolation) -> Void) throws {
        let gpu = try GPUTestSupport.renderer()
        var cpu: [ImageInterpolation: Bitmap] = [:]
        defer { XCTAssertNotEqual(cpu[.low], cpu[.high], "\(name): the mip levels are sampled") }
        for mode in ImageInterpolation.allCases where mode != .default {
            let context = GraphicsContext(pixelWidth: width, pixelHeight: height, background: Color(red: 0.9, green: 0.85, blue: 0.7))
            draw(context, mode)
            cpu[mode] = try CPURenderer().render(context.displayList)
            let diff = try GPUTestSupport.compare(context.displayList, name: "\(name)-\(mode.rawValue)", gpu: gpu)
            XCTAssertTrue(diff.isExact, "\(name) with \(mode.rawValue): \(diff)")
        }
    }

    func testScaledDown() throws {
        try check("mip-scaled") { c, mode in
            c.draw(Self.image, in: Rect(x: 1.3, y: 2.7, width: 40, height: 25), interpolation: mode)   // level 1
            c.draw(Self.image, in: Rect(x: 3, y: 40, width: 11.5, height: 7), interpolation: mode)     // level 3
            c.draw(Self.image, in: Rect(x: 50, y: 40, width: 3, height: 2), interpolation: mode)       // level 5
            c.draw(Self.image, in: Rect(x: 20, y: 34, width: 90, height: 4), interpolation: mode)      // anisotropic
        }
    }

    func testRotatedAndSheared() throws {
        try check("mip-rotated") { c, mode in
            c.translateBy(x: 32, y: 10)
            c.rotate(by: 0.6)
            c.draw(Self.image, in: Rect(x: 0, y: 0, width: 30, height: 20), interpolation: mode)
            c.concatenate(AffineTransform(a: 0.4, b: 0.1, c: 0.9, d: 0.3, tx: 5, ty: 25))
            c.draw(Self.image, in: Rect(x: 0, y: 0, width: 60, height: 60), interpolation: mode)
        }
    }

    func testNineSliceRegionsAtDifferentLevels() throws {
        try check("mip-slices") { c, mode in
            let insets = EdgeInsets(top: 12.5, left: 20, bottom: 9, right: 15)
            c.scaleBy(x: 1, y: 0.3)
            c.draw(Self.image.resizable(capInsets: insets, mode: .stretch), in: Rect(x: 2, y: 4, width: 60, height: 90), interpolation: mode)
            c.draw(Self.image.resizable(capInsets: insets, mode: .tile), in: Rect(x: 2, y: 110, width: 50, height: 90), interpolation: mode)
            c.scaleBy(x: 0.2, y: 1)
            c.draw(Self.image.resizable(capInsets: insets, mode: .tile), in: Rect(x: 10, y: 120, width: 280, height: 90),
                   interpolation: mode)
        }
    }

    func testShadowTemplateAndFlip() throws {
        try check("mip-shadow") { c, mode in
            c.setShadow(offset: Size(width: 3.5, height: 2), blur: 3)
            c.draw(Self.image, in: Rect(x: 4, y: 4, width: 30, height: 14), interpolation: mode)
            c.draw(Self.image.withRenderingMode(.template, tint: Color(red: 0.1, green: 0.5, blue: 0.2, alpha: 0.8)),
                   in: Rect(x: 4, y: 30, width: 20, height: 12), interpolation: mode)
            c.draw(Self.image.flippedHorizontally(), in: Rect(x: 34, y: 30, width: 24, height: 9), interpolation: mode)
        }
    }
}
