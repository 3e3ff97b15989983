// BenchCommandTests: `penumbra bench --json` keeps every documented key with
// its meaning and adds the pipelined throughput; the table shows it too.
import Foundation
import XCTest

final class BenchCommandTests: XCTestCase {
    func bench(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = ["bench"] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out; process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    func testJSONHasTheDocumentedKeysAndThePipelinedThroughput() throws {
        let scene = TestSupport.examples.appendingPathComponent("star.json").path
        let r = try bench([scene, "--backend", "cpu", "--runs", "3", "--frames-in-flight", "3", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertNotNil(json["floor_ms"] as? Double)
        let result = try XCTUnwrap((json["results"] as? [[String: Any]])?.first)
        for key in ["scene", "backend", "renderer", "width", "height", "render_ms", "render_png_ms", "scenes_per_second",
                    "megapixels_per_second", "peak_rss_mb"] {
            XCTAssertNotNil(result[key], "documented key \(key) is missing")
        }
        let median = try XCTUnwrap((result["render_ms"] as? [String: Any])?["median"] as? Double)
        XCTAssertEqual(try XCTUnwrap(result["scenes_per_second"] as? Double), 1000 / median, accuracy: 1e-6)
        XCTAssertGreaterThan(try XCTUnwrap(result["pipelined_scenes_per_second"] as? Double), 0)
        XCTAssertEqual(result["frames_in_flight"] as? Int, 3)
        XCTAssertEqual(result["iterations"] as? Int, 3)
        // Encoding is timed on its own too; each run's render+PNG is its render plus its encode.
        func summary(_ key: String) throws -> [String: Double] { try XCTUnwrap(result[key] as? [String: Double], key) }
        let png = try summary("png_ms"), render = try summary("render_ms"), both = try summary("render_png_ms")
        // Recording is a part of each run's render.
        let record = try summary("record_ms")
        XCTAssertGreaterThan(try XCTUnwrap(record["min"]), 0)
        XCTAssertLessThanOrEqual(try XCTUnwrap(record["max"]), try XCTUnwrap(render["max"]))
        XCTAssertGreaterThan(try XCTUnwrap(png["median"]), 0)
        XCTAssertLessThanOrEqual(try XCTUnwrap(png["min"]), try XCTUnwrap(png["max"]))
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(both["max"]), try XCTUnwrap(png["min"]) + (render["min"] ?? 0) - 1e-9)
    }

    func testTheTableShowsThePipelinedColumnAndBadDepthsAreRejected() throws {
        let scene = TestSupport.examples.appendingPathComponent("star.json").path
        let r = try bench([scene, "--backend", "cpu", "--runs", "1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("pipelined+png scenes/s"), r.stdout)
        XCTAssertTrue(r.stdout.contains("(2 in flight)"), r.stdout)
        XCTAssertEqual(try bench([scene, "--frames-in-flight", "0"]).status, 2)
    }

    /// `--soak`: the resident set after 10 renders and at the end, on one renderer.
    func testSoakReportsTheResidentSetAtEachPowerOfTenAndAtTheEnd() throws {
        let scene = TestSupport.examples.appendingPathComponent("star.json").path
        let r = try bench([scene, "--backend", "cpu", "--soak", "25", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let results = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        let points = try XCTUnwrap(results.first?["points"] as? [[String: Any]])
        XCTAssertEqual(points.compactMap { $0["renders"] as? Int }, [10, 25])
        for point in points {
            XCTAssertGreaterThan(try XCTUnwrap(point["rss_mb"] as? Double), 1, "a resident set was read")
            XCTAssertGreaterThan(try XCTUnwrap(point["heap_in_use_mb"] as? Double), 0)
        }
        XCTAssertEqual(try bench([scene, "--soak", "0"]).status, 2)
    }
}
