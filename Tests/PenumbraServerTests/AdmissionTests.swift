// Admission before the body, over a real loopback socket: a full queue and a full body budget
// answer 429 on the head alone (the client never sends its body), the connection cap closes one
// connection too many at once, and a body slower than the minimum rate is cut with a 408.
import Foundation
import Penumbra
import PenumbraServer
import XCTest

final class AdmissionTests: XCTestCase {
    /// A POST head announcing `length` bytes of JSON, without the body.
    private static func head(length: Int) -> [UInt8] {
        Array("POST /v1/render HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n".utf8)
    }

    /// Reads one response head and its JSON body (the server closes after a refusal).
    private static func answer(_ socket: LoopbackSocket) -> String {
        String(decoding: socket.read(seconds: 10), as: UTF8.self)
    }

    func testFullQueueIs429BeforeTheBodyIsSent() async throws {
        // No minimum body rate: the holder's silence must not end its request however slow the machine.
        // One worker and no waiting: the idle worker's place is the only one.
        let server = try await ServerFixtures.server { $0.workers = 1; $0.queue = 0; $0.cacheBytes = 0; $0.minBodyBytesPerSecond = 0 }
        try await ServerFixtures.serving(server) { port in
            // The first client takes the only place and starts sending nothing of its body.
            let holder = try XCTUnwrap(LoopbackSocket(port: port))
            XCTAssertTrue(holder.send(Self.head(length: 1_000_000)))
            let reserved = await ServerFixtures.eventually(10) { server.service.statistics.reserved == 1 }
            XCTAssertTrue(reserved, "the first request did not take its place in the queue")

            // The second announces 20 MB and sends only its head: it is refused on the head alone.
            let refused = try XCTUnwrap(LoopbackSocket(port: port))
            XCTAssertTrue(refused.send(Self.head(length: 20_000_000)))
            let text = Self.answer(refused)
            XCTAssertTrue(text.hasPrefix("HTTP/1.1 429"), String(text.prefix(300)))
            XCTAssertTrue(text.lowercased().contains("retry-after: 1"), text)
            XCTAssertTrue(text.lowercased().contains("connection: close"), text)
            XCTAssertTrue(text.contains("--queue"), text)
            XCTAssertTrue(refused.isClosedByPeer(within: 10), "a refused upload's connection stays open")

            // The first client leaves: its place is given back.
            holder.close()
            let released = await ServerFixtures.eventually(10) { server.service.statistics.reserved == 0 }
            XCTAssertTrue(released, "a reservation was not given back when its client left")
            let next = try XCTUnwrap(LoopbackSocket(port: port))
            next.send(LoopbackSocket.post(ServerFixtures.small))
            XCTAssertTrue(Self.answer(next).hasPrefix("HTTP/1.1 200"))
        }
    }

    func testBodyMemoryBudgetIs429BeforeTheBodyIsSent() async throws {
        let server = try await ServerFixtures.server {
            $0.workers = 1; $0.queue = 8; $0.maxBodyBytes = 1 << 20; $0.bodyMemoryBytes = 1 << 20; $0.cacheBytes = 0
            $0.minBodyBytesPerSecond = 0
        }
        try await ServerFixtures.serving(server) { port in
            let body = [UInt8](repeating: 0x20, count: 800_000) + ServerFixtures.small
            let first = try XCTUnwrap(LoopbackSocket(port: port))
            XCTAssertTrue(first.send(Self.head(length: body.count) + body.prefix(1000)))
            let holding = await ServerFixtures.eventually(10) { server.service.statistics.reserved == 1 }
            XCTAssertTrue(holding)

            // 800 KB are charged for the first body: a second one of that size does not fit in 1 MiB.
            let second = try XCTUnwrap(LoopbackSocket(port: port))
            XCTAssertTrue(second.send(Self.head(length: body.count)))
            let text = Self.answer(second)
            XCTAssertTrue(text.hasPrefix("HTTP/1.1 429"), String(text.prefix(300)))
            XCTAssertTrue(text.contains("--body-memory-bytes"), text)

            // The first body completes and renders; then its bytes are given back.
            XCTAssertTrue(first.send(Array(body.dropFirst(1000))))
            XCTAssertTrue(Self.answer(first).hasPrefix("HTTP/1.1 200"))
            let metrics = String(decoding: server.metrics.text(), as: UTF8.self)
            XCTAssertNotNil(ServerFixtures.sample("penumbra_request_body_bytes", in: metrics))
            let third = try XCTUnwrap(LoopbackSocket(port: port))
            third.send(LoopbackSocket.post(body))
            XCTAssertTrue(Self.answer(third).hasPrefix("HTTP/1.1 200"), "the first body's share was not given back")
        }
    }

