// HostileCommandLineTests: the attack scenes of Tests/HostileScenes through
// `penumbra render` as a user runs it: refused with exit 1 and a message
// naming the file, the op and the figure, and nothing written; or rendered.
// The hostile view trees: exit 1 naming the view (`ops[0].view.subviews[2].frame[2]`),
// no output file; 10,000 views render.
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

    func testHostileViewTreesExitOneNamingTheViewAndWriteNothing() throws {
        let many = HostileSceneTests.tooManyViews
        for (scene, place, words) in HostileSceneTests.viewRefusals + [many] {
            let (run, written) = try render(scene, scene == many.scene ? ["--max-views", "5"] : [])
            XCTAssertEqual(run.status, 1, "\(scene): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("\(scene): \(place): "), "\(scene): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(words), "\(scene): \(run.stderr)")
            XCTAssertFalse(run.stderr.contains("Fatal error"), "\(scene): \(run.stderr)")
            XCTAssertFalse(written, "\(scene): a refused render leaves no output")
        }
        let (run, written) = try render(many.scene)
        XCTAssertEqual(run.status, 0, "within the default --max-views: \(run.stderr)")
        XCTAssertTrue(written)
    }

    func testTenThousandViewsRender() throws {
        let scene = temp.appendingPathComponent("forest.json"), output = temp.appendingPathComponent("forest.png")
        try Data(HostileSceneTests.viewForest(10_000).utf8).write(to: scene)
        let started = Date()
        let run = try TestSupport.runTool(["render", scene.path, "-o", output.path, "--backend", "cpu"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output.path))
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
        // One more than --max-views allows: refused naming the view, nothing written.
        try FileManager.default.removeItem(at: output)
        let refused = try TestSupport.runTool(["render", scene.path, "-o", output.path, "--backend", "cpu", "--max-views", "9999"])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("forest.json: ops[0].view.subviews[98].subviews[99]: more than 9999 views"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
    }

    func testBudgetFlagsRejectNegativeValues() throws {
        let run = try TestSupport.runTool(["render", "x.json", "-o", "x.png", "--max-render-bytes=-1"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("--max-render-bytes"), run.stderr)
    }
}
