// A client that leaves mid-render, over a real loopback socket: the render stops at once (not at
// its deadline, which is far away), the worker takes the next request, and /metrics counts the
// cancel and the 499.
import Foundation
import Penumbra
import PenumbraServer
import XCTest

final class DisconnectTests: XCTestCase {
    func testAClientThatLeavesCancelsItsRender() async throws {
        let server = try await ServerFixtures.server { $0.workers = 1; $0.timeoutMilliseconds = 60_000; $0.cacheBytes = 0 }
        try await ServerFixtures.serving(server) { port in
            let heavy = ServerFixtures.heavy(count: 6000)  // seconds of fills, far more than the checks below allow
            let leaving = try XCTUnwrap(LoopbackSocket(port: port))
            XCTAssertTrue(leaving.send(LoopbackSocket.post(heavy, close: false)))
            var waited = 0
            while server.service.statistics.inFlight == 0 && waited < 2000 { try await Task.sleep(for: .milliseconds(5)); waited += 1 }
            XCTAssertEqual(server.service.statistics.inFlight, 1, "the heavy render did not start")
            try await Task.sleep(for: .milliseconds(100))
            XCTAssertEqual(server.service.statistics.inFlight, 1, "the heavy render must still be running when its client leaves")
            let left = ContinuousClock.now
            leaving.close()
            while server.service.statistics.inFlight > 0 && ContinuousClock.now - left < .seconds(10) {
                try await Task.sleep(for: .milliseconds(2))
            }
            let freed = (ContinuousClock.now - left) / .seconds(1)
            XCTAssertEqual(server.service.statistics.inFlight, 0)
            XCTAssertLessThan(freed, 2.0, "the worker was freed \(freed) s after the client left: the render was not cancelled")

            // The single worker serves the next request at once.
            let next = try XCTUnwrap(LoopbackSocket(port: port))
            let asked = ContinuousClock.now
            next.send(LoopbackSocket.post(ServerFixtures.small))
            let answer = String(decoding: next.read(seconds: 10), as: UTF8.self)
            XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200"), String(answer.prefix(200)))
            XCTAssertLessThan((ContinuousClock.now - asked) / .seconds(1), 2.0)

            let metrics = try XCTUnwrap(LoopbackSocket(port: port))
            metrics.send(LoopbackSocket.get("/metrics"))
            let text = String(decoding: metrics.read(seconds: 10), as: UTF8.self)
            XCTAssertEqual(ServerFixtures.sample(#"penumbra_renders_cancelled_total{reason="client"}"#, in: text), 1, text)
            XCTAssertEqual(ServerFixtures.sample(#"penumbra_renders_cancelled_total{reason="deadline"}"#, in: text), 0)
            XCTAssertEqual(ServerFixtures.sample(#"penumbra_http_requests_total{route="/v1/render",status="499"}"#, in: text), 1, text)
            XCTAssertEqual(ServerFixtures.sample(#"penumbra_http_requests_total{route="/v1/render",status="200"}"#, in: text), 1)

            // Closed connections leave the watch list: it holds open connections only.
            next.close()
            metrics.close()
            var settled = 0
            while server.clients.count > 0 && settled < 400 { try await Task.sleep(for: .milliseconds(5)); settled += 1 }
            XCTAssertEqual(server.clients.count, 0, "closed connections are still watched")
        }
    }
}
