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
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return [] }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
        guard readFor > 0 else { return [] }
        var timeout = timeval(tv_sec: Int(readFor), tv_usec: Int((readFor - Double(Int(readFor))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            out += chunk[0..<n]
            if String(decoding: out, as: UTF8.self).contains("\r\n\r\n") && out.count > 12 { break }
        }
        return out
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
