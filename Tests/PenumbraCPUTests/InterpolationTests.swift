// InterpolationTests: drawImage's `interpolation` on the CPU reference
// renderer: 1:1 draws reproduce the pixels whatever the mode, `none` takes
// the lower texel on an exact boundary where `low` mixes, a mipmapped draw at
// a quarter samples level 2 exactly, a nine-slice region samples its own
// chain, and a mipmapped draw equals its scene form.
import XCTest
@testable import PenumbraCPU
import PenumbraModel
import PenumbraCore

final class InterpolationTests: XCTestCase {
    func randomImage(_ w: Int, _ h: Int, seed: UInt64) -> Image {
        var state = seed
        func next() -> UInt8 { state = state &* 6364136223846793005 &+ 1442695040888963407; return UInt8(truncatingIfNeeded: state >> 56) }
        var b = Bitmap(width: w, height: h)
        for y in 0..<h { for x in 0..<w {
            let a = (x + y) % 7 == 0 ? 0 : ((x * y) % 5 == 0 ? 255 : next())
            b[x, y] = SIMD4(premultiply(next(), alpha: a), premultiply(next(), alpha: a), premultiply(next(), alpha: a), a)
        } }
        return Image(bitmap: b)
    }

    func render(_ w: Int, _ h: Int, _ draw: (GraphicsContext) -> Void) throws -> Bitmap {
        let context = GraphicsContext(pixelWidth: w, pixelHeight: h)
        draw(context)
        return try CPURenderer().render(context.displayList)
    }

    func testOneToOneDrawsReproduceThePixelsInEveryMode() throws {
        let image = randomImage(13, 9, seed: 4)
        for mode in ImageInterpolation.allCases {
            let out = try render(20, 20) { $0.draw(image, at: Point(3, 5), interpolation: mode) }
            for y in 0..<9 { for x in 0..<13 { XCTAssertEqual(out[x + 3, y + 5], image.bitmap[x, y], "\(mode) (\(x), \(y))") } }
        }
    }

    func testNoneTakesTheLowerTexelOnAnExactBoundaryWhereLowMixes() throws {
        // Four texels drawn into 2 x 1 pixels: pixel centres map to positions 1.0 and 3.0 exactly,
        // the boundaries between texels 0|1 and 2|3.
        var b = Bitmap(width: 4, height: 1)
        b[0, 0] = SIMD4(255, 0, 0, 255); b[1, 0] = SIMD4(0, 0, 255, 255)
        b[2, 0] = SIMD4(0, 255, 0, 255); b[3, 0] = SIMD4(0, 0, 0, 255)
        let image = Image(bitmap: b)
        let rect = Rect(x: 0, y: 0, width: 2, height: 1)
        let none = try render(2, 1) { $0.draw(image, in: rect, interpolation: ImageInterpolation.none) }
        XCTAssertEqual(none[0, 0], SIMD4(255, 0, 0, 255))
        XCTAssertEqual(none[1, 0], SIMD4(0, 255, 0, 255))
        let low = try render(2, 1) { $0.draw(image, in: rect, interpolation: .low) }
        XCTAssertEqual(low[0, 0], SIMD4(128, 0, 128, 255), "half of each: (255 x 128 x 256 + 2^15) >> 16")
        XCTAssertEqual(low[1, 0], SIMD4(0, 128, 0, 255))
        // `high` here: s = sqrt(1/2 x 1) > 0.5, plain bilinear.
        let high = try render(2, 1) { $0.draw(image, in: rect, interpolation: .high) }
        XCTAssertEqual(high, low)
        // Upscaled 4x: each texel covers 4 pixels; pixel 3's centre is at 0.875, pixel 4's at 1.125.
        let big = try render(16, 1) { $0.draw(image, in: Rect(x: 0, y: 0, width: 16, height: 1), interpolation: ImageInterpolation.none) }
        XCTAssertEqual(big[3, 0], b[0, 0]); XCTAssertEqual(big[4, 0], b[1, 0]); XCTAssertEqual(big[15, 0], b[3, 0])
    }

