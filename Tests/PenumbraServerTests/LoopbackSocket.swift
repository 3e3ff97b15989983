// A plain TCP client on 127.0.0.1 for tests that need what an HTTP client library hides:
// closing mid-request, sending a request a byte at a time, reading whatever comes back.
import Foundation
import Glibc
import PenumbraServer
import Synchronization
import XCTest

/// One blocking TCP connection to 127.0.0.1.
final class LoopbackSocket {
    private var fd: Int32

    /// Connects to 127.0.0.1:`port`; nil when the connection is refused.
    init?(port: Int) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { Glibc.close(fd); return nil }
    }

    deinit { close() }

    /// Sends every byte; false when the peer has closed.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    /// Reads until the peer closes, `until` matches what was read, or `seconds` pass without data.
    func read(seconds: Double, until: (([UInt8]) -> Bool)? = nil) -> [UInt8] {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            out += chunk[0..<n]
            if let until, until(out) { break }
        }
        return out
    }

    /// True when the server has closed the connection (a read sees the end within `seconds`).
    func isClosedByPeer(within seconds: Double) -> Bool {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        while true {
            let n = recv(fd, &byte, 1, 0)
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
        }
    }

    /// Closes the connection.
    func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    /// A POST of `body` to /v1/render as JSON, asking the server to close afterwards.
    static func post(_ body: [UInt8], path: String = "/v1/render", close: Bool = true) -> [UInt8] {
        Array(("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               + "Content-Length: \(body.count)\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n").utf8) + body
    }

    /// A GET of `path`, asking the server to close afterwards.
    static func get(_ path: String) -> [UInt8] {
        Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
    }
}

extension ServerFixtures {
    /// Runs `server` on a free loopback port until `body` returns, then shuts it down.
    static func serving(_ server: RenderServer, _ body: (Int) async throws -> Void) async throws {
        let port = Mutex<Int?>(nil)
        let running = Task { try await server.run(signals: []) { bound in port.withLock { $0 = bound } } }
        var waited = 0
        while port.withLock({ $0 }) == nil && waited < 2000 { try await Task.sleep(for: .milliseconds(5)); waited += 1 }
        do {
            let bound = try XCTUnwrap(port.withLock { $0 }, "the server did not start listening")
            try await body(bound)
        } catch {
            await server.shutdown()
            try? await running.value
            throw error
        }
        await server.shutdown()
        try await running.value
    }

    /// The value of the Prometheus sample `name` (with its labels, as printed) in `text`.
    static func sample(_ name: String, in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
