// A transparency layer ended as a backdrop mask on the CPU (BackdropMask.swift,
// CPURenderer+Backdrop.swift): inside the layer's frame each pixel becomes
// div255(d (255 - m) + F(d) m), F = colorControls(s, b, contrast 1) of the
// backdrop and m = the layer's alpha (times the clip of the layer's
// beginning); elsewhere nothing changes; the alpha, blend mode and shadow of
// the beginning do not apply; an empty layer changes nothing; it works inside
// another layer. The expected bytes are computed here from their parts: the
// backdrop rendered alone, the layer's content rendered alone (its alpha),
// the clip's coverage (a white fill of the clip's path), F by FilterEvaluator
// over the backdrop, mixed by the documented formula.

import Foundation
import PenumbraModel
import PenumbraCore
import PenumbraCPU
import XCTest

final class BackdropMaskTests: XCTestCase {
    static let width = 48, height = 32
    static let vibrancy = BackdropMaskFilter(saturation: 1.6, brightness: 0.25)

    /// Opaque vertical stripes of known colours over the whole canvas.
    static func backdrop(_ context: GraphicsContext) {
        let colors = [Color(red: 0.8, green: 0.2, blue: 0.1), Color(red: 0.1, green: 0.3, blue: 0.9),
                      Color(red: 0.4, green: 0.7, blue: 0.2), Color(red: 0.5, green: 0.5, blue: 0.5)]
        for i in 0..<8 {
            context.setFillColor(colors[i % colors.count])
            context.fill(Path(rect: Rect(x: Double(i) * 6, y: 0, width: 6, height: Double(height))))
        }
    }

    /// The layer's content: alpha 255 over x 6..<18, about 128 over x 18..<30, and a fully
    /// transparent fill over x 30..<40 (alpha 0 inside the layer's frame), rows 4..<28.
    static func content(_ context: GraphicsContext) {
        context.setFillColor(Color(red: 0.2, green: 0.9, blue: 0.4))
        context.fill(Path(rect: Rect(x: 6, y: 4, width: 12, height: 24)))
        context.setFillColor(Color(red: 1, green: 0, blue: 0, alpha: 0.5))
        context.fill(Path(rect: Rect(x: 18, y: 4, width: 12, height: 24)))
        context.setFillColor(.clear)
        context.fill(Path(rect: Rect(x: 30, y: 4, width: 10, height: 24)))
    }

    static func render(_ draw: (GraphicsContext) -> Void) throws -> Bitmap {
        let context = GraphicsContext(pixelWidth: width, pixelHeight: height, scale: 1, background: nil)
        draw(context)
        return try CPURenderer().render(context.displayList)
    }

    static func div255(_ x: Int) -> Int { let t = x + 128; return (t + (t >> 8)) >> 8 }

    /// The documented mix: div255(d (255 - m) + f m) per channel.
    static func mix(_ d: SIMD4<UInt8>, _ f: SIMD4<UInt8>, _ m: Int) -> SIMD4<UInt8> {
        var out = SIMD4<UInt8>()
        for k in 0..<4 { out[k] = UInt8(div255(Int(d[k]) * (255 - m) + Int(f[k]) * m)) }
        return out
    }

    /// F over `backdrop` (the whole of it).
    static func filtered(_ backdrop: Bitmap, _ filter: BackdropMaskFilter = vibrancy) throws -> Bitmap {
        try FilterEvaluator(services: .cpu).render(
            .filtered(.bitmap(backdrop), .colorControls(saturation: filter.saturation, brightness: filter.brightness, contrast: 1)),
            in: PixelRect(x: 0, y: 0, width: backdrop.width, height: backdrop.height))
    }

