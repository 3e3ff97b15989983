// The SVG reader on small documents: what it draws (pixels read back from the CPU renderer)
// and what it rejects (hostile documents, each an error naming the element).
import Foundation
import XCTest
import Penumbra
import PenumbraCPU
@testable import PenumbraSVG

enum SVGTestSupport {
    static func render(_ text: String, width: Int = 20, height: Int = 20, base: String? = nil, assets: String? = nil) throws -> Bitmap {
        let doc = try SVGDocument(bytes: Array(text.utf8), baseDirectory: base, assetsDirectory: assets, codecs: .standard)
        let ctx = GraphicsContext(pixelWidth: width, pixelHeight: height)
        try doc.draw(in: ctx, width: Double(width), height: Double(height))
        return try CPURenderer().render(ctx.displayList)
    }

    /// The premultiplied RGBA of one pixel.
    static func pixel(_ b: Bitmap, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * b.width + x) * 4
        return Array(b.pixels[i..<i + 4])
    }

    static func svg(_ body: String, size: Int = 20, extra: String = "") -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"\(size)\" height=\"\(size)\" \(extra)>\(body)</svg>"
    }

    static func error(_ text: String, file: StaticString = #filePath, line: UInt = #line, base: String? = nil,
                      assets: String? = nil) -> SVGError? {
        do {
            _ = try render(text, base: base, assets: assets)
            XCTFail("expected an SVGError", file: file, line: line)
            return nil
        } catch let e as SVGError {
            return e
        } catch {
            XCTFail("expected an SVGError, got \(error)", file: file, line: line)
            return nil
        }
    }
}

final class SVGRenderTests: XCTestCase {
    typealias S = SVGTestSupport

    func testRectFillColourAtAPixel() throws {
        let b = try S.render(S.svg("<rect x='5' y='5' width='10' height='10' fill='#ff0000'/>"))
        XCTAssertEqual(S.pixel(b, 10, 10), [255, 0, 0, 255])
        XCTAssertEqual(S.pixel(b, 2, 2), [0, 0, 0, 0])
    }

    func testColourSyntaxes() throws {
        for (paint, want) in [("rgb(0, 0, 255)", [0, 0, 255, 255]), ("#0f0", [0, 255, 0, 255]), ("green", [0, 128, 0, 255]),
                              ("hsl(120, 100%, 25%)", [0, 128, 0, 255]), ("rgba(255,0,0,0.5)", [128, 0, 0, 128])] as [(String, [UInt8])] {
            let b = try S.render(S.svg("<rect width='20' height='20' fill='\(paint)'/>"))
            XCTAssertEqual(S.pixel(b, 10, 10), want, paint)
        }
    }

    func testViewBoxScalesTheDocument() throws {
        // A 10x10 viewBox on a 20x20 canvas: the rect at (5,5) of size 5 covers pixels 10..19.
        let b = try S.render(S.svg("<rect x='5' y='5' width='5' height='5' fill='blue'/>", extra: "viewBox='0 0 10 10'"))
        XCTAssertEqual(S.pixel(b, 15, 15), [0, 0, 255, 255])
        XCTAssertEqual(S.pixel(b, 8, 8), [0, 0, 0, 0])
    }

    func testUseOfDefsWithOffset() throws {
        let b = try S.render(S.svg("<defs><rect id='r' width='5' height='5' fill='lime'/></defs><use href='#r' x='10' y='10'/>"))
        XCTAssertEqual(S.pixel(b, 12, 12), [0, 255, 0, 255])
        XCTAssertEqual(S.pixel(b, 2, 2), [0, 0, 0, 0])
    }

    func testStyleSheetAndInheritance() throws {
        let b = try S.render(S.svg("<style>.a { fill: blue } #b { fill: red !important }</style>"
            + "<g fill='green'><rect width='10' height='20'/><rect class='a' x='10' width='10' height='10'/>"
            + "<rect id='b' class='a' x='10' y='10' width='10' height='10' style='fill: yellow'/></g>"))
        XCTAssertEqual(S.pixel(b, 5, 5), [0, 128, 0, 255])
        XCTAssertEqual(S.pixel(b, 15, 5), [0, 0, 255, 255])
        XCTAssertEqual(S.pixel(b, 15, 15), [255, 0, 0, 255])
    }

    func testLinearGradientEnds() throws {
        let b = try S.render(S.svg("<linearGradient id='g'><stop offset='0' stop-color='red'/><stop offset='1' stop-color='blue'/></linearGradient>"
            + "<rect width='20' height='20' fill='url(#g)'/>", size: 20), width: 20, height: 20)
        let left = S.pixel(b, 0, 10), right = S.pixel(b, 19, 10)
        XCTAssertGreaterThan(left[0], 230); XCTAssertLessThan(left[2], 25)
        XCTAssertGreaterThan(right[2], 230); XCTAssertLessThan(right[0], 25)
    }