    func testConnectionsOverTheCapAreClosedAtOnce() async throws {
        let server = try await ServerFixtures.server { $0.maxConnections = 2 }
        try await ServerFixtures.serving(server) { port in
            let first = try XCTUnwrap(LoopbackSocket(port: port))
            let second = try XCTUnwrap(LoopbackSocket(port: port))
            let both = await ServerFixtures.eventually(10) { server.clients.count == 2 }
            XCTAssertTrue(both)

            let third = try XCTUnwrap(LoopbackSocket(port: port), "the kernel accepts; the server closes")
            XCTAssertTrue(third.isClosedByPeer(within: 10), "a connection over the cap was kept open")
            XCTAssertFalse(first.isClosedByPeer(within: 0.2), "a connection under the cap was closed")
            let metrics = String(decoding: server.metrics.text(), as: UTF8.self)
            XCTAssertEqual(ServerFixtures.sample("penumbra_connections_refused_total", in: metrics), 1, metrics)

            // A closed connection frees its place.
            second.close()
            let freed = await ServerFixtures.eventually(10) { server.clients.count == 1 }
            XCTAssertTrue(freed)
            let fourth = try XCTUnwrap(LoopbackSocket(port: port))
            fourth.send(LoopbackSocket.get("/healthz"))
            XCTAssertTrue(Self.answer(fourth).hasPrefix("HTTP/1.1 200"))
            first.close()
        }
    }

    func testBodySlowerThanTheMinimumRateIs408() async throws {
        let server = try await ServerFixtures.server {
            $0.workers = 1; $0.minBodyBytesPerSecond = 1000; $0.bodyGraceMilliseconds = 500
            $0.timeoutMilliseconds = 60_000; $0.cacheBytes = 0
        }
        try await ServerFixtures.serving(server) { port in
            let socket = try XCTUnwrap(LoopbackSocket(port: port))
            let start = ContinuousClock.now
            XCTAssertTrue(socket.send(Self.head(length: 100_000) + Array("{\"format\":".utf8)))
            // Ten bytes a second, far under a thousand: cut soon after the half-second grace.
            var answer: [UInt8] = []
            while answer.isEmpty && ContinuousClock.now - start < .seconds(20) {
                _ = socket.send(Array(" ".utf8))
                answer = socket.read(seconds: 0.1)
            }
            answer += socket.read(seconds: 5)
            let text = String(decoding: answer, as: UTF8.self)
            XCTAssertTrue(text.hasPrefix("HTTP/1.1 408"), String(text.prefix(300)))
            XCTAssertTrue(text.contains("--min-body-bytes-per-second"), text)
            XCTAssertLessThan(ContinuousClock.now - start, .seconds(20), "the slow body was not cut long before the deadline")
            XCTAssertTrue(socket.isClosedByPeer(within: 10))
            let settled = await ServerFixtures.eventually(10) { server.service.statistics.reserved == 0 && server.bodyBytesHeld == 0 }
            XCTAssertTrue(settled, "the cut request kept its place or its bytes")

            let next = try XCTUnwrap(LoopbackSocket(port: port))
            next.send(LoopbackSocket.post(ServerFixtures.small))
            XCTAssertTrue(Self.answer(next).hasPrefix("HTTP/1.1 200"))
        }
    }
}
