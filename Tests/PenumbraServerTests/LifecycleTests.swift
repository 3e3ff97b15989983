// Deadlines, back-pressure, a real loopback socket and graceful shutdown.
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Penumbra
import PenumbraServer
import Synchronization
import XCTest

final class LifecycleTests: XCTestCase {
    func testDeadlineCancelsTheRenderAndFreesTheWorker() async throws {
        // A tenth of the heavy scene alone, to estimate how long an uncancelled render takes.
        let service = try RenderService(.init(backend: .cpu, workers: 1, queueLimit: 4))
        let tenth = ServerFixtures.heavy(count: 200)
        let start = ContinuousClock.now
        _ = try await service.render(.init(prepare: { try Scene.decode(tenth, baseDirectory: "/nonexistent").displayList() }))
        let fullSeconds = 10 * ((ContinuousClock.now - start) / .seconds(1))
        service.shutdown()
        XCTAssertGreaterThan(fullSeconds, 1.0, "the heavy scene must outlast the deadline by far")
        let heavy = ServerFixtures.heavy()

        let server = try await ServerFixtures.server { $0.workers = 1; $0.timeoutMilliseconds = 150 }
        try await server.application().test(.router) { client in
            let start = ContinuousClock.now
            let late = try await client.post("/v1/render", heavy)
            let answered = (ContinuousClock.now - start) / .seconds(1)
            XCTAssertEqual(late.status, .gatewayTimeout)
            XCTAssertEqual(late.headers[.contentType], "application/json")
            XCTAssertLessThan(answered, min(3.0, fullSeconds / 2), "504 comes at the deadline, not when the render ends")
            // The render is stopped at its next draw: the worker is free long before the render would have ended.
            let free = await ServerFixtures.eventually(fullSeconds / 2) { server.service.statistics.inFlight == 0 }
            XCTAssertTrue(free, "the cancelled render kept its worker")
            let next = try await client.post("/v1/render", ServerFixtures.small)
            XCTAssertEqual(next.status, .ok)
        }
        server.service.shutdown()
    }

    func testFullQueueIs429WithRetryAfter() async throws {
        let server = try await ServerFixtures.server { $0.workers = 1; $0.queue = 1; $0.timeoutMilliseconds = 1500; $0.cacheBytes = 0 }
        try await server.application().test(.router) { client in
            let heavy = ServerFixtures.heavy()
            async let first = client.post("/v1/render", heavy)
            let running = await ServerFixtures.eventually(5) { server.service.statistics.inFlight == 1 }
            XCTAssertTrue(running)
            async let second = client.post("/v1/render?scale=1", heavy)
            let queued = await ServerFixtures.eventually(5) { server.service.statistics.queued == 1 }
            XCTAssertTrue(queued)
            let third = try await client.post("/v1/render", ServerFixtures.small)
            XCTAssertEqual(third.status, .tooManyRequests)
            XCTAssertEqual(third.headers[.retryAfter], "1")
            XCTAssertEqual(try third.errorJSON().place, "")
            let (a, b) = try await (first, second)
            XCTAssertEqual(a.status, .gatewayTimeout)
            XCTAssertEqual(b.status, .gatewayTimeout)
            let metrics = try await client.get("/metrics")
            XCTAssertTrue(metrics.text.contains("penumbra_http_requests_total{route=\"/v1/render\",status=\"429\"} 1"))
        }
        server.service.shutdown()
    }

    func testRealLoopbackSocket() async throws {
        let server = try await ServerFixtures.server()
        XCTAssertEqual(server.configuration.host, "127.0.0.1")
        try await server.application().test(.live) { client in
            let health = try await client.get("/healthz")
            XCTAssertEqual(health.status, .ok)
            let response = try await client.post("/v1/render", ServerFixtures.small)
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(response.bytes, try PNGCodec.encode(try CPURendererHelper.render(ServerFixtures.small)))
        }
        server.service.shutdown()
    }

    func testShutdownFinishesRequestsInFlight() async throws {
        let server = try await ServerFixtures.server { $0.workers = 1; $0.drainSeconds = 20 }
        let port = Mutex<Int?>(nil)
        let running = Task { try await server.run(signals: []) { bound in port.withLock { $0 = bound } } }
        let bound = await ServerFixtures.eventually(10) { port.withLock { $0 } != nil }
        XCTAssertTrue(bound)
        let client = TestClient(host: "127.0.0.1", port: try XCTUnwrap(port.withLock { $0 }))
        client.connect()
        let medium = ServerFixtures.heavy(count: 150)
        async let inFlight = client.post("/v1/render", headers: [.contentType: "application/json"], body: ByteBuffer(bytes: medium))
        let started = await ServerFixtures.eventually(10) { server.service.statistics.inFlight == 1 }
        XCTAssertTrue(started)
        await server.shutdown()
        XCTAssertFalse(server.isReady, "/readyz must say 503 while draining")
        let response = try await inFlight
        XCTAssertEqual(response.status, .ok, "the request in flight was not finished")
        XCTAssertEqual(try PNGCodec.decode(Array(buffer: try XCTUnwrap(response.body))).width, 1000)
        try await running.value
        XCTAssertEqual(server.service.statistics.readyWorkers, 1)
        XCTAssertEqual(server.service.statistics.inFlight, 0)
        try? await client.shutdown()
        // After the drain, nothing listens on the port.
        let late = TestClient(host: "127.0.0.1", port: try XCTUnwrap(port.withLock { $0 }))
        late.connect()
        do {
            _ = try await late.get("/healthz")
            XCTFail("the server still answers after shutdown")
        } catch {}
        try? await late.shutdown()
    }
}
