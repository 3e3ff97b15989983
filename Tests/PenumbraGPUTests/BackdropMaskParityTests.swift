// BackdropMaskParityTests: a transparency layer ended as a backdrop mask
// (BackdropMask.swift; UIVisualEffectView's vibrancy) held to the parity
// contract: the GPU filters its target with GPUFilterEvaluator's colour pass
// and composite.comp reads the coverage from the layer texture's alpha; the
// CPU filters with FilterEvaluator and reads the layer's alpha bytes. Cases:
// an opaque and a translucent backdrop, a clip, a layer whose frame is off
// the origin, scale 2 under a rotation, nested in a layer with a shadow (a
// target whose frame is grown off the canvas origin), an empty layer. Each
// case also checks on the CPU that the mask changed pixels, so that parity
// is not two renderers agreeing on doing nothing.
import Foundation
import XCTest
import Penumbra
import PenumbraModel
import PenumbraCore
import PenumbraCPU
import PenumbraGPU

final class BackdropMaskParityTests: XCTestCase {
    static let light = BackdropMaskFilter(saturation: 1.6, brightness: 0.25)
    static let dark = BackdropMaskFilter(saturation: 1.6, brightness: 0.35)

    /// Renders `draw` after the shared backdrop on both backends and asserts byte identity; with
    /// `changes`, also that the mask changed the CPU's pixels (against the same list whose mask
    /// layer is ended by a plain end of nothing: the backdrop alone).
    func check(_ name: String, scale: Double = 1, background: Color? = Color(red: 0.9, green: 0.85, blue: 0.7),
               changes: Bool = true, _ draw: (GraphicsContext, _ masked: Bool) -> Void,
               file: StaticString = #filePath, line: UInt = #line) throws {
        let gpu = try GPUTestSupport.renderer()
        func list(_ masked: Bool) -> DisplayList {
            let context = GraphicsContext(pixelWidth: Int(48 * scale), pixelHeight: Int(40 * scale), scale: scale,
                                          background: background)
            FocusedParityTests.backdrop(context)
            draw(context, masked)
            return context.displayList
        }
        let masked = list(true)
        try GPUTestSupport.assertParity(masked, name: name, gpu: gpu, file: file, line: line)
        let cpu = CPURenderer()
        let with = try cpu.render(masked).pixels, without = try cpu.render(list(false)).pixels
        if changes {
            XCTAssertNotEqual(with, without, "\(name): the mask changes pixels", file: file, line: line)
        } else {
            XCTAssertEqual(with, without, "\(name): the mask changes nothing", file: file, line: line)
        }
    }

    /// Text-free vibrancy content: an anti-aliased disc, a translucent bar and a stroked ring.
    static func content(_ c: GraphicsContext, at origin: Point = Point(x: 0, y: 0)) {
        c.setFillColor(Color(red: 1, green: 1, blue: 1, alpha: 1))
        c.fill(Path(ellipseIn: Rect(x: origin.x + 4, y: origin.y + 6, width: 18, height: 15)))
        c.setFillColor(Color(red: 0, green: 0, blue: 0, alpha: 0.45))
        c.fill(Path(rect: Rect(x: origin.x + 14.5, y: origin.y + 18.25, width: 22, height: 9.5)))
        c.setStrokeColor(Color(red: 0.3, green: 0.3, blue: 0.3, alpha: 0.8))
        c.setLineWidth(2.5)
        c.stroke(Path(ellipseIn: Rect(x: origin.x + 26, y: origin.y + 3, width: 14, height: 14)))
    }

    /// Begins a layer, draws `body` and ends it as a mask (`masked`) or draws nothing at all.
    static func vibrancy(_ c: GraphicsContext, _ masked: Bool, _ filter: BackdropMaskFilter = light,
                         _ body: (GraphicsContext) -> Void) {
        guard masked else { return }
        c.beginTransparencyLayer()
        body(c)
        c.endTransparencyLayer(maskingBackdropWith: filter)
    }

    func testOpaqueAndTranslucentBackdrops() throws {
        try check("mask-opaque") { c, masked in Self.vibrancy(c, masked) { Self.content($0) } }
        try check("mask-translucent", background: nil) { c, masked in
            Self.vibrancy(c, masked, Self.dark) { Self.content($0) }
        }
    }

    func testAClipOfTheBeginningAndStateThatDoesNotApply() throws {
        try check("mask-clipped") { c, masked in
            c.clip(to: Path(roundedRect: Rect(x: 3, y: 4, width: 34, height: 26), cornerRadius: 8))
            c.setAlpha(0.4)
            c.setBlendMode(.difference)
            c.setShadow(offset: Size(width: 3, height: 2), blur: 4)
            Self.vibrancy(c, masked) { Self.content($0) }
        }
    }

    func testALayerFrameOffTheOriginAndAtScale2() throws {
        try check("mask-offset") { c, masked in
            c.translateBy(x: 9.5, y: 7.25)
            Self.vibrancy(c, masked, Self.dark) { Self.content($0, at: Point(x: 3, y: 2)) }
        }
        try check("mask-scale2", scale: 2) { c, masked in
            c.translateBy(x: 6, y: 2)
            c.rotate(by: 0.35)
            c.clip(to: Path(ellipseIn: Rect(x: 0, y: 0, width: 40, height: 34)))
            Self.vibrancy(c, masked) { Self.content($0) }
        }
    }

    func testNestedInALayerWithAShadowAndAnEmptyLayer() throws {
        try check("mask-nested") { c, masked in
            c.setShadow(offset: Size(width: -4, height: 5), blur: 5, color: Color(red: 0, green: 0, blue: 0.3, alpha: 0.6))
            c.beginTransparencyLayer()
            c.setFillColor(Color(red: 0.1, green: 0.7, blue: 0.5, alpha: 0.75))
            c.fill(Path(roundedRect: Rect(x: 10, y: 6, width: 30, height: 28), cornerRadius: 6))
            Self.vibrancy(c, masked) { Self.content($0, at: Point(x: 6, y: 4)) }
            c.endTransparencyLayer()
        }
        try check("mask-empty", changes: false) { c, masked in
            Self.vibrancy(c, masked) { _ in }
        }
    }
}
