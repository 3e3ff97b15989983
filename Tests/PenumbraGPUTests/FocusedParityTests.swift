// FocusedParityTests: one feature per case, drawn through the Swift API
// (GraphicsContext), rendered on the CPU and the GPU and held to the parity
// contract: every blend mode, shadows (fractional offsets, a large blur, an
// image's and a gradient's), nine-slice tile and stretch, template, flip,
// crop, gradients with every extend flag, clips, nested layers with shadows,
// alpha. Canvases are small: llvmpipe is a CPU.
import XCTest
import Penumbra
import PenumbraGPU

final class FocusedParityTests: XCTestCase {
    /// A deterministic test image: a premultiplied gradient of colours with varying alpha.
    static func testImage(width: Int, height: Int) -> Image {
        var bitmap = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let a = UInt8(80 + (x * 7 + y * 13) % 176)
                let c = [(x * 255) / max(1, width - 1), (y * 255) / max(1, height - 1), ((x + y) * 97) % 256]
                let i = (y * width + x) * 4
                for k in 0..<3 { bitmap.pixels[i + k] = premultiply(UInt8(c[k]), alpha: a) }
                bitmap.pixels[i + 3] = a
            }
        }
        return Image(bitmap: bitmap, scale: 1)
    }

    func check(_ name: String, width: Int = 48, height: Int = 48, scale: Double = 1, background: Color? = Color(red: 0.9, green: 0.85, blue: 0.7),
               _ draw: (GraphicsContext) -> Void) throws {
        let gpu = try GPUTestSupport.renderer()
        let context = GraphicsContext(pixelWidth: width, pixelHeight: height, scale: scale, background: background)
        draw(context)
        try GPUTestSupport.assertParity(context.displayList, name: name, gpu: gpu)
    }

    /// A backdrop with varied colours and alphas for the blend modes to act on.
    static func backdrop(_ c: GraphicsContext) {
        c.setFillColor(Color(red: 0.2, green: 0.6, blue: 0.9, alpha: 0.7))
        c.fill(Path(ellipseIn: Rect(x: 2, y: 2, width: 30, height: 40)))
        c.setFillColor(Color(red: 0.95, green: 0.3, blue: 0.1, alpha: 1))
        c.fill(Path(rect: Rect(x: 20, y: 10, width: 26, height: 20)))
        c.drawLinearGradient(stops: [GradientStop(offset: 0, color: Color(red: 0, green: 0, blue: 0, alpha: 0)),
                                     GradientStop(offset: 1, color: Color(red: 1, green: 1, blue: 0, alpha: 0.8))],
                             start: Point(x: 0, y: 40), end: Point(x: 48, y: 48))
    }

    func testEveryBlendMode() throws {
        for mode in BlendMode.allCases {
            try check("blend-\(mode.rawValue)", background: nil) { c in
                FocusedParityTests.backdrop(c)
                c.setBlendMode(mode)
                c.setAlpha(0.85)
                c.setFillColor(Color(red: 0.4, green: 0.9, blue: 0.5, alpha: 0.75))
                c.fill(Path(ellipseIn: Rect(x: 8, y: 6, width: 34, height: 30)))
                c.draw(FocusedParityTests.testImage(width: 9, height: 7), in: Rect(x: 10.5, y: 25.25, width: 30, height: 18))
            }
        }
    }

    func testShadowsWithFractionalOffsetsAndLargeBlur() throws {
        try check("shadow-fractional", width: 64, height: 56, scale: 1.5) { c in
            c.setShadow(offset: Size(width: 3.3, height: -2.7), blur: 4.5, color: Color(red: 0.1, green: 0, blue: 0.3, alpha: 0.6))
            c.setFillColor(Color(red: 0.9, green: 0.2, blue: 0.2))
            c.fill(Path(roundedRect: Rect(x: 8, y: 10, width: 20, height: 14), cornerRadius: 4))
            c.rotate(by: 0.3)
            c.draw(FocusedParityTests.testImage(width: 6, height: 5), in: Rect(x: 20, y: 4, width: 12, height: 10))
        }
        try check("shadow-large-blur", width: 72, height: 72) { c in
            c.setShadow(offset: Size(width: -5, height: 7), blur: 40)
            c.setFillColor(Color(red: 0.2, green: 0.5, blue: 0.9))
            c.fill(Path(ellipseIn: Rect(x: 20, y: 16, width: 30, height: 30)))
            c.setBlendMode(.multiply)
            c.drawRadialGradient(stops: [GradientStop(offset: 0, color: .white), GradientStop(offset: 1, color: Color(red: 1, green: 0, blue: 0, alpha: 0.5))],
                                 startCenter: Point(x: 36, y: 36), startRadius: 2, endCenter: Point(x: 40, y: 30), endRadius: 20,
                                 extendStart: false, extendEnd: false)
        }
        try check("shadow-outside-canvas", width: 40, height: 40) { c in
            c.setShadow(offset: Size(width: 30.5, height: 0), blur: 3)
            c.fill(Path(rect: Rect(x: -30, y: 10, width: 25, height: 20)))
        }
        // Clipped to a corner of its reach: the caster plane is only the clip's region of interest.
        try check("shadow-clipped-small", width: 96, height: 80) { c in
            c.clip(to: Path(rect: Rect(x: 70, y: 58, width: 13, height: 11)))
            c.setShadow(offset: Size(width: 4, height: 6), blur: 14, color: Color(red: 0, green: 0.1, blue: 0.2, alpha: 0.7))
            c.fill(Path(ellipseIn: Rect(x: 6, y: 4, width: 70, height: 60)))
            c.drawLinearGradient(stops: [GradientStop(offset: 0, color: .white), GradientStop(offset: 1, color: Color(red: 0, green: 0.5, blue: 0, alpha: 0.4))],
                                 start: Point(x: 60, y: 50), end: Point(x: 90, y: 75), extendStart: true, extendEnd: true)
        }
    }

    func testNineSliceTemplateFlipAndCrop() throws {
        let image = FocusedParityTests.testImage(width: 12, height: 10)
        for mode in ResizingMode.allCases {
            try check("nine-slice-\(mode.rawValue)", width: 64, height: 48, scale: 2) { c in
                c.draw(image.resizable(capInsets: EdgeInsets(top: 3, left: 2, bottom: 2, right: 4), mode: mode),
                       in: Rect(x: 1.5, y: 2, width: 28, height: 19))
                c.draw(image.resizable(capInsets: EdgeInsets(top: 4, left: 5, bottom: 5, right: 5), mode: mode),
                       in: Rect(x: 2, y: 15, width: 6, height: 5))
            }
        }
        try check("template-flip-crop", width: 64, height: 48) { c in
            c.draw(image.withRenderingMode(.template, tint: Color(red: 0.1, green: 0.6, blue: 0.3, alpha: 0.8)),
                   in: Rect(x: 2, y: 2, width: 24, height: 20))
            c.draw(image.flippedHorizontally(), in: Rect(x: 30, y: 2, width: 30, height: 20))
            if let cropped = image.cropped(to: Rect(x: 2.5, y: 1, width: 6, height: 7)) {
                c.translateBy(x: 10, y: 40); c.rotate(by: -0.4)
                c.draw(cropped.resizable(capInsets: EdgeInsets(top: 2, left: 2, bottom: 2, right: 2), mode: .tile).flippedHorizontally(),
                       in: Rect(x: 0, y: -10, width: 40, height: 12))
            }
        }
    }

    func testGradientsWithEveryExtendFlag() throws {
        let stops = [GradientStop(offset: 0, color: Color(red: 1, green: 0, blue: 0, alpha: 0.5)),
                     GradientStop(offset: 0.4, color: Color(red: 0, green: 1, blue: 0)),
                     GradientStop(offset: 0.4, color: Color(red: 0, green: 0, blue: 1)),
                     GradientStop(offset: 1, color: Color(red: 1, green: 1, blue: 1, alpha: 0.2))]
        for (start, end) in [(false, false), (true, false), (false, true), (true, true)] {
            try check("gradients-\(start)-\(end)", width: 64, height: 64) { c in
                c.saveGState()
                c.clip(to: Path(ellipseIn: Rect(x: 2, y: 2, width: 60, height: 30)))
                c.drawLinearGradient(stops: stops, start: Point(x: 16, y: 8), end: Point(x: 44, y: 20), extendStart: start, extendEnd: end)
                c.restoreGState()
                c.drawRadialGradient(stops: stops, startCenter: Point(x: 20, y: 48), startRadius: 3,
                                     endCenter: Point(x: 30, y: 44), endRadius: 14, extendStart: start, extendEnd: end)
                c.drawRadialGradient(stops: stops, startCenter: Point(x: 50, y: 50), startRadius: 10,
                                     endCenter: Point(x: 54, y: 52), endRadius: 2, extendStart: start, extendEnd: end)
            }
        }
    }

    func testClipsAndNestedLayersWithShadowsAndAlpha() throws {
        try check("clips-layers", width: 64, height: 64, scale: 1.25) { c in
            c.clip(to: Path(ellipseIn: Rect(x: 0, y: 0, width: 48, height: 50)))
            c.setAlpha(0.8)
            c.setShadow(offset: Size(width: 2.5, height: 3.25), blur: 2)
            c.beginTransparencyLayer()
            c.setFillColor(Color(red: 0.8, green: 0.1, blue: 0.6, alpha: 0.9))
            c.fill(Path(rect: Rect(x: 6, y: 6, width: 30, height: 22)))
            c.clip(to: Path(roundedRect: Rect(x: 10, y: 10, width: 30, height: 30), cornerRadius: 8), using: .evenOdd)
            c.setBlendMode(.screen)
            c.setShadow(offset: Size(width: -1.5, height: 2), blur: 1.5)
            c.beginTransparencyLayer()
            c.setFillColor(Color(red: 0.1, green: 0.7, blue: 0.2, alpha: 0.7))
            c.fill(Path(ellipseIn: Rect(x: 14, y: 14, width: 30, height: 26)))
            c.endTransparencyLayer()
            c.endTransparencyLayer()
        }
    }
}
