// Clients that misbehave on a real loopback socket: malformed HTTP, a huge header, and a client
// that sends a heavy render and disconnects. None may take the process down or keep a worker.
import Foundation
import Glibc
import Penumbra
import PenumbraServer
import Synchronization
import XCTest

final class HostileClientTests: XCTestCase {
    /// Connects to 127.0.0.1:port, sends `bytes`, reads until the server closes or `readFor`
    /// passes (0: close at once without reading); the bytes read.
    private static func exchange(port: Int, _ bytes: [UInt8], readFor: Double) -> [UInt8] {
        guard let socket = LoopbackSocket(port: port) else { return [] }
        socket.send(bytes)
        guard readFor > 0 else { return [] }
        // Until the server closes, the time passes, or a whole head (status line and headers) is in.
        return socket.read(seconds: readFor) { String(decoding: $0, as: UTF8.self).contains("\r\n\r\n") && $0.count > 12 }
    }

    private static func post(_ body: [UInt8]) -> [UInt8] {
        Array("POST /v1/render HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    func testMalformedHugeAndVanishingClientsLeaveTheServerWhole() async throws {
        let server = try await ServerFixtures.server { $0.workers = 1; $0.timeoutMilliseconds = 4000; $0.cacheBytes = 0 }
        let port = Mutex<Int?>(nil)
        let running = Task { try await server.run(signals: []) { bound in port.withLock { $0 = bound } } }
        var waited = 0
        while port.withLock({ $0 }) == nil && waited < 2000 { try await Task.sleep(for: .milliseconds(5)); waited += 1 }
        let bound = try XCTUnwrap(port.withLock { $0 })

        // Malformed request line: an error status or a closed connection, never a crash.
        let garbage = Self.exchange(port: bound, Array("NOT HTTP AT ALL\r\n\r\n".utf8), readFor: 2)
        XCTAssertFalse(String(decoding: garbage, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        // A header of a megabyte.
        let huge = Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 1 << 20))\r\n\r\n".utf8)
        let hugeAnswer = Self.exchange(port: bound, huge, readFor: 2)
        XCTAssertFalse(String(decoding: hugeAnswer, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        // A client that posts a heavy render and leaves at once.
        _ = Self.exchange(port: bound, Self.post(ServerFixtures.heavy()), readFor: 0)
        var started = 0
        while server.service.statistics.inFlight == 0 && started < 400 { try await Task.sleep(for: .milliseconds(5)); started += 1 }
        // The worker is back within the deadline (4 s) plus one draw.
        var freed = 0
        while server.service.statistics.inFlight > 0 && freed < 1200 { try await Task.sleep(for: .milliseconds(5)); freed += 1 }
        XCTAssertEqual(server.service.statistics.inFlight, 0, "a vanished client's render kept its worker")
        // And the server still renders correctly.
        let answer = Self.exchange(port: bound, Self.post(ServerFixtures.small), readFor: 5)
        XCTAssertTrue(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200"), String(decoding: answer.prefix(200), as: UTF8.self))
        await server.shutdown()
        try await running.value
    }
}
