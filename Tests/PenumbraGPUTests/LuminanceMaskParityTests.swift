// LuminanceMaskParityTests: layers composited as luminance masks (LuminanceMask.swift) held to
// the parity contract: paint.glsl converts the placed layer's sample with fixed.glsl's
// luminanceAlpha, the CPU's LuminanceShader with Fixed.luminanceAlpha. Cases: a masked layer
// over a backdrop (gradient, translucent and anti-aliased mask content), a luminance layer
// composited with `normal` (the black-with-alpha result itself), one with a shadow (its caster
// is the converted paint too), nested masks at scale 2 under a rotation, and an empty mask.
import XCTest
import Penumbra
import PenumbraModel
import PenumbraCore
import PenumbraCPU
import PenumbraGPU

final class LuminanceMaskParityTests: XCTestCase {
    func check(_ name: String, scale: Double = 1, background: Color? = nil, _ draw: (GraphicsContext) -> Void,
               file: StaticString = #filePath, line: UInt = #line) throws {
        let gpu = try GPUTestSupport.renderer()
        let c = GraphicsContext(pixelWidth: Int(48 * scale), pixelHeight: Int(40 * scale), scale: scale, background: background)
        draw(c)
        try GPUTestSupport.assertParity(c.displayList, name: name, gpu: gpu, file: file, line: line)
    }

    /// Mask content with every kind of value: a gradient from transparent white to opaque black,
    /// a translucent coloured disc and an opaque white bar.
    static func maskContent(_ c: GraphicsContext) {
        c.saveGState()
        c.clip(to: Path(rect: Rect(x: 4, y: 4, width: 40, height: 32)))
        c.drawLinearGradient(stops: [GradientStop(offset: 0, color: Color(red: 1, green: 1, blue: 1, alpha: 0)),
                                     GradientStop(offset: 1, color: Color(red: 0, green: 0, blue: 0))],
                             start: Point(x: 4, y: 0), end: Point(x: 44, y: 0))
        c.restoreGState()
        c.setFillColor(Color(red: 0.9, green: 0.5, blue: 0.2, alpha: 0.7))
        c.fill(Path(ellipseIn: Rect(x: 10.5, y: 6.25, width: 20, height: 18)))
        c.setFillColor(Color(red: 1, green: 1, blue: 1))
        c.fill(Path(rect: Rect(x: 6.5, y: 28.5, width: 34, height: 5)))
    }

    static func masked(_ c: GraphicsContext, _ content: (GraphicsContext) -> Void) {
        c.beginTransparencyLayer()
        content(c)
        c.setBlendMode(.destinationIn)
        c.beginTransparencyLayer()
        maskContent(c)
        c.endTransparencyLayerConvertingLuminanceToAlpha()
        c.endTransparencyLayer()
    }

    static func content(_ c: GraphicsContext) {
        c.setFillColor(Color(red: 0.1, green: 0.6, blue: 0.3))
        c.fill(Path(rect: Rect(x: 0, y: 0, width: 48, height: 40)))
        c.setFillColor(Color(red: 0.8, green: 0.1, blue: 0.5, alpha: 0.6))
        c.fill(Path(ellipseIn: Rect(x: 20, y: 8, width: 24, height: 26)))
    }

    func testAMaskedLayerOverABackdrop() throws {
        try check("luminance-masked", background: Color(red: 0.9, green: 0.85, blue: 0.7)) { c in
            FocusedParityTests.backdrop(c)
            c.setAlpha(0.8)
            Self.masked(c, Self.content)
        }
    }

    func testTheConvertedLayerComposedNormallyAndWithAShadow() throws {
        try check("luminance-normal") { c in
            c.beginTransparencyLayer()
            Self.maskContent(c)
            c.endTransparencyLayerConvertingLuminanceToAlpha()
        }
        try check("luminance-shadow") { c in
            c.setShadow(offset: Size(width: 3, height: 2), blur: 3, color: Color(red: 0, green: 0, blue: 0.5, alpha: 0.8))
            c.beginTransparencyLayer()
            Self.maskContent(c)
            c.endTransparencyLayerConvertingLuminanceToAlpha()
        }
    }

    func testNestedMasksScaledAndRotated() throws {
        try check("luminance-nested", scale: 2) { c in
            c.translateBy(x: 24, y: 20)
            c.rotate(by: 0.3)
            c.translateBy(x: -24, y: -20)
            Self.masked(c) { inner in
                Self.masked(inner, Self.content)
            }
        }
    }

    func testAnEmptyMaskRemovesEverything() throws {
        try check("luminance-empty") { c in
            c.beginTransparencyLayer()
            Self.content(c)
            c.setBlendMode(.destinationIn)
            c.beginTransparencyLayer()
            c.endTransparencyLayerConvertingLuminanceToAlpha()
            c.endTransparencyLayer()
        }
        let c = GraphicsContext(pixelWidth: 48, pixelHeight: 40)
        c.beginTransparencyLayer()
        Self.content(c)
        c.setBlendMode(.destinationIn)
        c.beginTransparencyLayer()
        c.endTransparencyLayerConvertingLuminanceToAlpha()
        c.endTransparencyLayer()
        let b = try CPURenderer().render(c.displayList)
        XCTAssertTrue(b.pixels.allSatisfy { $0 == 0 }, "an empty luminance mask leaves nothing")
    }
}
