// `penumbra sign` against a live `penumbra serve`: the printed path renders, with either of two
// keys, and the command refuses a time that has passed.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

extension ServeCommandTests {
    private static let scene = ##"{"format":"penumbra-scene","version":1,"size":[20,10],"background":"#FFFFFF","ops":[]}"##

    /// Runs `penumbra` with `arguments`; its status, standard output and standard error.
    private static func penumbra(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out; process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    func testSignedPathsFromPenumbraSignAreServed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-sign-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = folder.appendingPathComponent("scene.json"), old = folder.appendingPathComponent("old.key"),
            new = folder.appendingPathComponent("new.key")
        try Data(Self.scene.utf8).write(to: scene)
        try Data("an old key of at least sixteen bytes\n".utf8).write(to: old)
        try Data("a new key of at least sixteen bytes\n".utf8).write(to: new)

        var paths: [String] = []
        for key in [old, new] {
            let signed = try Self.penumbra(["sign", scene.path, "--key-file", key.path, "--expires", "+10m", "--ext", "png"])
            XCTAssertEqual(signed.status, 0, signed.stderr)
            let path = signed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertTrue(path.hasPrefix("/v1/render/") && path.hasSuffix(".png"), path)
            paths.append(path)
        }
        XCTAssertNotEqual(paths[0], paths[1])
        let past = try Self.penumbra(["sign", scene.path, "--key-file", old.path, "--expires", "1000000000"])
        XCTAssertEqual(past.status, 1, "a time that has passed")
        XCTAssertTrue(past.stderr.contains("passed"), past.stderr)
        let bad = try Self.penumbra(["sign", scene.path, "--key-file", old.path, "--expires", "tomorrow"])
        XCTAssertEqual(bad.status, 2)
        let help = try Self.penumbra(["sign", "--help"])
        XCTAssertTrue(help.stdout.contains("{keyID}.{expires}.{signature}"), "the help documents the format: \(help.stdout)")

        let served = try await Self.serve(["--workers", "1", "--signing-key-file", old.path, "--signing-key-file", new.path])
        defer { try? FileManager.default.removeItem(at: served.log) }
        defer { if served.process.isRunning { served.process.terminate() } }
        for path in paths {
            let (body, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(served.port)\(path)")!)
            let http = try XCTUnwrap(response as? HTTPURLResponse)
            XCTAssertEqual(http.statusCode, 200, String(decoding: body, as: UTF8.self))
            XCTAssertEqual(http.value(forHTTPHeaderField: "Content-Type"), "image/png")
            XCTAssertEqual(Array(body.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        }
        // One character of the scene changed: refused.
        var tampered = paths[0]
        let last = tampered.index(tampered.endIndex, offsetBy: -5)
        tampered.replaceSubrange(last...last, with: tampered[last] == "A" ? "B" : "A")
        let (_, refused) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(served.port)\(tampered)")!)
        XCTAssertEqual((refused as? HTTPURLResponse)?.statusCode, 403)
    }
}
