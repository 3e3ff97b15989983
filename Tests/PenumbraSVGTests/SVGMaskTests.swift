// SVG `mask` (SVGRenderer+Masks.swift): luminance and alpha masks at known pixels, the mask
// region, content units, a mask on the mask, cycles (ignored links, as resvg) and references
// that hide the element. Colours are premultiplied RGBA read back from the CPU renderer.
import XCTest
import Penumbra
import PenumbraCPU
@testable import PenumbraSVG

final class SVGMaskTests: XCTestCase {
    typealias S = SVGTestSupport

    func testLuminanceMaskKeepsWhiteAndHalvesGrey() throws {
        let b = try S.render(S.svg("<mask id='m' maskUnits='userSpaceOnUse' x='0' y='0' width='20' height='20'>"
            + "<rect width='10' height='20' fill='white'/><rect x='10' width='10' height='10' fill='#808080'/></mask>"
            + "<rect width='20' height='20' fill='#ff0000' mask='url(#m)'/>"))
        XCTAssertEqual(S.pixel(b, 5, 5), [255, 0, 0, 255], "white keeps the element")
        XCTAssertEqual(S.pixel(b, 15, 5), [128, 0, 0, 128], "grey 128 halves it")
        XCTAssertEqual(S.pixel(b, 15, 15), [0, 0, 0, 0], "no mask content: nothing")
    }

    func testAlphaMaskIgnoresTheColour() throws {
        for type in ["mask-type='alpha'", "style='mask-type: alpha'"] {
            let b = try S.render(S.svg("<mask id='m' \(type) maskUnits='userSpaceOnUse' x='0' y='0' width='20' height='20'>"
                + "<rect width='10' height='20' fill='black'/><rect x='10' width='10' height='20' fill='black' fill-opacity='0.5'/></mask>"
                + "<rect width='20' height='20' fill='#0000ff' mask='url(#m)'/>"))
            XCTAssertEqual(S.pixel(b, 5, 5), [0, 0, 255, 255], "\(type): opaque black keeps the element")
            XCTAssertEqual(S.pixel(b, 15, 5), [0, 0, 128, 128], "\(type): half alpha halves it")
        }
        // The same black mask as luminance removes everything.
        let b = try S.render(S.svg("<mask id='m'><rect width='20' height='20' fill='black'/></mask>"
            + "<rect width='20' height='20' fill='#0000ff' mask='url(#m)'/>"))
        XCTAssertEqual(S.pixel(b, 10, 10), [0, 0, 0, 0])
    }

    func testObjectBoundingBoxRegionAndContent() throws {
        // The default region is the bbox grown by 10% each side; content in bbox units.
        let b = try S.render(S.svg("<mask id='m' maskContentUnits='objectBoundingBox'>"
            + "<rect width='0.5' height='1' fill='white'/></mask>"
            + "<rect x='4' y='4' width='12' height='12' fill='#00ff00' mask='url(#m)'/>"))
        XCTAssertEqual(S.pixel(b, 6, 10), [0, 255, 0, 255])
        XCTAssertEqual(S.pixel(b, 13, 10), [0, 0, 0, 0])
        // A region of half the bbox's width cuts the content at its edge.
        let r = try S.render(S.svg("<mask id='m' x='0' width='0.25'><rect width='20' height='20' fill='white'/></mask>"
            + "<rect x='4' y='4' width='12' height='12' fill='#00ff00' mask='url(#m)'/>"))
        XCTAssertEqual(S.pixel(r, 5, 10), [0, 255, 0, 255])
        XCTAssertEqual(S.pixel(r, 9, 10), [0, 0, 0, 0])
    }

    func testAMaskOnTheMaskMultipliesBoth() throws {
        let b = try S.render(S.svg("<mask id='a' maskUnits='userSpaceOnUse'><rect width='10' height='20' fill='white'/></mask>"
            + "<mask id='b' mask='url(#a)' maskUnits='userSpaceOnUse'><rect width='20' height='10' fill='white'/></mask>"
            + "<rect width='20' height='20' fill='#ff0000' mask='url(#b)'/>"))
        XCTAssertEqual(S.pixel(b, 5, 5), [255, 0, 0, 255])
        XCTAssertEqual(S.pixel(b, 15, 5), [0, 0, 0, 0])
        XCTAssertEqual(S.pixel(b, 5, 15), [0, 0, 0, 0])
    }

    func testCyclesAreIgnoredAndBadReferencesHide() throws {
        let plain = try S.render(S.svg("<mask id='m'><rect width='10' height='20' fill='white'/></mask>"
            + "<rect width='20' height='20' fill='#ff0000' mask='url(#m)'/>"))
        // A mask that masks itself, and an element inside a mask that refers to it: links ignored.
        let onSelf = try S.render(S.svg("<mask id='m' mask='url(#m)'><rect width='10' height='20' fill='white'/></mask>"
            + "<rect width='20' height='20' fill='#ff0000' mask='url(#m)'/>"))
        let inside = try S.render(S.svg("<mask id='m'><rect width='10' height='20' fill='white' mask='url(#m)'/></mask>"
            + "<rect width='20' height='20' fill='#ff0000' mask='url(#m)'/>"))
        XCTAssertTrue(onSelf.pixels == plain.pixels, "a mask on itself is ignored")
        XCTAssertTrue(inside.pixels == plain.pixels, "content referring to its own mask is drawn unmasked")
        // A reference to nothing is ignored; one to a non-mask, or a bbox of no height, hides.
        let missing = try S.render(S.svg("<rect width='20' height='20' fill='#ff0000' mask='url(#none)'/>"))
        XCTAssertEqual(S.pixel(missing, 15, 15), [255, 0, 0, 255])
        let notAMask = try S.render(S.svg("<linearGradient id='g'/><rect width='20' height='20' fill='#ff0000' mask='url(#g)'/>"))
        XCTAssertTrue(notAMask.pixels.allSatisfy { $0 == 0 })
        let line = try S.render(S.svg("<mask id='m'><rect width='20' height='20' fill='white'/></mask>"
            + "<line x1='0' y1='10' x2='20' y2='10' stroke='red' stroke-width='4' mask='url(#m)'/>"))
        XCTAssertTrue(line.pixels.allSatisfy { $0 == 0 })
    }

    func testMaskFanOutCountsAgainstTheUseBudget() throws {
        // Each masked element draws its mask once: many of them reach the use budget.
        var body = "<mask id='m'><rect width='20' height='20' fill='white'/></mask>"
        for _ in 0..<10_001 { body += "<rect width='1' height='1' mask='url(#m)'/>" }
        let doc = try SVGDocument(bytes: Array(S.svg(body).utf8), codecs: .standard)
        let ctx = GraphicsContext(pixelWidth: 4, pixelHeight: 4)
        XCTAssertThrowsError(try doc.draw(in: ctx, width: 4, height: 4)) { error in
            XCTAssertTrue("\(error)".contains("mask"), "\(error)")
        }
    }
}
