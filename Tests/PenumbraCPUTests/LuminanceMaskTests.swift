// A transparency layer composited as a luminance mask (LuminanceMask.swift) on the CPU: the
// formula itself at known colours, the command the context records, and known pixels of a
// layer masked with destination-in (white keeps the content, 50% grey halves it, black and
// nothing remove it, the mask's alpha multiplies its luminance).
import XCTest
import Penumbra
import PenumbraModel
import PenumbraCore
import PenumbraCPU

final class LuminanceMaskTests: XCTestCase {
    func testTheFormulaAtKnownColours() {
        XCTAssertEqual(Fixed.luminanceAlpha(SIMD4(255, 255, 255, 255)), 255, "white is 255")
        XCTAssertEqual(Fixed.luminanceAlpha(SIMD4(128, 128, 128, 255)), 128, "an opaque grey is its level")
        XCTAssertEqual(Fixed.luminanceAlpha(SIMD4(128, 128, 128, 128)), 128, "half-transparent white")
        XCTAssertEqual(Fixed.luminanceAlpha(SIMD4(255, 0, 0, 255)), 54)
        XCTAssertEqual(Fixed.luminanceAlpha(SIMD4(0, 255, 0, 255)), 183)
        XCTAssertEqual(Fixed.luminanceAlpha(SIMD4(0, 0, 255, 255)), 18)
        XCTAssertEqual(Fixed.luminanceAlpha(SIMD4(0, 0, 0, 255)), 0, "opaque black is 0")
        // Every grey level v (opaque) maps to v: the weights sum to 255.
        for v in 0...255 {
            let c = UInt8(v)
            XCTAssertEqual(Fixed.luminanceAlpha(SIMD4(c, c, c, 255)), c)
        }
    }

    func testTheContextRecordsTheCommand() {
        let c = GraphicsContext(pixelWidth: 4, pixelHeight: 4)
        c.beginTransparencyLayer()
        c.endTransparencyLayerConvertingLuminanceToAlpha()
        guard case .endLayerConvertingLuminanceToAlpha = c.displayList.commands.last else {
            return XCTFail("\(c.displayList.commands)")
        }
        XCTAssertEqual(c.openLayerCount, 0)
    }

    /// Red content 20 x 20 under a luminance mask: white on the left third, 50% grey in the
    /// middle, half-transparent white at the right below y = 10 and opaque black above it.
    static func masked() -> DisplayList {
        let c = GraphicsContext(pixelWidth: 30, pixelHeight: 20)
        c.beginTransparencyLayer()
        c.setFillColor(Color(red: 1, green: 0, blue: 0))
        c.fill(Path(rect: Rect(x: 0, y: 0, width: 30, height: 20)))
        c.setBlendMode(.destinationIn)
        c.beginTransparencyLayer()
        c.setFillColor(Color(red: 1, green: 1, blue: 1))
        c.fill(Path(rect: Rect(x: 0, y: 0, width: 10, height: 16)))
        c.setFillColor(Color(red: 128.0 / 255, green: 128.0 / 255, blue: 128.0 / 255))
        c.fill(Path(rect: Rect(x: 10, y: 0, width: 10, height: 16)))
        c.setFillColor(Color(red: 0, green: 0, blue: 0))
        c.fill(Path(rect: Rect(x: 20, y: 0, width: 10, height: 10)))
        c.setFillColor(Color(red: 1, green: 1, blue: 1, alpha: 128.0 / 255))
        c.fill(Path(rect: Rect(x: 20, y: 10, width: 10, height: 6)))
        c.endTransparencyLayerConvertingLuminanceToAlpha()
        c.endTransparencyLayer()
        return c.displayList
    }

    func testKnownPixelsOfAMaskedLayer() throws {
        let b = try CPURenderer().render(Self.masked())
        func px(_ x: Int, _ y: Int) -> [UInt8] { let i = (y * b.width + x) * 4; return Array(b.pixels[i..<i + 4]) }
        XCTAssertEqual(px(5, 5), [255, 0, 0, 255], "white keeps the content")
        XCTAssertEqual(px(15, 5), [128, 0, 0, 128], "50% grey halves it: div255(255 x 128)")
        XCTAssertEqual(px(25, 5), [0, 0, 0, 0], "opaque black removes it")
        XCTAssertEqual(px(25, 12), [128, 0, 0, 128], "half-transparent white halves it")
        XCTAssertEqual(px(5, 18), [0, 0, 0, 0], "outside the mask's content nothing is left")
    }

    func testAPlainEndKeepsTheAlphaInstead() throws {
        // The same list with the mask ended as a plain layer: an alpha mask (black keeps all).
        var list = Self.masked()
        guard let i = list.commands.firstIndex(where: {
            if case .endLayerConvertingLuminanceToAlpha = $0 { return true } else { return false }
        }) else { return XCTFail("no luminance end") }
        list.commands[i] = .endLayer
        let b = try CPURenderer().render(list)
        let k = (5 * b.width + 25) * 4
        XCTAssertEqual(Array(b.pixels[k..<k + 4]), [255, 0, 0, 255])
    }
}