    func testTheLayersAlphaMixesTheBackdropWithItsFilteredSelf() throws {
        let backdrop = try Self.render(Self.backdrop)
        let layer = try Self.render(Self.content)
        let f = try Self.filtered(backdrop)
        XCTAssertEqual(layer[10, 10][3], 255)
        XCTAssertEqual(layer[20, 10][3], 128)
        XCTAssertEqual(layer[35, 10][3], 0)

        let out = try Self.render { c in
            Self.backdrop(c)
            c.setAlpha(0.3)
            c.setBlendMode(.multiply)
            c.setShadow(offset: Size(width: 4, height: 4), blur: 3, color: .black)  // none of them applies
            c.beginTransparencyLayer()
            Self.content(c)
            c.endTransparencyLayer(maskingBackdropWith: Self.vibrancy)
            XCTAssertEqual(c.state.alpha, 0.3, "the state of the layer's beginning is restored")
        }
        var changed = 0, between = 0
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                let m = Int(layer[x, y][3])
                let expected = Self.mix(backdrop[x, y], f[x, y], m)
                XCTAssertEqual(out[x, y], expected, "(\(x), \(y)) m \(m)")
                if m == 0 { XCTAssertEqual(out[x, y], backdrop[x, y], "(\(x), \(y)) unchanged") }
                if m == 255 { XCTAssertEqual(out[x, y], f[x, y], "(\(x), \(y)) replaced") }
                if out[x, y] != backdrop[x, y] { changed += 1 }
                if m == 128, out[x, y] != backdrop[x, y], out[x, y] != f[x, y] { between += 1 }
            }
        }
        XCTAssertEqual(changed, 24 * 24, "the two masked rectangles change, nothing else")
        XCTAssertGreaterThan(between, 0, "alpha 128 gives neither the backdrop nor its filtered self")
        // F is not the identity on these colours (the test could not see a missing filter otherwise).
        XCTAssertNotEqual(f[10, 10], backdrop[10, 10])
        // A hand-checked pixel: grey 128 (0.5) keeps its luma under saturation; + 0.25 brightness is 0.75: 192.
        XCTAssertEqual(f[44, 10], SIMD4(192, 192, 192, 255))
        XCTAssertEqual(out[44, 10], backdrop[44, 10], "outside the layer's frame")
    }

    func testTheClipOfTheBeginningMultipliesTheMask() throws {
        let clipPath = Path(roundedRect: Rect(x: 8, y: 6, width: 28, height: 20), cornerRadius: 7)
        let backdrop = try Self.render(Self.backdrop)
        let layer = try Self.render(Self.content)
        let clip = try Self.render { c in c.setFillColor(.white); c.fill(clipPath) }
        let f = try Self.filtered(backdrop, BackdropMaskFilter(saturation: 0.3, brightness: -0.2))
        let out = try Self.render { c in
            Self.backdrop(c)
            c.clip(to: clipPath)
            c.beginTransparencyLayer()
            Self.content(c)
            c.endTransparencyLayer(maskingBackdropWith: BackdropMaskFilter(saturation: 0.3, brightness: -0.2))
        }
        var partial = 0
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                let a = Int(layer[x, y][3]), c = Int(clip[x, y][3])
                let m = Self.div255(a * c)
                if c > 0 && c < 255 && a > 0 { partial += 1 }
                XCTAssertEqual(out[x, y], Self.mix(backdrop[x, y], f[x, y], m), "(\(x), \(y)) a \(a) clip \(c)")
            }
        }
        XCTAssertGreaterThan(partial, 8, "the rounded corners' partial coverage is tested")
        XCTAssertEqual(out[7, 10], backdrop[7, 10], "inside the layer, outside the clip")
        XCTAssertEqual(out[12, 12], f[12, 12], "inside both")
    }

    func testAnEmptyLayerChangesNothing() throws {
        let backdrop = try Self.render(Self.backdrop)
        let empty = try Self.render { c in
            Self.backdrop(c)
            c.beginTransparencyLayer()
            c.endTransparencyLayer(maskingBackdropWith: Self.vibrancy)
        }
        XCTAssertEqual(empty.pixels, backdrop.pixels)
        let transparent = try Self.render { c in
            Self.backdrop(c)
            c.beginTransparencyLayer()
            c.setFillColor(.clear)
            c.fill(Path(rect: Rect(x: 0, y: 0, width: 48, height: 32)))
            c.endTransparencyLayer(maskingBackdropWith: Self.vibrancy)
        }
        XCTAssertEqual(transparent.pixels, backdrop.pixels)
    }

    /// Inside another layer the mask works on that layer's pixels (its target), which is then
    /// composited as usual.
    func testNestedInsideAnotherLayer() throws {
        let backdrop = try Self.render(Self.backdrop)
        // The outer layer's content before the mask: a translucent disc off the origin.
        func outerContent(_ c: GraphicsContext) {
            c.setFillColor(Color(red: 0.9, green: 0.6, blue: 0.1, alpha: 0.7))
            c.fill(Path(ellipseIn: Rect(x: 12, y: 3, width: 30, height: 26)))
        }
        let outer = try Self.render(outerContent)
        let layer = try Self.render(Self.content)
        let f = try Self.filtered(outer)
        let out = try Self.render { c in
            Self.backdrop(c)
            c.beginTransparencyLayer()
            outerContent(c)
            c.beginTransparencyLayer()
            Self.content(c)
            c.endTransparencyLayer(maskingBackdropWith: Self.vibrancy)
            c.endTransparencyLayer()
        }
        var masked = 0
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                let m = Int(layer[x, y][3])
                let inner = Self.mix(outer[x, y], f[x, y], m)
                if m > 0, inner != outer[x, y] { masked += 1 }
                let expected = BlendMode.normal.blend(source: SIMD4<Int32>(truncatingIfNeeded: inner),
                                                      destination: SIMD4<Int32>(truncatingIfNeeded: backdrop[x, y]))
                XCTAssertEqual(out[x, y], SIMD4<UInt8>(truncatingIfNeeded: expected), "(\(x), \(y))")
            }
        }
        XCTAssertGreaterThan(masked, 100)
    }
}
