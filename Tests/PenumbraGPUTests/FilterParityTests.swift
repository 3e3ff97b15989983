// FilterParityTests: blurBackdrop on the CPU and the GPU (the GPU reads its
// target back and computes the replacement with Core's filter graph and the
// integer reference blur) held to the parity contract: on the canvas, under
// a clip, at scale 2, and inside a layer with a shadow, whose target is a
// grown frame off the canvas origin. Filter chains need no case of their own:
// they become pixels when a scene is decoded, and ExampleParityTests draws
// the filter examples (filters, blur-crop, vignette, frosted) on both.
import XCTest
import Penumbra
import PenumbraGPU

final class FilterParityTests: XCTestCase {
    func check(_ name: String, scale: Double = 1, _ draw: (GraphicsContext) -> Void) throws {
        let gpu = try GPUTestSupport.renderer()
        let context = GraphicsContext(pixelWidth: Int(48 * scale), pixelHeight: Int(40 * scale), scale: scale,
                                      background: Color(red: 0.9, green: 0.85, blue: 0.7))
        FocusedParityTests.backdrop(context)
        draw(context)
        try GPUTestSupport.assertParity(context.displayList, name: name, gpu: gpu)
    }

    func testBackdropBlurOnTheCanvasUnderAClipAndAtScale2() throws {
        try check("backdrop-plain") { $0.blurBackdrop(Path(roundedRect: Rect(x: 6, y: 4, width: 30, height: 24), cornerRadius: 6), radius: 3) }
        try check("backdrop-clipped") { c in
            c.clip(to: Path(ellipseIn: Rect(x: 0, y: 0, width: 30, height: 30)))
            c.blurBackdrop(Path(rect: Rect(x: 4, y: 4, width: 40, height: 30)), radius: 2.5, saturation: 1.7,
                           tint: Color(red: 1, green: 1, blue: 1, alpha: 0.3))
        }
        try check("backdrop-scale2", scale: 2) { c in
            c.rotate(by: 0.3)
            c.blurBackdrop(Path(rect: Rect(x: 10, y: 0, width: 24, height: 20)), radius: 1.5, saturation: 0.2)
        }
    }

    func testBackdropBlurInsideALayerWithAShadow() throws {
        try check("backdrop-layer") { c in
            c.setShadow(offset: Size(width: 3, height: 4), blur: 4, color: Color(red: 0, green: 0, blue: 0, alpha: 0.5))
            c.beginTransparencyLayer()
            c.setFillColor(Color(red: 0.1, green: 0.8, blue: 0.3, alpha: 0.8))
            c.fill(Path(ellipseIn: Rect(x: 8, y: 8, width: 20, height: 20)))
            c.blurBackdrop(Path(rect: Rect(x: 0, y: 0, width: 30, height: 30)), radius: 2)
            c.endTransparencyLayer()
        }
    }
}
