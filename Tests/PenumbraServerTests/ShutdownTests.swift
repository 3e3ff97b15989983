// Shutdown that ends: the drain waits at most --drain-seconds, then cancels what still runs and
// answers it 503, counted and logged as cancelled at shutdown, never as the client's 499.
import Foundation
import Penumbra
import PenumbraServer
import Synchronization
import XCTest

final class ShutdownTests: XCTestCase {
    func testDrainRunsOutCancelsTheRenderAndAnswers503() async throws {
        let log = LogCapture()
        let server = try await ServerFixtures.server(logger: log.logger) {
            $0.workers = 1; $0.drainSeconds = 1; $0.timeoutMilliseconds = 120_000; $0.cacheBytes = 0
        }
        let port = Mutex<Int?>(nil)
        let running = Task { try await server.run(signals: []) { bound in port.withLock { $0 = bound } } }
        let listening = await ServerFixtures.eventually(20) { port.withLock { $0 } != nil }
        XCTAssertTrue(listening)
        let socket = try XCTUnwrap(LoopbackSocket(port: try XCTUnwrap(port.withLock { $0 })))
        // Tens of seconds of fills: far longer than the drain.
        XCTAssertTrue(socket.send(LoopbackSocket.post(ServerFixtures.heavy(count: 20_000), close: false)))
        let started = await ServerFixtures.eventually(30) { server.service.statistics.inFlight == 1 }
        XCTAssertTrue(started, "the long render did not start")

        let stop = ContinuousClock.now
        await server.shutdown()
        try await running.value
        let took = ContinuousClock.now - stop
        // The drain (1 s), the answer (1 s), the HTTP server's stop and the threads' join (2 s each) at
        // most; a loaded machine gets generous slack on top.
        XCTAssertLessThan(took, .seconds(15), "shutdown took \(took) with a 1 s drain")
        XCTAssertGreaterThanOrEqual(took, .milliseconds(900), "the drain did not wait for the render in flight")

        let answer = String(decoding: socket.read(seconds: 10), as: UTF8.self)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 503"), String(answer.prefix(300)))
        XCTAssertTrue(answer.contains("drain"), answer)

        let metrics = String(decoding: server.metrics.text(), as: UTF8.self)
        XCTAssertEqual(ServerFixtures.sample(#"penumbra_renders_cancelled_total{reason="shutdown"}"#, in: metrics), 1, metrics)
        XCTAssertEqual(ServerFixtures.sample(#"penumbra_renders_cancelled_total{reason="client"}"#, in: metrics), 0)
        XCTAssertEqual(ServerFixtures.sample(#"penumbra_http_requests_total{route="/v1/render",status="503"}"#, in: metrics), 1)
        XCTAssertNil(ServerFixtures.sample(#"penumbra_http_requests_total{route="/v1/render",status="499"}"#, in: metrics))

        let requests = log.lines("request").filter { $0.metadata["route"] == "/v1/render" }
        XCTAssertEqual(requests.count, 1)
        XCTAssertEqual(requests.first?.metadata["status"], "503")
        XCTAssertEqual(requests.first?.metadata["cancelled"], "shutdown")
        XCTAssertFalse(log.lines("drain time is up; cancelling what still runs").isEmpty)
        XCTAssertEqual(server.service.statistics.inFlight, 0, "the cancelled render kept its worker")
    }
}
