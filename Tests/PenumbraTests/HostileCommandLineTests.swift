// HostileCommandLineTests: the attack scenes of Tests/HostileScenes through
// `penumbra render` as a user runs it: refused with exit 1 and a message
// naming the file, the op and the figure, and nothing written; or rendered.
import Foundation
import XCTest

final class HostileCommandLineTests: XCTestCase {
    var temp: URL!
    override func setUpWithError() throws {
        temp = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-hostile-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: temp) }

    func render(_ scene: String, _ extra: [String] = []) throws -> (TestSupport.ToolRun, Bool) {
        let output = temp.appendingPathComponent("out.png")
        try? FileManager.default.removeItem(at: output)
        let run = try TestSupport.runTool(["render", HostileSceneTests.folder.appendingPathComponent(scene).path, "-o", output.path,
                                           "--backend", "cpu"] + extra)
        return (run, FileManager.default.fileExists(atPath: output.path))
    }

    func testTheLayerOfAFarShadowRenders() throws {
        let (run, written) = try render("shadow-layer-far-offset.json")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(written)
    }

    func testRefusalsNameTheFileTheOpAndTheBudget() throws {
        for (scene, extra, words) in [
            ("shadow-layer-unbounded.json", [], "shadow-layer-unbounded.json: ops[1]: the layer needs"),
            ("nested-layers-10mp.json", ["--max-render-bytes", "100000000"], "nested-layers-10mp.json: ops[2]: the layer needs 3163 x 3163"),
            ("dash-billion.json", ["--max-geometry-points", "100000"], "(--max-geometry-points)"),
        ] as [(String, [String], String)] {
            let (run, written) = try render(scene, extra)
            XCTAssertEqual(run.status, 1, "\(scene): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(words), "\(scene): \(run.stderr)")
            XCTAssertFalse(written, "\(scene): a refused render leaves no output")
        }
    }

    func testBudgetFlagsRejectNegativeValues() throws {
        let run = try TestSupport.runTool(["render", "x.json", "-o", "x.png", "--max-render-bytes=-1"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("--max-render-bytes"), run.stderr)
    }
}
