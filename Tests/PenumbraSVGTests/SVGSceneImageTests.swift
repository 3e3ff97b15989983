// SVG images in scenes (docs/svg.md, "SVG images in scenes"): a scene's `images` entry naming
// an .svg, .svgz or image/svg+xml data URI is drawn as vectors at whatever size the draw asks
// for; the draws that need pixels use its rasterization; its errors are the scene's, naming
// the image and the element; its references stay inside the scene's folder.
import Foundation
import XCTest
import Penumbra
import PenumbraCPU
@testable import PenumbraModel
@testable import PenumbraCore
@testable import PenumbraSVG

final class SVGSceneImageTests: XCTestCase {
    typealias S = SVGTestSupport

    /// A 10 x 10 document: its left half red, its right half blue.
    static let halves = "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'>"
        + "<rect width='5' height='10' fill='#ff0000'/><rect x='5' width='5' height='10' fill='#0000ff'/></svg>"

    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("svg-scene-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("art"), withIntermediateDirectories: true)
        try Data(Self.halves.utf8).write(to: folder.appendingPathComponent("art/halves.svg"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func scene(_ images: String, _ ops: String, size: Int = 100) throws -> Scene {
        let json = "{\"format\": \"penumbra-scene\", \"version\": 1, \"size\": [\(size), \(size)], \"images\": \(images), \"ops\": [\(ops)]}"
        return try Scene.decode(json, baseDirectory: folder.path, environment: .standard)
    }

    func render(_ scene: Scene) throws -> Bitmap { try CPURenderer().render(scene.displayList()) }

    func imageCommands(_ scene: Scene) throws -> Int {
        try scene.displayList().commands.filter { if case .image = $0 { return true } else { return false } }.count
    }

    func testDrawnAsVectorsSharpAtTenTimesItsSize() throws {
        let s = try scene("{\"logo\": \"art/halves.svg\"}", "{\"op\": \"drawImage\", \"image\": \"logo\", \"rect\": [0, 0, 100, 100]}")
        XCTAssertEqual(try imageCommands(s), 0, "a vector image records its drawing, not a bitmap")
        let b = try render(s)
        // A 10 px bitmap scaled 10x would blend the halves over several pixels; the vectors do not.
        XCTAssertEqual(S.pixel(b, 49, 50), [255, 0, 0, 255])
        XCTAssertEqual(S.pixel(b, 50, 50), [0, 0, 255, 255])
        XCTAssertEqual(s.images["logo"]?.size, Size(width: 10, height: 10))
    }

    func testDataURIAndSvgzAndAtItsNaturalSize() throws {
        let uri = "data:image/svg+xml;base64," + Data(Self.halves.utf8).base64EncodedString()
        try Data(SVGZTests.gzip(Array(Self.halves.utf8))).write(to: folder.appendingPathComponent("art/halves.svgz"))
        let s = try scene("{\"a\": \"\(uri)\", \"b\": \"art/halves.svgz\"}",
                          "{\"op\": \"drawImage\", \"image\": \"a\", \"at\": [0, 0]}, {\"op\": \"drawImage\", \"image\": \"b\", \"rect\": [50, 50, 50, 50]}")
        XCTAssertEqual(try imageCommands(s), 0)
        let b = try render(s)
        XCTAssertEqual(S.pixel(b, 2, 5), [255, 0, 0, 255])
        XCTAssertEqual(S.pixel(b, 7, 5), [0, 0, 255, 255])
        XCTAssertEqual(S.pixel(b, 20, 5), [0, 0, 0, 0])
        XCTAssertEqual(S.pixel(b, 74, 75), [255, 0, 0, 255])
        XCTAssertEqual(S.pixel(b, 75, 75), [0, 0, 255, 255])
    }

    func testCropTemplateFlipAndAlphaAsVectors() throws {
        let s = try scene("{\"logo\": \"art/halves.svg\"}", """
            {"op": "drawImage", "image": "logo", "rect": [0, 0, 50, 50], "crop": [5, 0, 5, 10]},
            {"op": "drawImage", "image": "logo", "rect": [50, 0, 50, 50], "renderingMode": "template", "tint": "#00FF00"},
            {"op": "drawImage", "image": "logo", "rect": [0, 50, 50, 50], "flipped": "horizontal"},
            {"op": "drawImage", "image": "logo", "rect": [50, 50, 50, 50], "alpha": 0.5}
            """)
        XCTAssertEqual(try imageCommands(s), 0)
        let b = try render(s)
        XCTAssertEqual(S.pixel(b, 2, 25), [0, 0, 255, 255], "the crop shows the right half over the whole rect")
        XCTAssertEqual(S.pixel(b, 60, 25), [0, 255, 0, 255], "template: the tint with the drawing's alpha")
        XCTAssertEqual(S.pixel(b, 90, 25), [0, 255, 0, 255])
        XCTAssertEqual(S.pixel(b, 10, 75), [0, 0, 255, 255], "flipped: blue on the left")
        XCTAssertEqual(S.pixel(b, 40, 75), [255, 0, 0, 255])
        XCTAssertEqual(S.pixel(b, 60, 75), [128, 0, 0, 128], "alpha 0.5 on the drawing as one unit")
    }

    func testNineSliceDrawsTheRasterization() throws {
        let s = try scene("{\"logo\": {\"path\": \"art/halves.svg\", \"scale\": 2}}",
                          "{\"op\": \"drawImage\", \"image\": \"logo\", \"rect\": [0, 0, 100, 100], \"capInsets\": [2, 2, 2, 2], \"resizingMode\": \"stretch\"}")
        XCTAssertEqual(try imageCommands(s), 1, "nine-slice needs pixels: the drawing rasterized at scale 2")
        XCTAssertEqual(s.images["logo"]?.bitmap.width, 20)
        let b = try render(s)
        XCTAssertEqual(S.pixel(b, 1, 50), [255, 0, 0, 255])
        XCTAssertEqual(S.pixel(b, 98, 50), [0, 0, 255, 255])
    }

    func testAFilterChainTakesTheRasterizationAtTheImagesScale() throws {
        // The colour matrix swaps red and blue; its input is the drawing's pixels at scale 3.
        let s = try scene("""
            {"logo": {"path": "art/halves.svg", "scale": 3},
             "swapped": {"input": "logo", "filters": [{"filter": "colorMatrix", "r": [0, 0, 1, 0], "g": [0, 1, 0, 0], "b": [1, 0, 0, 0]}]}}
            """, "{\"op\": \"drawImage\", \"image\": \"swapped\", \"rect\": [0, 0, 30, 30]}", size: 30)
        XCTAssertEqual(s.images["logo"]?.bitmap.width, 30)
        XCTAssertNil(s.images["swapped"]?.vector, "a filter's output is pixels")
        let b = try render(s)
        XCTAssertEqual(S.pixel(b, 5, 15), [0, 0, 255, 255])
        XCTAssertEqual(S.pixel(b, 25, 15), [255, 0, 0, 255])
    }

    func testImageViewsDrawVectorsToo() throws {
        let s = try scene("{\"logo\": \"art/halves.svg\"}",
                          "{\"op\": \"drawView\", \"view\": {\"type\": \"imageView\", \"frame\": [0, 0, 100, 100], \"image\": \"logo\"}}")
        XCTAssertEqual(try imageCommands(s), 0)
        let b = try render(s)
        XCTAssertEqual(S.pixel(b, 49, 50), [255, 0, 0, 255])
        XCTAssertEqual(S.pixel(b, 50, 50), [0, 0, 255, 255])
    }

    func assertSceneError(_ images: String, location: String = "images.logo", contains text: String,
                          file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try scene(images, "{\"op\": \"drawImage\", \"image\": \"logo\", \"at\": [0, 0]}"), file: file, line: line) { error in
            guard let e = error as? SceneError else { return XCTFail("not a SceneError: \(error)", file: file, line: line) }
            XCTAssertEqual(e.location, location, file: file, line: line)
            XCTAssertTrue(e.message.contains(text), "\(e)", file: file, line: line)
        }
    }

    func testHostileDocumentsAreSceneErrorsNamingTheImageAndElement() throws {
        let cycle = "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' width='10' height='10'>"
            + "<g id='a'><use id='u' xlink:href='#a'/></g></svg>"
        try Data(cycle.utf8).write(to: folder.appendingPathComponent("cycle.svg"))
        assertSceneError("{\"logo\": \"cycle.svg\"}", contains: "<use id=\"u\">")
        try Data("<svg><rect".utf8).write(to: folder.appendingPathComponent("broken.svg"))
        assertSceneError("{\"logo\": \"broken.svg\"}", contains: "<svg>: malformed XML")
        let bomb = SVGZTests.gzip(Array("<svg xmlns='http://www.w3.org/2000/svg'>".utf8) + [UInt8](repeating: 0x20, count: 80 << 20), level: 1)
        try Data(bomb).write(to: folder.appendingPathComponent("bomb.svgz"))
        assertSceneError("{\"logo\": \"bomb.svgz\"}", contains: "inflates to more than")
    }

    func testAHeavyDocumentDrawnManyTimesRunsIntoTheGeometryBudget() throws {
        // 2,000 points a draw, 200 draws, a budget of 20,000 points: refused naming the op that
        // ran over, and the draws after it are not replayed.
        let points = (0..<2000).map { "\($0 % 100),\($0 / 20)" }.joined(separator: " ")
        try Data("<svg xmlns='http://www.w3.org/2000/svg' width='100' height='100'><polygon points='\(points)'/></svg>".utf8)
            .write(to: folder.appendingPathComponent("heavy.svg"))
        var limits = ResourceLimits.default
        limits.maxGeometryPoints = 20_000
        let ops = Array(repeating: "{\"op\": \"drawImage\", \"image\": \"logo\", \"rect\": [0, 0, 100, 100]}", count: 200).joined(separator: ",")
        let json = "{\"format\": \"penumbra-scene\", \"version\": 1, \"size\": [100, 100], \"images\": {\"logo\": \"heavy.svg\"}, \"ops\": [\(ops)]}"
        let scene = try Scene.decode(json, baseDirectory: folder.path, limits: limits, environment: .standard)
        XCTAssertThrowsError(try scene.displayList()) { error in
            XCTAssertTrue("\(error)".contains("geometry budget"), "\(error)")
            XCTAssertTrue((error as? SceneError)?.location.hasPrefix("ops[") ?? false, "\(error)")
        }
    }

    func testReferencesStayInsideTheScenesFolder() throws {
        // A PNG beside the scene's folder, reached by `..` from an SVG inside it.
        let outside = folder.deletingLastPathComponent().appendingPathComponent("outside-\(UUID().uuidString).png")
        try Data(PNGCodec.encode(Bitmap(width: 1, height: 1, pixels: [255, 0, 0, 255]))).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        let svg = "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><image id='leak' href='../../\(outside.lastPathComponent)' width='10' height='10'/></svg>"
        try Data(svg.utf8).write(to: folder.appendingPathComponent("art/leak.svg"))
        assertSceneError("{\"logo\": \"art/leak.svg\"}", contains: "<image id=\"leak\">")
        assertSceneError("{\"logo\": \"art/leak.svg\"}", contains: "outside the assets folder")
        // Inside the folder, from the SVG's own folder: allowed.
        try Data(PNGCodec.encode(Bitmap(width: 1, height: 1, pixels: [0, 255, 0, 255]))).write(to: folder.appendingPathComponent("dot.png"))
        try Data("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><image href='../dot.png' width='10' height='10'/></svg>".utf8)
            .write(to: folder.appendingPathComponent("art/dot.svg"))
        let s = try scene("{\"logo\": \"art/dot.svg\"}", "{\"op\": \"drawImage\", \"image\": \"logo\", \"rect\": [0, 0, 100, 100]}")
        XCTAssertEqual(S.pixel(try render(s), 50, 50), [0, 255, 0, 255])
    }

    func testWithoutAVectorDecoderAnSVGIsNotAnImage() {
        XCTAssertThrowsError(try Scene.decode("{\"format\": \"penumbra-scene\", \"version\": 1, \"size\": [10, 10], \"images\": {\"logo\": \"art/halves.svg\"}, \"ops\": []}",
                                              baseDirectory: folder.path, environment: .core))
    }
}
