// `penumbra batch` run as a user (or a Kubernetes Indexed Job) runs it: outputs
// equal to `render`'s, resuming, per-line failures in the log, confinement of
// outputs, sharding by flag and by the Job's variables, usage errors, and the
// progress line (only on a terminal).
import Foundation
import Penumbra
import XCTest

final class BatchCommandTests: XCTestCase {
    struct Run { var status: Int32; var stdout: String; var stderr: String }

    /// Runs `penumbra ARGS` with the Job's variables cleared unless `environment` sets them.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["JOB_COMPLETION_INDEX"] = nil; env["JOB_COMPLETIONS"] = nil
        process.environment = env.merging(environment) { $1 }
        let errURL = temp.appendingPathComponent(".stderr-\(UUID().uuidString)")
        XCTAssertTrue(FileManager.default.createFile(atPath: errURL.path, contents: nil))
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
    var out: URL { temp.appendingPathComponent("out") }
    override func setUpWithError() throws {
        temp = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp.appendingPathComponent("scenes"), withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: temp) }

    @discardableResult
    func write(_ text: String, _ name: String) throws -> String {
        let url = temp.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func oval(_ w: Int, _ colour: String = "#336699") -> String {
        #"{"format": "penumbra-scene", "version": 1, "size": [\#(w), 12], "ops": [{"op": "setFillColor", "color": "\#(colour)"}, {"op": "fill", "path": {"ellipse": [0, 0, \#(w), 12]}}]}"#
    }
    /// An inline scene drawing `dot.png`, an image beside the manifest.
    let withImage = #"{"format": "penumbra-scene", "version": 1, "size": [8, 8], "images": {"dot": "dot.png"}, "ops": [{"op": "drawImage", "image": "dot", "rect": [2, 2, 4, 4]}]}"#

    func writeDot() throws {
        let red = Bitmap(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 16).enumerated().map { $0.offset % 4 == 0 || $0.offset % 4 == 3 ? 255 : 0 })
        try Data(PNGCodec.encode(red)).write(to: temp.appendingPathComponent("dot.png"))
    }

    func manifest(_ lines: [String]) throws -> String { try write(lines.joined(separator: "\n") + "\n", "manifest.jsonl") }

    /// The log's entries, by line number.
    func logEntries(_ name: String = "batch-log.jsonl") throws -> [Int: [String: Any]] {
        let text = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
        var entries: [Int: [String: Any]] = [:]
        for line in text.split(separator: "\n") {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
            entries[try XCTUnwrap(object["line"] as? Int)] = object
        }
        return entries
    }

    func bytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }

    /// Every file under `dir`, relative paths, sorted.
    func files(under dir: URL) -> [String] {
        let names = (FileManager.default.enumerator(atPath: dir.path)?.allObjects as? [String]) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }.sorted()
    }

    // MARK: Rendering

    func testEveryLineIsRenderedAsRenderWouldAndLogged() throws {
        try writeDot()
        let a = try write(oval(20), "scenes/a.json")
        let inline = try write(withImage, "inline.json") // the same scene as a file, for `render`
        let path = try manifest([
            #"{"scene": "scenes/a.json", "output": "a.png"}"#,
            #"{"scene": \#(withImage), "output": "nested/deeper/inline.png"}"#,
            #"{"scene": "scenes/a.json", "output": "a-big.png", "scale": 3}"#,
            #"{"scene": "scenes/a.json", "output": "a.data", "format": "webp", "lossless": true}"#,
        ])
        let r = try run(["batch", path, "--out", out.path, "--backend", "cpu", "--jobs", "2"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("4 rendered, 0 skipped, 0 failed of 4 lines"), r.stdout)
        for (scene, output, extra) in [(a, "a.png", [String]()), (inline, "nested/deeper/inline.png", []), (a, "a-big.png", ["--scale", "3"]),
                                       (a, "a.data", ["--format", "webp", "--lossless"])] {
            let reference = temp.appendingPathComponent("reference-\(UUID().uuidString).\(extra.contains("webp") ? "webp" : "png")").path
            let rendered = try run(["render", scene, "-o", reference, "--backend", "cpu"] + extra)
            XCTAssertEqual(rendered.status, 0, rendered.stderr)
            XCTAssertTrue(try bytes(out.appendingPathComponent(output)) == bytes(URL(fileURLWithPath: reference)), "\(output) differs from render's")
        }
        let log = try logEntries()
        XCTAssertEqual(log.keys.sorted(), [1, 2, 3, 4])
        for (line, entry) in log {
            XCTAssertEqual(entry["status"] as? String, "rendered", "line \(line)")
            XCTAssertNotNil(entry["ms"] as? Double, "line \(line)")
        }
        XCTAssertEqual(log[2]?["output"] as? String, "nested/deeper/inline.png")
        // Not a terminal: no progress line.
        XCTAssertFalse(r.stderr.contains("\r") || r.stderr.contains("\u{1B}["), r.stderr)
    }

    func testARunResumesSkippingOutputsThatExist() throws {
        try write(oval(20), "scenes/a.json"); try write(oval(30), "scenes/b.json")
        let path = try manifest([#"{"scene": "scenes/a.json", "output": "a.png"}"#, #"{"scene": "scenes/b.json", "output": "b.png"}"#])
        XCTAssertEqual(try run(["batch", path, "--out", out.path, "--backend", "cpu"]).status, 0)
        let kept = Data("not rewritten".utf8)
        try kept.write(to: out.appendingPathComponent("a.png"))
        let b = out.appendingPathComponent("b.png")
        let bBytes = try bytes(b)
        try FileManager.default.removeItem(at: b)
        let again = try run(["batch", path, "--out", out.path, "--backend", "cpu"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try bytes(out.appendingPathComponent("a.png")), kept, "an existing output is left alone")
        XCTAssertTrue(try bytes(b) == bBytes, "a missing output is rendered again")
        let log = try logEntries()
        XCTAssertEqual(log[1]?["status"] as? String, "skipped")
        XCTAssertEqual(log[2]?["status"] as? String, "rendered")
        XCTAssertTrue(again.stdout.contains("1 rendered, 1 skipped, 0 failed"), again.stdout)
    }

    // MARK: Failures

    func testFailingLinesAreLoggedWithTheirPlaceAndTheOthersStillRender() throws {
        try write(oval(20), "scenes/a.json")
        try write(#"{"format": "penumbra-scene", "version": 1, "size": [10, 10], "ops": [{"op": "concat", "matrix": [1, 0, 0, 1, 0]}]}"#, "scenes/bad.json")
        let badInline = #"{"format": "penumbra-scene", "version": 1, "size": [10, 10], "ops": [{"op": "fillRect"}]}"#
        let path = try manifest([
            #"{"scene": "scenes/a.json", "output": "first.png"}"#,          // 1
            #"{"scene": \#(badInline), "output": "inline.png"}"#,         // 2
            #"{"scene": "scenes/bad.json", "output": "bad.png"}"#,         // 3
            #"{"scene": "scenes/missing.json", "output": "missing.png"}"#, // 4
            "",                                                            // 5
            #"{"scene": "scenes/a.json", "output": "x.png""#,              // 6: malformed
            #"{"scene": "scenes/a.json", "output": "x.png", "qualty": 5}"#, // 7
            #"{"scene": "scenes/a.json", "output": "x.gif"}"#,             // 8
            #"{"scene": "scenes/a.json", "output": "last.png"}"#,          // 9
        ])
        let r = try run(["batch", path, "--out", out.path, "--backend", "cpu"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(files(under: out), ["batch-log.jsonl", "first.png", "last.png"], "only the good lines' outputs, no temporary files")
        let log = try logEntries()
        XCTAssertEqual(log.keys.sorted(), Array(1...9))
        let expected: [Int: String] = [
            2: "scene.ops[0]", 3: "scene: scenes/bad.json: ops[0].matrix", 4: "scenes/missing.json: cannot read",
            5: "blank line", 6: "column", 7: "qualty: unknown key", 8: "output: no format",
        ]
        for (line, fragment) in expected {
            XCTAssertEqual(log[line]?["status"] as? String, "failed", "line \(line)")
            let error = log[line]?["error"] as? String ?? ""
            XCTAssertTrue(error.contains(fragment), "line \(line): \(error)")
            XCTAssertTrue(r.stderr.contains("line \(line)"), "stderr names line \(line): \(r.stderr)")
        }
        XCTAssertEqual(log[9]?["status"] as? String, "rendered")
        XCTAssertTrue(r.stdout.contains("2 rendered, 0 skipped, 7 failed of 9 lines"), r.stdout)
    }

    func testOutputsCannotLeaveOutOrRepeat() throws {
        try write(oval(20), "scenes/a.json")
        let outside = temp.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: out.appendingPathComponent("link"), withDestinationURL: outside)
        let path = try manifest([
            #"{"scene": "scenes/a.json", "output": "../escaped.png"}"#,
            #"{"scene": "scenes/a.json", "output": "\#(outside.path)/absolute.png"}"#,
            #"{"scene": "scenes/a.json", "output": "a/../../b.png"}"#,
            #"{"scene": "scenes/a.json", "output": "link/through.png"}"#,
            #"{"scene": "scenes/a.json", "output": "twice.png"}"#,
            #"{"scene": "scenes/a.json", "output": "twice.png"}"#,
        ])
        let r = try run(["batch", path, "--out", out.path, "--backend", "cpu"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(files(under: outside), [], "nothing written outside --out")
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.appendingPathComponent("escaped.png").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.appendingPathComponent("b.png").path))
        let log = try logEntries()
        for (line, fragment) in [1: "leads out of --out", 2: "is absolute", 3: "leads out of --out", 4: "symbolic link",
                                 6: "line 5's output too"] {
            XCTAssertEqual(log[line]?["status"] as? String, "failed", "line \(line)")
            XCTAssertTrue((log[line]?["error"] as? String ?? "").contains(fragment), "line \(line): \(log[line] ?? [:])")
        }
        XCTAssertEqual(log[5]?["status"] as? String, "rendered")
    }

    // MARK: Sharding

    /// Five lines, each its own output.
    func fiveLines() throws -> String {
        try write(oval(20), "scenes/a.json")
        return try manifest((1...5).map { #"{"scene": "scenes/a.json", "output": "\#($0).png"}"# })
    }

    func outputs(_ dir: URL) -> Set<String> { Set(files(under: dir).filter { $0.hasSuffix(".png") }) }

    func testTwoShardsRenderEveryLineOnceBetweenThem() throws {
        let path = try fiveLines()
        let a = temp.appendingPathComponent("a"), b = temp.appendingPathComponent("b")
        let r0 = try run(["batch", path, "--out", a.path, "--backend", "cpu", "--shard", "0/2"])
        let r1 = try run(["batch", path, "--out", b.path, "--backend", "cpu", "--shard", "1/2"])
        XCTAssertEqual(r0.status, 0, r0.stderr); XCTAssertEqual(r1.status, 0, r1.stderr)
        XCTAssertEqual(outputs(a), ["1.png", "3.png", "5.png"], "0-based indices 0, 2, 4")
        XCTAssertEqual(outputs(b), ["2.png", "4.png"])
        XCTAssertTrue(outputs(a).isDisjoint(with: outputs(b)))
        XCTAssertEqual(outputs(a).union(outputs(b)).count, 5)
        XCTAssertTrue(FileManager.default.fileExists(atPath: a.appendingPathComponent("batch-log-0-of-2.jsonl").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: b.appendingPathComponent("batch-log-1-of-2.jsonl").path))
    }

    func testTheIndexedJobsVariablesChooseTheShardUnlessShardIsGiven() throws {
        let path = try fiveLines()
        let job = ["JOB_COMPLETION_INDEX": "1", "JOB_COMPLETIONS": "2"]
        let r = try run(["batch", path, "--out", out.path, "--backend", "cpu"], environment: job)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(outputs(out), ["2.png", "4.png"])
        let flag = temp.appendingPathComponent("flag")
        XCTAssertEqual(try run(["batch", path, "--out", flag.path, "--backend", "cpu", "--shard", "2/3"], environment: job).status, 0)
        XCTAssertEqual(outputs(flag), ["3.png"], "--shard wins over the environment")
        let one = temp.appendingPathComponent("one")
        XCTAssertEqual(try run(["batch", path, "--out", one.path, "--backend", "cpu"], environment: ["JOB_COMPLETION_INDEX": "1"]).status, 0)
        XCTAssertEqual(outputs(one).count, 5, "one variable alone is not a shard")
    }

    func testBadShardsJobsAndManifestsAreUsageErrors() throws {
        let path = try fiveLines()
        for shard in ["2/2", "-1/2", "1/0", "a/b", "3", "1/2/3"] {
            let r = try run(["batch", path, "--out", out.path, "--shard", shard])
            XCTAssertEqual(r.status, 2, "--shard \(shard): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--shard"), r.stderr)
        }
        let env = try run(["batch", path, "--out", out.path], environment: ["JOB_COMPLETION_INDEX": "5", "JOB_COMPLETIONS": "2"])
        XCTAssertEqual(env.status, 2, env.stderr)
        XCTAssertTrue(env.stderr.contains("JOB_COMPLETION_INDEX"), env.stderr)
        XCTAssertEqual(try run(["batch", path, "--out", out.path, "--jobs", "0"]).status, 2)
        let missing = try run(["batch", temp.appendingPathComponent("nope.jsonl").path, "--out", out.path])
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("nope.jsonl: cannot read the manifest"), missing.stderr)
        XCTAssertEqual(outputs(out), [], "nothing rendered after a usage error")
    }

    // MARK: Progress and stopping

    /// A manifest of `count` lines of a scene that takes some milliseconds to render.
    func manyLines(_ count: Int) throws -> String {
        try write(##"{"format": "penumbra-scene", "version": 1, "size": [160, 160], "ops": [{"op": "setShadow", "offset": [3, 3], "blur": 12, "color": "#00000080"}, {"op": "fill", "path": {"ellipse": [10, 10, 140, 140]}}]}"##, "scenes/m.json")
        return try manifest((1...count).map { #"{"scene": "scenes/m.json", "output": "\#($0).png"}"# })
    }

    /// Waits until the log holds at least one entry (the batch is under way).
    func waitForFirstEntry(_ process: Process) throws {
        let log = out.appendingPathComponent("batch-log.jsonl").path
        let end = Date().addingTimeInterval(60)
        while process.isRunning, Date() < end {
            if let data = FileManager.default.contents(atPath: log), data.contains(UInt8(ascii: "\n")) { return }
            Thread.sleep(forTimeInterval: 0.005)
        }
        XCTFail("the batch logged nothing")
    }

    /// Standard error that is not a terminal gets no progress line, even from a run long
    /// enough to show one on a terminal (frozen for 1.3 s with SIGSTOP once under way).
    func testNoProgressLineWhenStandardErrorIsNotATerminal() throws {
        let path = try manyLines(40)
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = ["batch", path, "--out", out.path, "--backend", "cpu", "--jobs", "1"]
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice; process.standardError = err
        try process.run()
        try waitForFirstEntry(process)
        kill(process.processIdentifier, SIGSTOP)
        Thread.sleep(forTimeInterval: 1.3)
        kill(process.processIdentifier, SIGCONT)
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertEqual(text, "", "nothing on a stderr that is not a terminal")
    }

    /// SIGTERM (a pod being stopped) lets the line in progress finish, starts no other, leaves no
    /// temporary file and exits 128 + 15; the same command then resumes with the lines left.
    func testSIGTERMFinishesTheLineInProgressAndTheNextRunResumes() throws {
        let path = try manyLines(40)
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = ["batch", path, "--out", out.path, "--backend", "cpu", "--jobs", "1"]
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice; process.standardError = err
        try process.run()
        try waitForFirstEntry(process)
        process.terminate()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 128 + SIGTERM, message)
        XCTAssertTrue(message.contains("stopped by signal 15"), message)
        let done = outputs(out).count
        XCTAssertTrue((1..<40).contains(done), "\(done) outputs")
        XCTAssertEqual(files(under: out).filter { $0.hasSuffix(".tmp") }, [])
        XCTAssertEqual(try logEntries().count, done, "every line taken was finished and logged")
        let again = try run(["batch", path, "--out", out.path, "--backend", "cpu"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("\(40 - done) rendered, \(done) skipped, 0 failed"), again.stdout)
        XCTAssertEqual(outputs(out).count, 40)
    }
}
