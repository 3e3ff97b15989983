// SIGTERM with a render that outlasts --drain-seconds: the process exits 0 soon after the drain,
// and the request is answered 503 and logged as cancelled at shutdown.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

extension ServeCommandTests {
    /// A scene of `count` large fills: thousands take seconds on the CPU.
    private static func heavy(count: Int) -> Data {
        var ops: [String] = []
        for i in 0..<count {
            let x = i % 50
            ops.append("{\"op\":\"setFillColor\",\"color\":\"#\(String(format: "%02X", (i * 7) % 256))4080\"},"
                + "{\"op\":\"fill\",\"path\":\"M \(x) \(x) L 900 \(x) L 900 900 L \(x) 900 Z\"}")
        }
        return Data(("{\"format\":\"penumbra-scene\",\"version\":1,\"size\":[1000,1000],\"ops\":[" + ops.joined(separator: ",") + "]}").utf8)
    }

    func testSIGTERMCancelsARenderThatOutlastsTheDrainAndExitsZero() async throws {
        let served = try await Self.serve(["--workers", "1", "--drain-seconds", "1", "--timeout-ms", "120000", "--cache-bytes", "0"])
        defer { try? FileManager.default.removeItem(at: served.log) }
        defer { if served.process.isRunning { served.process.terminate() } }
        let base = "http://127.0.0.1:\(served.port)"

        var request = URLRequest(url: URL(string: "\(base)/v1/render")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Self.heavy(count: 20_000)
        request.timeoutInterval = 120
        let posted = Task { try await URLSession.shared.data(for: request) }

        // Wait until the render runs.
        var running = false
        for _ in 0..<600 where !running {
            try await Task.sleep(for: .milliseconds(50))
            let (metrics, _) = try await URLSession.shared.data(from: URL(string: "\(base)/metrics")!)
            running = String(decoding: metrics, as: UTF8.self).contains("\npenumbra_renders_in_flight 1")
        }
        XCTAssertTrue(running, "the long render did not start")

        let signalled = ContinuousClock.now
        kill(served.process.processIdentifier, SIGTERM)
        let process = served.process
        await Task.detached { process.waitUntilExit() }.value
        let took = ContinuousClock.now - signalled
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0)
        // The drain (1 s) plus at most 5 s of answering and joining; generous slack for a loaded machine.
        XCTAssertLessThan(took, .seconds(20), "exit took \(took) with a 1 s drain")

        let (_, response) = try await posted.value
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 503)
        let log = served.logText
        let line = log.split(separator: "\n").first { $0.contains("\"route\":\"/v1/render\"") }
        XCTAssertNotNil(line, log)
        XCTAssertTrue(line?.contains("\"status\":\"503\"") ?? false, String(line ?? ""))
        XCTAssertTrue(line?.contains("\"cancelled\":\"shutdown\"") ?? false, String(line ?? ""))
        XCTAssertTrue(log.contains("\"message\":\"stopped\""))
    }
}
