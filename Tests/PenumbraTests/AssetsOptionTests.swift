import Foundation
import XCTest
import Penumbra

/// `--assets DIR` on the commands that read scene files: images resolve in DIR instead of the
/// scene's folder, with the same confinement (nothing outside DIR is read), and a missing folder
/// is a usage error.
extension CommandLineTests {
    /// Folders under the test's temporary folder: scenes/, assets/red.png and outside/red.png.
    func makeAssetFolders() throws {
        for folder in ["scenes", "assets", "outside"] {
            try FileManager.default.createDirectory(at: temp.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        // A 2 x 2 red PNG in the assets folder, and one beside it that a scene must not reach.
        var red = Bitmap(width: 2, height: 2)
        for i in stride(from: 0, to: red.pixels.count, by: 4) { red.pixels[i] = 255; red.pixels[i + 3] = 255 }
        try Data(PNGCodec.encode(red)).write(to: temp.appendingPathComponent("assets/red.png"))
        try Data(PNGCodec.encode(red)).write(to: temp.appendingPathComponent("outside/red.png"))
    }

    func sceneDrawing(image: String) throws -> String {
        try makeAssetFolders()
        let json = #"{"format": "penumbra-scene", "version": 1, "size": [4, 4], "images": {"red": "\#(image)"}, "#
            + #""ops": [{"op": "drawImage", "image": "red", "rect": [0, 0, 4, 4]}]}"#
        let url = temp.appendingPathComponent("scenes/scene.json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func testAssetsImagesResolveInTheAssetsFolder() throws {
        let scene = try sceneDrawing(image: "red.png")
        let out = temp.appendingPathComponent("out.png").path
        // Without --assets the image is looked for beside the scene, where it is not.
        let without = try run(["render", scene, "-o", out, "--backend", "cpu"])
        XCTAssertEqual(without.status, 1, without.stderr)
        XCTAssertTrue(without.stderr.contains("red.png"), without.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))

        let with = try run(["render", scene, "-o", out, "--backend", "cpu", "--assets", temp.appendingPathComponent("assets").path])
        XCTAssertEqual(with.status, 0, with.stderr)
        let bitmap = try PNGCodec.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: out))))
        XCTAssertEqual(bitmap[1, 1], SIMD4(255, 0, 0, 255))
    }

    func testAssetsFolderConfinesAsTheServerDoes() throws {
        let scene = try sceneDrawing(image: "../outside/red.png")
        let out = temp.appendingPathComponent("out.png").path
        let r = try run(["render", scene, "-o", out, "--backend", "cpu", "--assets", temp.appendingPathComponent("assets").path])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("images.red"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testAssetsOnEveryCommandThatReadsScenes() throws {
        let scene = try sceneDrawing(image: "red.png")
        let assets = temp.appendingPathComponent("assets").path
        let frames = temp.appendingPathComponent("frames").path
        for args in [["parity", scene], ["bench", scene, "--backend", "cpu", "--runs", "1"],
                     ["animate", scene, "-o", frames, "--fps", "1", "--duration", "1"]] {
            let without = try run(args)
            XCTAssertEqual(without.status, 1, "\(args[0]) without --assets: \(without.stderr)")
            let with = try run(args + ["--assets", assets])
            // parity exits 3 where no GPU context can be made; the scene itself was read.
            XCTAssertTrue(with.status == 0 || (args[0] == "parity" && with.status == 3), "\(args[0]): \(with.status) \(with.stderr)")
            XCTAssertFalse(with.stderr.contains("red.png"), "\(args[0]): \(with.stderr)")
        }
    }

    func testAssetsMissingFolderIsAUsageError() throws {
        let scene = try sceneDrawing(image: "red.png")
        let r = try run(["render", scene, "-o", temp.appendingPathComponent("out.png").path,
                             "--assets", temp.appendingPathComponent("nowhere").path])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("--assets"), r.stderr)
    }
}