    func testClipPathLimitsTheFill() throws {
        let b = try S.render(S.svg("<clipPath id='c'><rect width='10' height='20'/></clipPath>"
            + "<rect width='20' height='20' fill='blue' clip-path='url(#c)'/>"))
        XCTAssertEqual(S.pixel(b, 5, 10), [0, 0, 255, 255])
        XCTAssertEqual(S.pixel(b, 15, 10), [0, 0, 0, 0])
    }

    func testClipPathOfTwoShapesIsTheirUnion() throws {
        let b = try S.render(S.svg("<clipPath id='c'><rect width='5' height='20'/><rect x='15' width='5' height='20'/></clipPath>"
            + "<rect width='20' height='20' fill='blue' clip-path='url(#c)'/>"))
        XCTAssertEqual(S.pixel(b, 2, 10), [0, 0, 255, 255])
        XCTAssertEqual(S.pixel(b, 17, 10), [0, 0, 255, 255])
        XCTAssertEqual(S.pixel(b, 10, 10), [0, 0, 0, 0])
    }

    func testGroupOpacityEqualsAnExplicitLayer() throws {
        let b = try S.render(S.svg("<g opacity='0.5'><rect width='15' height='15' fill='red'/><rect x='5' y='5' width='15' height='15' fill='blue'/></g>"))
        let ctx = GraphicsContext(pixelWidth: 20, pixelHeight: 20)
        ctx.setAlpha(0.5)
        ctx.beginTransparencyLayer()
        ctx.setFillColor(Color(red: 1, green: 0, blue: 0)); ctx.fill(Path(rect: Rect(x: 0, y: 0, width: 15, height: 15)))
        ctx.setFillColor(Color(red: 0, green: 0, blue: 1)); ctx.fill(Path(rect: Rect(x: 5, y: 5, width: 15, height: 15)))
        ctx.endTransparencyLayer()
        let want = try CPURenderer().render(ctx.displayList)
        XCTAssertEqual(b.pixels, want.pixels)
        // The overlap shows blue only at half alpha: no red shines through.
        XCTAssertEqual(S.pixel(b, 10, 10)[0], 0)
    }

    func testStrokeWidthAndDisplayNone() throws {
        let b = try S.render(S.svg("<line x1='0' y1='10' x2='20' y2='10' stroke='black' stroke-width='4'/>"
            + "<rect width='20' height='5' fill='red' display='none'/>"))
        XCTAssertEqual(S.pixel(b, 10, 9), [0, 0, 0, 255])
        XCTAssertEqual(S.pixel(b, 10, 2), [0, 0, 0, 0])
    }

    func testSwitchPicksEnglish() throws {
        let b = try S.render(S.svg("<switch><rect systemLanguage='ru' width='20' height='20' fill='red'/>"
            + "<rect systemLanguage='en-US' width='20' height='20' fill='lime'/></switch>"))
        XCTAssertEqual(S.pixel(b, 10, 10), [0, 255, 0, 255])
    }

    func testDocumentSizeFromUnits() throws {
        let doc = try SVGDocument(bytes: Array("<svg xmlns='http://www.w3.org/2000/svg' width='1in' height='72pt'/>".utf8))
        XCTAssertEqual(doc.size.width, 96, accuracy: 1e-9)
        XCTAssertEqual(doc.size.height, 96, accuracy: 1e-9)
        let box = try SVGDocument(bytes: Array("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 30 40'/>".utf8))
        XCTAssertEqual(box.size, Size(width: 30, height: 40))
    }

