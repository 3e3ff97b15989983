import Foundation
import XCTest
import Penumbra
import PenumbraGPU

/// The `penumbra` tool as a user runs it: exit statuses, messages, atomic output, stdin/stdout.
final class CommandLineTests: XCTestCase {
    struct Run { var status: Int32; var stdout: Data; var stderr: String }

    /// The built `penumbra` executable beside the test bundle.
    static var executable: URL {
        let dir = Bundle.main.bundleURL
        for candidate in [dir.appendingPathComponent("penumbra"), dir.deletingLastPathComponent().appendingPathComponent("penumbra")]
        where FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        return dir.appendingPathComponent("penumbra")
    }

    func run(_ arguments: [String], stdin: Data? = nil, cwd: URL? = nil, environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.executableURL = Self.executable
        process.arguments = arguments
        if let cwd { process.currentDirectoryURL = cwd }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out; process.standardError = err; process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }

    var temp: URL!
    override func setUpWithError() throws {
        temp = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: temp) }

    func write(_ text: String, _ name: String) throws -> String {
        let url = temp.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
    var oval: String { #"{"format": "penumbra-scene", "version": 1, "size": [20, 10], "ops": [{"op": "fill", "path": {"ellipse": [0, 0, 20, 10]}}]}"# }

    func testRenderWritesAPNGAndSaysWhichBackendRan() throws {
        let scene = try write(oval, "oval.json")
        let out = temp.appendingPathComponent("oval.png").path
        let r = try run(["render", scene, "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("GPU (") || r.stderr.contains("CPU"), "auto says which backend it used: \(r.stderr)")
        let bitmap = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
        XCTAssertEqual(bitmap.width, 20); XCTAssertEqual(bitmap.height, 10)
        XCTAssertEqual(bitmap[10, 5], SIMD4(0, 0, 0, 255))
        XCTAssertEqual(bitmap[0, 0].w, 0)
    }

    func testScaleOverridesTheScenesScale() throws {
        let scene = try write(oval, "oval.json")
        let out = temp.appendingPathComponent("oval3.png").path
        XCTAssertEqual(try run(["render", scene, "-o", out, "--scale", "3", "--backend", "cpu"]).status, 0)
        let bitmap = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
        XCTAssertEqual(bitmap.width, 60); XCTAssertEqual(bitmap.height, 30)
    }

    func testStandardInputAndOutput() throws {
        let r = try run(["render", "-", "-o", "-", "--backend", "cpu"], stdin: Data(oval.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(Array(r.stdout.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertEqual(try PNGCodec.decode([UInt8](r.stdout)).width, 20)
    }

    func testRejectedSceneExitsOneNamingTheFileAndPlaceAndWritesNothing() throws {
        let bad = #"{"format": "penumbra-scene", "version": 1, "size": [20, 10], "ops": [{"op": "concat", "matrix": [1, 0, 0, 1, 0]}]}"#
        let scene = try write(bad, "bad.json")
        let out = temp.appendingPathComponent("bad.png").path
        let r = try run(["render", scene, "-o", out])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("bad.json"), r.stderr)
        XCTAssertTrue(r.stderr.contains("ops[0].matrix"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temp.path).sorted(), ["bad.json"])
    }

    func testMissingSceneFileIsRejected() throws {
        let r = try run(["render", temp.appendingPathComponent("nope.json").path, "-o", temp.appendingPathComponent("x.png").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("nope.json"), r.stderr)
    }

    func testUsageErrorsExitTwo() throws {
        XCTAssertEqual(try run(["render"]).status, 2)
        XCTAssertEqual(try run(["render", "a.json", "-o", "b.png", "--backend", "quantum"]).status, 2)
        XCTAssertEqual(try run(["render", "a.json", "-o", "b.png", "--scale", "-1"]).status, 2)
        XCTAssertEqual(try run(["frobnicate"]).status, 2)
        XCTAssertEqual(try run(["--help"]).status, 0)
    }

    func testUnwritableOutputExitsFourAndLeavesNoTemporaryFile() throws {
        let scene = try write(oval, "oval.json")
        let r = try run(["render", scene, "-o", temp.appendingPathComponent("no/such/dir/out.png").path, "--backend", "cpu"])
        XCTAssertEqual(r.status, 4, r.stderr)
        XCTAssertTrue(r.stderr.contains("out.png"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temp.path), ["oval.json"])
    }

    func testResourceLimitFlagsApply() throws {
        let scene = try write(oval, "oval.json")
        let r = try run(["render", scene, "-o", temp.appendingPathComponent("o.png").path, "--max-pixels", "100"])
        XCTAssertEqual(r.status, 1)
        XCTAssertFalse(r.stderr.isEmpty)
    }
}

extension CommandLineTests {
    /// PENUMBRA_DISABLE_GPU=1 makes the GPU unavailable: `--backend gpu` exits 3 and writes nothing.
    func testGPUBackendUnavailableExitsThree() throws {
        let scene = try write(oval, "oval.json")
        let out = temp.appendingPathComponent("gpu.png").path
        let r = try run(["render", scene, "-o", out, "--backend", "gpu"], environment: ["PENUMBRA_DISABLE_GPU": "1"])
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("gpu"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    /// With the GPU disabled, `auto` falls back to the CPU and says so.
    func testAutoFallsBackToTheCPUAndSaysWhy() throws {
        let scene = try write(oval, "oval.json")
        let out = temp.appendingPathComponent("auto.png").path
        let r = try run(["render", scene, "-o", out], environment: ["PENUMBRA_DISABLE_GPU": "1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("CPU") && r.stderr.contains("PENUMBRA_DISABLE_GPU"), r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
    }

    /// With a GPU context, `--backend gpu` renders the same pixels as the CPU reference.
    func testGPUBackendRendersWhenAContextExists() throws {
        do { _ = try GPURenderer() } catch {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("CI=true and no GPU context: \(error)"); return }
            throw XCTSkip("no headless EGL/GLES 3 context: \(error)")
        }
        let scene = try write(oval, "oval.json")
        let out = temp.appendingPathComponent("gpu.png").path
        let r = try run(["render", scene, "-o", out, "--backend", "gpu"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let bitmap = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
        XCTAssertEqual(bitmap[10, 5], SIMD4(0, 0, 0, 255))
        XCTAssertEqual(bitmap[0, 0].w, 0)
        // auto takes a hardware GPU only, and says which renderer ran and why.
        let auto = try run(["render", scene, "-o", temp.appendingPathComponent("auto.png").path])
        XCTAssertEqual(auto.status, 0, auto.stderr)
        let software = GPURenderer.isSoftware(try GPURenderer.probeRendererString())
        let expected = !Backend.hasGPUDeviceNode ? "auto: rendering on the CPU: no GPU device"
            : software ? "auto: rendering on the CPU: the only GL renderer is a software rasterizer" : "auto: rendering on the GPU ("
        XCTAssertTrue(auto.stderr.contains(expected), auto.stderr)
    }
}
