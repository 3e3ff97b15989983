import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// `penumbra serve` as a process: it logs JSON lines, answers on 127.0.0.1, and SIGTERM drains it to exit 0.
final class ServeCommandTests: XCTestCase {
    /// A running `penumbra serve` with `arguments`, its bound port and its log file.
    struct Served {
        var process: Process
        var port: Int
        var log: URL
        var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
    }

    /// Starts `penumbra serve` on a free loopback port and waits for its "listening" line.
    static func serve(_ arguments: [String]) async throws -> Served {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-serve-\(UUID().uuidString).log")
        XCTAssertTrue(FileManager.default.createFile(atPath: log.path, contents: nil), "cannot create \(log.path)")
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--backend", "cpu"] + arguments
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The "listening" line names the bound port.
        var port: Int?
        for _ in 0..<1200 where port == nil && process.isRunning {
            try await Task.sleep(for: .milliseconds(25))
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") where line.contains("\"message\":\"listening\"") {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
                port = object?["port"].flatMap { Int($0) }
            }
        }
        guard let port, port > 0 else {
            if process.isRunning { process.terminate() }
            throw ServeDidNotStart(log: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
        }
        return Served(process: process, port: port, log: log)
    }

    func testServeAnswersAndExitsZeroOnSIGTERM() async throws {
        let served = try await Self.serve(["--workers", "1", "--drain-seconds", "5"])
        let process = served.process, log = served.log, bound = served.port
        defer { try? FileManager.default.removeItem(at: log) }
        defer { if process.isRunning { process.terminate() } }
        XCTAssertGreaterThan(bound, 0)
        let (_, health) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(bound)/healthz")!)
        XCTAssertEqual((health as? HTTPURLResponse)?.statusCode, 200)

        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0)
        let text = try String(contentsOf: log, encoding: .utf8)
        XCTAssertTrue(text.contains("\"route\":\"/healthz\""), "one log line per request")
        XCTAssertTrue(text.contains("\"request_id\":"))
        XCTAssertTrue(text.contains("\"message\":\"stopped\""))
    }

    struct ServeDidNotStart: Error { var log: String }

    func testServeRejectsBadFlags() throws {
        let shortKey = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-short-key-\(UUID().uuidString)")
        try Data("too short\n".utf8).write(to: shortKey)
        defer { try? FileManager.default.removeItem(at: shortKey) }
        for (arguments, status) in [(["serve", "--workers", "0"], Int32(2)), (["serve", "--signing-key-file", "/nonexistent/key"], 1),
                                    (["serve", "--assets", "/nonexistent/folder"], 1), (["serve", "--max-connections", "0"], 2),
                                    (["serve", "--body-memory-bytes", "1000"], 2), (["serve", "--min-body-bytes-per-second", "-1"], 2),
                                    (["serve", "--signing-key-file", shortKey.path], 1)] {
            let process = Process()
            process.executableURL = CommandLineTests.executable
            process.arguments = arguments
            process.standardError = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, status, arguments.joined(separator: " "))
        }
    }
}