    func testDataURIImageIsDrawn() throws {
        let red = Bitmap(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 16).enumerated().map { $0.offset % 4 == 0 || $0.offset % 4 == 3 ? 255 : 0 })
        let png = Data(try PNGCodec.encode(red)).base64EncodedString()
        let b = try S.render(S.svg("<image width='20' height='20' href='data:image/png;base64,\(png)'/>"))
        XCTAssertEqual(S.pixel(b, 10, 10), [255, 0, 0, 255])
    }

    func testPatternTilesTheFill() throws {
        let b = try S.render(S.svg("<pattern id='p' width='10' height='10' patternUnits='userSpaceOnUse'>"
            + "<rect width='5' height='5' fill='red'/></pattern><rect width='20' height='20' fill='url(#p)'/>"))
        XCTAssertEqual(S.pixel(b, 2, 2), [255, 0, 0, 255])
        XCTAssertEqual(S.pixel(b, 12, 12), [255, 0, 0, 255])
        XCTAssertEqual(S.pixel(b, 12, 2), [255, 0, 0, 255])
        XCTAssertEqual(S.pixel(b, 7, 7), [0, 0, 0, 0])
    }

    func testTransformOriginRotatesAboutTheCentre() throws {
        // A half-width rect turned 180 degrees about the canvas centre lands on the other half.
        let b = try S.render(S.svg("<rect width='10' height='20' fill='blue' transform='rotate(180)' transform-origin='10 10'/>"))
        XCTAssertEqual(S.pixel(b, 15, 10), [0, 0, 255, 255])
        XCTAssertEqual(S.pixel(b, 5, 10), [0, 0, 0, 0])
    }

    // MARK: Hostile documents

    func testBillionLaughsIsRejectedNamingTheDoctype() {
        var doc = "<?xml version='1.0'?><!DOCTYPE svg [<!ENTITY lol 'lol'>"
        for i in 1...9 { doc += "<!ENTITY lol\(i) '" + String(repeating: "&lol\(i - 1 == 0 ? "" : String(i - 1));", count: 10) + "'>" }
        doc += "]><svg xmlns='http://www.w3.org/2000/svg'><text>&lol9;</text></svg>"
        let e = S.error(doc)
        XCTAssertEqual(e?.element, "<!DOCTYPE>")
        XCTAssertTrue(e?.message.contains("entities") ?? false)
    }

    func testExternalEntityIsRejected() {
        let e = S.error("<?xml version='1.0'?><!DOCTYPE svg [<!ENTITY x SYSTEM 'file:///etc/passwd'>]><svg xmlns='http://www.w3.org/2000/svg'>&x;</svg>")
        XCTAssertEqual(e?.element, "<!DOCTYPE>")
    }

    func testDeepNestingIsRejected() {
        let doc = "<svg xmlns='http://www.w3.org/2000/svg'>" + String(repeating: "<g>", count: 230) + String(repeating: "</g>", count: 230) + "</svg>"
        let e = S.error(doc)
        XCTAssertEqual(e?.element, "<g>")
        XCTAssertTrue(e?.message.contains("nested deeper") ?? false, "\(String(describing: e))")
    }

    func testUseCycleIsAnErrorNamingTheUse() {
        let e = S.error(S.svg("<g id='a'><use id='u' href='#b'/></g><g id='b'><use id='v' href='#a'/></g>"))
        XCTAssertNotNil(e)
        XCTAssertTrue(e?.element.hasPrefix("<use") ?? false, "\(String(describing: e))")
        XCTAssertTrue(e?.message.contains("cycle") ?? false)
    }

    func testUseFanOutIsBounded() {
        // Ten levels of ten uses each: 10^10 instances without a budget.
        var defs = "<rect id='l0' width='1' height='1'/>"
        for i in 1...10 {
            defs += "<g id='l\(i)'>" + String(repeating: "<use href='#l\(i - 1)'/>", count: 10) + "</g>"
        }
        let start = Date()
        let e = S.error(S.svg("<defs>\(defs)</defs><use id='top' href='#l10'/>"))
        XCTAssertTrue(e?.message.contains("fan-out") ?? false, "\(String(describing: e))")
        XCTAssertTrue(e?.element.hasPrefix("<use") ?? false)
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
    }

    func testPathWithMillionsOfCommandsIsRejected() {
        let d = "M0 0" + String(repeating: "L1 1", count: 1_200_000)
        let e = S.error(S.svg("<path id='huge' d='\(d)'/>"))
        XCTAssertEqual(e?.element, "<path id=\"huge\">")
        XCTAssertTrue(e?.message.contains("limit") ?? false)
    }

    func testReferenceOutsideTheAssetsFolderIsRejected() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("svg-assets-\(getpid())")
        let inner = dir.appendingPathComponent("inner")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(try PNGCodec.encode(Bitmap(width: 1, height: 1))).write(to: dir.appendingPathComponent("outside.png"))
        let e = S.error(S.svg("<image id='im' width='5' height='5' href='../outside.png'/>"), base: inner.path, assets: inner.path)
        XCTAssertEqual(e?.element, "<image id=\"im\">")
        XCTAssertTrue(e?.message.contains("outside the assets folder") ?? false, "\(String(describing: e))")
        // The same file is fine when the assets folder holds it.
        XCTAssertNoThrow(try S.render(S.svg("<image width='5' height='5' href='../outside.png'/>"), base: inner.path, assets: dir.path))
    }

    func testURLIsNeverFetched() {
        let e = S.error(S.svg("<image id='net' width='5' height='5' href='http://127.0.0.1:9/x.png'/>"))
        XCTAssertEqual(e?.element, "<image id=\"net\">")
        XCTAssertTrue(e?.message.contains("never fetched") ?? false)
    }

    func testMalformedXMLNamesTheDocument() {
        let e = S.error("<svg xmlns='http://www.w3.org/2000/svg'><rect></svg>")
        XCTAssertEqual(e?.element, "<svg>")
        XCTAssertTrue(e?.message.contains("malformed XML") ?? false)
    }
}