    func testMipmappedQuarterDrawSamplesLevelTwoExactly() throws {
        // Drawn at 1/4, pixel centres fall on level 2's texel centres: the output is level 2.
        let image = randomImage(64, 40, seed: 9)
        let out = try render(16, 10) { $0.draw(image, in: Rect(x: 0, y: 0, width: 16, height: 10)) }
        let full = PixelRect(x: 0, y: 0, width: 64, height: 40)
        let one = MipLevels.reduce(image.bitmap, full)
        let two = MipLevels.reduce(one, PixelRect(x: 0, y: 0, width: one.width, height: one.height))
        XCTAssertEqual(out, two)
        XCTAssertEqual(image.bitmap.mipCache.level(2, of: full, in: image.bitmap), two, "the draw used the cached chain")
        // `low` at the same size mixes level 0 and differs.
        let low = try render(16, 10) { $0.draw(image, in: Rect(x: 0, y: 0, width: 16, height: 10), interpolation: .low) }
        XCTAssertNotEqual(low, two)
    }

    func testNineSliceRegionSamplesItsOwnChain() throws {
        // Caps of 4 pixels drawn 1:1; the middle (8 x 8 texels at 4...11) squeezed into 2 x 2 pixels
        // samples level 2 of its own texels: their average, not the caps'.
        var b = Bitmap(width: 16, height: 16)
        for y in 0..<16 { for x in 0..<16 {
            let inside = (4..<12).contains(x) && (4..<12).contains(y)
            b[x, y] = inside ? SIMD4(UInt8(x * 16), UInt8(y * 16), 0, 255) : SIMD4(0, 0, 255, 255)
        } }
        let image = Image(bitmap: b).resizable(capInsets: EdgeInsets(top: 4, left: 4, bottom: 4, right: 4), mode: .stretch)
        let out = try render(10, 10) { $0.draw(image, in: Rect(x: 0, y: 0, width: 10, height: 10)) }
        let middle = PixelRect(x: 4, y: 4, width: 8, height: 8)
        let level2 = b.mipCache.level(2, of: middle, in: b)
        XCTAssertEqual(level2.width, 2)
        for y in 0..<2 { for x in 0..<2 { XCTAssertEqual(out[4 + x, 4 + y], level2[x, y], "(\(x), \(y))") } }
        XCTAssertEqual(out[0, 0], SIMD4(0, 0, 255, 255), "the caps are 1:1")
        XCTAssertEqual(out[4, 4].z, 0, "no blue from the caps in the middle")
    }

    func testTheContextsInterpolationQualityIsGraphicsState() throws {
        let image = randomImage(40, 30, seed: 6)
        let rect = Rect(x: 1, y: 1, width: 13, height: 9)
        let none = try render(16, 12) { $0.draw(image, in: rect, interpolation: ImageInterpolation.none) }
        let high = try render(16, 12) { $0.draw(image, in: rect, interpolation: .high) }
        XCTAssertNotEqual(none, high)
        XCTAssertEqual(try render(16, 12) { $0.draw(image, in: rect) }, high, "mipmapped by default")
        let state = try render(16, 12) { c in
            c.saveGState()
            c.setInterpolationQuality(ImageInterpolation.none)
            c.draw(image, in: rect)
            c.restoreGState()
        }
        XCTAssertEqual(state, none, "CGContextSetInterpolationQuality applies to later draws")
        let restored = try render(16, 12) { c in
            c.saveGState()
            c.setInterpolationQuality(ImageInterpolation.none)
            c.restoreGState()
            c.draw(image, in: rect)
        }
        XCTAssertEqual(restored, high, "restoreGState brings the default back")
    }

    func testSceneInterpolationReachesTheRenderer() throws {
        let png = try PNGCodec.encode(randomImage(40, 40, seed: 5).bitmap)
        func scene(_ mode: String) throws -> Scene {
            let json = """
                {"format": "penumbra-scene", "version": 1, "size": [12, 12], "images": {"i": "part:i"},
                 "ops": [{"op": "drawImage", "image": "i", "rect": [1, 1, 10, 10], "interpolation": "\(mode)"}]}
                """
            return try Scene.decode(Array(json.utf8), sources: ImageSources(baseDirectory: nil, parts: ["i": png]))
        }
        func rendered(_ mode: String) throws -> Bitmap { try CPURenderer().render(scene(mode).displayList()) }
        let image = try XCTUnwrap(try scene("low").images["i"])
        for mode in ImageInterpolation.allCases {
            let api = try render(12, 12) { $0.draw(image, in: Rect(x: 1, y: 1, width: 10, height: 10), interpolation: mode) }
            XCTAssertEqual(try rendered(mode.rawValue), api, mode.rawValue)
        }
        XCTAssertNotEqual(try rendered("none"), try rendered("low"))
        XCTAssertNotEqual(try rendered("low"), try rendered("high"))
        XCTAssertEqual(try rendered("high"), try rendered("default"))
    }
}
