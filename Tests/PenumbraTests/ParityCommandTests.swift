import Foundation
import XCTest
import Penumbra
import PenumbraGPU

/// `penumbra parity` run as a user runs it: lines, exit statuses and the report folder.
final class ParityCommandTests: XCTestCase {
    struct Run { var status: Int32; var stdout: String; var stderr: String }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = ["parity"] + arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        // Standard error goes to a file so that neither pipe can fill up while the other is read.
        let errURL = temp.appendingPathComponent(".stderr-\(UUID().uuidString)")
        XCTAssertTrue(FileManager.default.createFile(atPath: errURL.path, contents: nil), "cannot create \(errURL.path)")
        let err = try FileHandle(forWritingTo: errURL)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let out = Pipe()
        process.standardOutput = out; process.standardError = err; process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try err.close()
        return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    var temp: URL!
    override func setUpWithError() throws {
        temp = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-parity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: temp) }

    /// Skips (or fails under CI=true) without a GPU context: parity needs both backends.
    func requireGPU() throws {
        do { _ = try GPURenderer() } catch {
            // Under CI=true the test fails (the error is thrown), never skips.
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("CI=true and no GPU context: \(error)"); throw error }
            throw XCTSkip("no headless EGL/GLES 3 context: \(error)")
        }
    }

    func write(_ text: String, _ name: String) throws -> String {
        let url = temp.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
    let tinyOval = #"{"format": "penumbra-scene", "version": 1, "size": [20, 10], "ops": [{"op": "fill", "path": {"ellipse": [0, 0, 20, 10]}}]}"#

    func testExampleScenesPassAndTheReportHoldsEveryImageAndThePage() throws {
        try requireGPU()
        let scenes = ["oval", "star"].map { TestSupport.examples.appendingPathComponent("\($0).json").path }
        let report = temp.appendingPathComponent("nested/report")
        let r = try run(scenes + ["--report", report.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, r.stdout)
        for (line, name) in zip(lines, ["oval.json", "star.json"]) {
            XCTAssertTrue(line.contains(name) && line.hasSuffix("PASS"), line)
        }
        XCTAssertTrue(lines[0].contains("200x200") && lines[0].contains("identical"), lines[0])
        XCTAssertEqual(lines[2], "2 passed, 0 failed")

        let html = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        for (name, size) in [("oval", (200, 200)), ("star", (420, 220))] {
            XCTAssertTrue(html.contains(">\(name)<"), "index.html names \(name)")
            for kind in ["cpu", "gpu", "diff"] {
                let file = "\(name)-\(kind).png"
                XCTAssertTrue(html.contains("src=\"\(file)\""), "index.html shows \(file)")
                let bitmap = try PNGCodec.decode([UInt8](try Data(contentsOf: report.appendingPathComponent(file))))
                XCTAssertEqual(bitmap.width, size.0, file); XCTAssertEqual(bitmap.height, size.1, file)
            }
        }
        XCTAssertTrue(html.contains("image-rendering: pixelated"))
        XCTAssertFalse(html.contains("<script"), "the page needs no scripts")
        XCTAssertFalse(html.contains("http://") || html.contains("https://"), "the page loads nothing from outside")
        let files = try FileManager.default.contentsOfDirectory(atPath: report.path)
        XCTAssertEqual(files.filter { $0.hasPrefix(".") }, [], "no temporary files are left behind")
        XCTAssertEqual(files.count, 7)
    }

    func testNamesAreMadeUniqueAndEveryStringIsEscaped() throws {
        try requireGPU()
        let odd = try write(tinyOval, "o&<v>.json")
        try FileManager.default.createDirectory(at: temp.appendingPathComponent("other"), withIntermediateDirectories: true)
        let first = try write(tinyOval, "oval.json"), second = try write(tinyOval, "other/oval.json")
        let report = temp.appendingPathComponent("report")
        let r = try run([odd, first, second, "--report", report.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: report.path))
        for name in ["o__v_", "oval", "oval-2"] {
            for kind in ["cpu", "gpu", "diff"] { XCTAssertTrue(files.contains("\(name)-\(kind).png"), "\(name)-\(kind).png in \(files)") }
        }
        let html = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("o&amp;&lt;v&gt;.json"), "the path is escaped")
        XCTAssertFalse(html.contains("o&<v>"), "no raw markup from a file name")
        // Argument order is report order.
        let positions = ["o__v_-cpu.png", "oval-cpu.png", "oval-2-cpu.png"].map { html.range(of: $0)!.lowerBound }
        XCTAssertEqual(positions, positions.sorted())
    }

    func testARejectedSceneExitsOneNamingTheFileAndTheOthersAreStillChecked() throws {
        try requireGPU()
        let bad = try write(#"{"format": "penumbra-scene", "version": 1, "size": [20, 10], "ops": [{"op": "concat", "matrix": [1, 0, 0, 1, 0]}]}"#, "bad.json")
        let notJSON = try write("{ this is not JSON", "broken.json")
        let good = try write(tinyOval, "good.json")
        let report = temp.appendingPathComponent("report")
        let r = try run([bad, notJSON, good, "--report", report.path])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("bad.json") && r.stderr.contains("ops[0].matrix"), r.stderr)
        XCTAssertTrue(r.stderr.contains("broken.json"), r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, r.stdout)
        XCTAssertTrue(lines[0].contains("bad.json") && lines[0].contains("ERROR"), lines[0])
        XCTAssertTrue(lines[1].contains("broken.json") && lines[1].contains("ERROR"), lines[1])
        XCTAssertTrue(lines[2].contains("good.json") && lines[2].hasSuffix("PASS"), lines[2])
        XCTAssertEqual(lines[3], "1 passed, 0 failed, 2 could not be checked")
        let html = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("ops[0].matrix"), "the page says why the scene was rejected")
        XCTAssertFalse(FileManager.default.fileExists(atPath: report.appendingPathComponent("bad-cpu.png").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: report.appendingPathComponent("good-diff.png").path))
    }

    func testWithoutAGPUItExitsThreeAndWritesNothing() throws {
        let scene = try write(tinyOval, "oval.json")
        let report = temp.appendingPathComponent("report")
        let r = try run([scene, "--report", report.path], environment: ["PENUMBRA_DISABLE_GPU": "1"])
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("gpu"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: report.path))
    }

    func testAReportThatCannotBeWrittenExitsFour() throws {
        try requireGPU()
        let scene = try write(tinyOval, "oval.json")
        let blocker = try write("a file, not a folder", "blocker")
        let r = try run([scene, "--report", blocker + "/report"])
        XCTAssertEqual(r.status, 4, r.stderr)
        XCTAssertTrue(r.stderr.contains("blocker/report"), r.stderr)
    }

    func testUsageErrorsExitTwo() throws {
        XCTAssertEqual(try run([]).status, 2)
        XCTAssertEqual(try run(["a.json", "--report"]).status, 2)
        let help = try run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("Exit status"), help.stdout)
    }
}
