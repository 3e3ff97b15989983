import XCTest
import PenumbraTestSupport
@testable import PenumbraText
import Penumbra
import PenumbraCPU

/// Text draws as one transparency layer; the layer is bounded by a whole-pixel clip around its
/// content and shadow to save compositing the whole plane. This must change no byte: random texts
/// under random transforms, alphas, every blend mode, shadows and clips render identically with
/// and without the bound.
final class BoundedLayerTests: XCTestCase {
    func testBoundingTheLayerChangesNoByte() throws {
        var random = SplitMix64(state: 0x7E47)
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        func color() -> Color { Color(red: unit(), green: unit(), blue: unit(), alpha: unit() < 0.3 ? 1 : unit()) }
        let texts = ["Hello, world!", "office fi", "שלום abc", "Wy 😀", "AV\nTa"]
        let cpu = CPURenderer()
        for i in 0..<(4 * BlendMode.allCases.count) {
            let mode = BlendMode.allCases[i % BlendMode.allCases.count]
            let string = texts[Int(random.next() % UInt64(texts.count))]
            let layout = try TextLayout(AttributedText(runs: [AttributedText.Run(string, font: Font(family: "DejaVu Sans", size: 6 + 20 * unit()),
                                                                                 color: unit() < 0.5 ? color() : nil, underline: unit() < 0.3)]),
                                        placement: .at(Point(5 * unit(), 5 * unit()), maxWidth: unit() < 0.5 ? 40 : nil))
            var images: [Bitmap] = []
            let background: Color? = i % 3 == 0 ? nil : color(), fill = color()
            for bounded in [true, false] {
                let context = GraphicsContext(pixelWidth: 48, pixelHeight: 40, scale: 1, background: background)
                var r2 = SplitMix64(state: UInt64(i))
                func u() -> Double { Double(r2.next() >> 11) / Double(1 << 53) }
                if u() < 0.5 { var p = Path(); p.addEllipse(in: Rect(x: 4, y: 2, width: 40 * u() + 4, height: 30 * u() + 4)); context.clip(to: p) }
                context.concatenate(AffineTransform(rotationAngle: u() - 0.5))
                context.setBlendMode(mode)
                if u() < 0.5 { context.setAlpha(u()) }
                if u() < 0.5 { context.setShadow(offset: Size(width: 8 * u() - 4, height: 8 * u() - 4), blur: 4 * u()) }
                context.setFillColor(fill)
                context.draw(layout.drawing, boundingTheLayer: bounded)
                images.append(try cpu.render(context.displayList))
            }
            let differing = zip(images[0].pixels, images[1].pixels).filter { $0 != $1 }.count
            XCTAssertEqual(differing, 0, "case \(i): \(mode) \(string): \(differing) values differ")
        }
    }
}
