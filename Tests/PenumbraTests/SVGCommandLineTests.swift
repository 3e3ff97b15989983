// `penumbra render` with SVG: a gzip-compressed `.svgz` renders as its `.svg` does, a zip bomb
// exits 1 naming `<svg>`, and a scene's `.svg` image is drawn as vectors (sharp at 8x its size)
// while a hostile one is the scene's error naming the image and the element.
import Foundation
import XCTest
import Penumbra

extension CommandLineTests {
    /// gzip(1) over `file`, into `file`.gz's bytes at `to`.
    func gzip(_ file: String, to: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "gzip -c \"$0\" > \"$1\"", file, to]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }

    var halvesSVG: String {
        "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='8'>"
            + "<rect width='5' height='8' fill='#ff0000'/><rect x='5' width='5' height='8' fill='#0000ff'/></svg>"
    }

    func testSvgzRendersAsItsSVGAndABombIsRefused() throws {
        let svg = try write(halvesSVG, "halves.svg")
        let svgz = temp.appendingPathComponent("halves.svgz").path
        try gzip(svg, to: svgz)
        let out = temp.appendingPathComponent("halves.png").path
        let r = try run(["render", svgz, "-o", out, "--scale", "3", "--backend", "cpu"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let bitmap = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
        XCTAssertEqual([bitmap.width, bitmap.height], [30, 24])
        XCTAssertEqual(bitmap[14, 12], SIMD4(255, 0, 0, 255))
        XCTAssertEqual(bitmap[15, 12], SIMD4(0, 0, 255, 255))

        let big = temp.appendingPathComponent("big.svg")
        _ = FileManager.default.createFile(atPath: big.path, contents: Data("<svg xmlns='http://www.w3.org/2000/svg'>".utf8)
            + Data(repeating: 0x20, count: 70 << 20))
        let bomb = temp.appendingPathComponent("bomb.svgz").path
        try gzip(big.path, to: bomb)
        let refused = try run(["render", bomb, "-o", out, "--backend", "cpu"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("bomb.svgz: <svg>: the gzip-compressed document inflates to more than"), refused.stderr)
    }

    func testASceneDrawsItsSVGImageAsVectorsAndNamesAHostileOne() throws {
        _ = try write(halvesSVG, "halves.svg")
        let scene = try write(#"{"format": "penumbra-scene", "version": 1, "size": [80, 64], "images": {"logo": "halves.svg"}, "#
            + #""ops": [{"op": "drawImage", "image": "logo", "rect": [0, 0, 80, 64]}]}"#, "scene.json")
        let out = temp.appendingPathComponent("scene.png").path
        let r = try run(["render", scene, "-o", out, "--backend", "cpu"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let bitmap = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
        XCTAssertEqual(bitmap[39, 32], SIMD4(255, 0, 0, 255))
        XCTAssertEqual(bitmap[40, 32], SIMD4(0, 0, 255, 255), "drawn as vectors: the halves meet sharply at 8x")

        _ = try write("<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink'>"
            + "<g id='a'><use id='u' xlink:href='#a'/></g></svg>", "halves.svg")
        let refused = try run(["render", scene, "-o", out, "--backend", "cpu"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("images.logo: <use id=\"u\">"), refused.stderr)
    }
}
