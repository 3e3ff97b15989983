// Slow clients over a real loopback socket: one trickling its headers (slowloris) is cut off by
// the read timeout, one trickling its body by the request's deadline (408 in the metrics), and
// neither keeps a worker or stops the next request from being served.
import Foundation
import Penumbra
import PenumbraServer
import XCTest

final class SlowClientTests: XCTestCase {
    /// Sends `first`, then one of `trickle` every 100 ms until the server closes the connection
    /// or `limit` seconds pass; the seconds until the close (nil: never closed).
    private static func trickle(port: Int, first: [UInt8], trickle: [UInt8], limit: Double) -> Double? {
        guard let socket = LoopbackSocket(port: port) else { return nil }
        let start = ContinuousClock.now
        socket.send(first)
        while (ContinuousClock.now - start) / .seconds(1) < limit {
            if socket.isClosedByPeer(within: 0.1) { return (ContinuousClock.now - start) / .seconds(1) }
            if !socket.send(trickle) { return (ContinuousClock.now - start) / .seconds(1) }
        }
        return nil
    }

    func testSlowHeadersAndSlowBodiesAreCutOff() async throws {
        let server = try await ServerFixtures.server {
            $0.workers = 1; $0.readTimeoutMilliseconds = 500; $0.timeoutMilliseconds = 1000; $0.cacheBytes = 0
        }
        try await ServerFixtures.serving(server) { port in
            // Headers a line at a time, never finished: closed after the read timeout.
            let headers = Self.trickle(port: port, first: Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8),
                                       trickle: Array("X-Slow: 1\r\n".utf8), limit: 6)
            let headerSeconds = try XCTUnwrap(headers, "a client trickling its headers kept its connection for 6 s")
            XCTAssertLessThan(headerSeconds, 3)

            // A body a byte at a time: each byte resets the read timeout, so only the request's
            // deadline (1 s from its arrival) ends it.
            let head = "POST /v1/render HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
            let body = Self.trickle(port: port, first: Array(head.utf8) + Array("{\"format\":".utf8), trickle: Array(" ".utf8), limit: 8)
            let bodySeconds = try XCTUnwrap(body, "a client trickling its body kept its connection for 8 s")
            XCTAssertLessThan(bodySeconds, 4)

            XCTAssertEqual(server.service.statistics.inFlight, 0)
            let next = try XCTUnwrap(LoopbackSocket(port: port))
            next.send(LoopbackSocket.post(ServerFixtures.small))
            let answer = String(decoding: next.read(seconds: 10), as: UTF8.self)
            XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200"), String(answer.prefix(200)))

            let metrics = try XCTUnwrap(LoopbackSocket(port: port))
            metrics.send(LoopbackSocket.get("/metrics"))
            let text = String(decoding: metrics.read(seconds: 10), as: UTF8.self)
            XCTAssertEqual(ServerFixtures.sample(#"penumbra_http_requests_total{route="/v1/render",status="408"}"#, in: text), 1, text)
        }
    }
}
