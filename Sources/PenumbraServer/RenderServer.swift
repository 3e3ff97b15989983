// RenderServer: the render pool, the cache, the metrics and the router put
// together, and the server's life: start (the workers warm their renderers
// while the listener is already up, /readyz says 503 until they are done),
// serve, and drain (Drain.swift). Shutdown is swift-service-lifecycle's
// graceful shutdown, triggered by SIGTERM or SIGINT (or `shutdown()`): the
// drain marker starts the drain (/readyz 503, new renders refused), and
// Hummingbird stops accepting and lets the requests in flight finish; when
// `drainSeconds` have passed whatever is left is cancelled and answered 503.
// `run()` returns within a bounded time after the signal whatever the render
// threads do, so the process exits 0.
import Dispatch
import Foundation
import Hummingbird
import Logging
import NIOCore
import Penumbra
import PenumbraRequests
import ServiceLifecycle
import UnixSignals
import Synchronization

/// The render server: `penumbra serve`, or embedded in tests.
package final class RenderServer: Sendable {
    /// The settings it was made with.
    package let configuration: ServerConfiguration
    /// The renderer pool (also usable directly).
    package let service: RenderService
    let cache: ResponseCache
    package let metrics = ServerMetrics()
    let drain = DrainState()
    /// The open connections, watched for clients that leave mid-render, slow bodies and the cap.
    package let clients: ClientConnections
    /// The bytes of request bodies held now.
    let bodies: BodyBudget
    let logger: Logger
    private let group = Mutex<ServiceGroup?>(nil)
    private let shutdownRequested = Atomic<Bool>(false)
    /// Fired when `run()` may stop waiting for the HTTP server (it stopped, or took too long).
    private let httpStopped = OnceSignal()
    private let drainTimer = Mutex<Task<Void, Never>?>(nil)

    /// Starts the renderer pool (its workers warm up in the background).
    package init(configuration: ServerConfiguration, logger: Logger = Logger(label: "penumbra.serve")) throws {
        self.configuration = configuration
        self.logger = logger
        service = try RenderService(.init(backend: configuration.backend, workers: configuration.workers,
                                          queueLimit: configuration.queue))
        cache = ResponseCache(budget: configuration.cacheBytes)
        bodies = BodyBudget(limit: configuration.bodyMemoryBytes)
        let metrics = self.metrics
        clients = ClientConnections(limits: configuration.connectionLimits) { metrics.countRefusedConnection() }
    }

    /// The router of this server's routes (package: tests add routes of their own to it).
    package func router() -> Router<ServerRequestContext> {
        let endpoint = RenderEndpoint(service: service, cache: cache, metrics: metrics, configuration: configuration)
        let refusals = Refusals(metrics: metrics, drain: drain, assets: AssetPathRedaction(assets: configuration.assets))
        return ServerRoutes(endpoint: endpoint, drain: drain, clients: clients, bodies: bodies, refusals: refusals).router()
    }

    /// The Hummingbird application serving this server's routes on its host and port.
    package func application(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        application(router: router(), onServerRunning: onServerRunning)
    }

    /// The Hummingbird application serving `router` with this server's connection handling.
    package func application(router: Router<ServerRequestContext>,
                             onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        // The read timeout: Hummingbird closes a connection that has delivered no complete HTTP
        // part (a request's head, a body chunk) for this long while reading, or sat idle between
        // requests, so a client trickling its headers (slowloris) or holding an idle socket is cut
        // off. It never fires while a response is being prepared. A slow body is cut by the
        // connection watch (its deadline and minimum rate), the connection cap by the watch too.
        let watch = clients
        let idle = TimeAmount.milliseconds(Int64(configuration.readTimeoutMilliseconds))
        return Application(
            router: router,
            server: .http1(configuration: .init(additionalChannelHandlers: [watch.makeHandler()], idleTimeout: idle)),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "penumbra"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// Serves until SIGTERM or SIGINT (or `shutdown()`), drains, stops the workers and returns;
    /// throws when the server could not serve (the address is taken). `onServerRunning` gets the
    /// bound port.
    package func run(signals: [UnixSignal] = [.sigterm, .sigint],
                    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let app = application(onServerRunning: onServerRunning)
        var config = ServiceGroupConfiguration(services: [.init(service: app), .init(service: DrainMarker(server: self))],
                                               gracefulShutdownSignals: signals, logger: logger)
        config.maximumGracefulShutdownDuration = .milliseconds(Int64((configuration.drainSeconds + DrainState.answerSeconds) * 1000))
        // No maximumCancellationDuration: ServiceLifecycle would crash the process when it passes.
        // `httpStopped` fires after cancelSeconds instead, and run() goes on without the group.
        config.maximumCancellationDuration = nil
        let group = ServiceGroup(configuration: config)
        self.group.withLock { $0 = group }
        if shutdownRequested.load(ordering: .relaxed) {
            beginDrain()
            await group.triggerGracefulShutdown()
        }
        let failure = Mutex<(any Error)?>(nil)
        Task { [httpStopped, drain, logger] in
            do { try await group.run() } catch {
                if drain.isDraining {
                    logger.warning("the HTTP server did not stop cleanly", metadata: ["error": .string("\(error)")])
                } else {
                    failure.withLock { $0 = error }
                }
            }
            httpStopped.fire()
        }
        await httpStopped.wait()
        drainTimer.withLock { $0?.cancel() }
        if let error = failure.withLock({ $0 }) {
            service.shutdown(cancellingRunningJobs: true, waitingAtMost: .seconds(DrainState.joinSeconds))
            throw error
        }
        runOutDrain()
        let service = self.service
        let ended = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: service.shutdown(cancellingRunningJobs: true,
                                                                waitingAtMost: .seconds(DrainState.joinSeconds)))
            }
        }
        if !ended {
            logger.warning("render threads did not stop in time; exiting without them",
                           metadata: ["waited_seconds": .stringConvertible(DrainState.joinSeconds)])
        }
        logger.info("stopped")
    }

    /// The bytes of request bodies held now (all requests together).
    package var bodyBytesHeld: Int { bodies.bytes }

    /// What /readyz says: the renderers are warm and the server is not draining.
    package var isReady: Bool { service.isReady && !drain.isDraining }

    /// Starts the graceful shutdown, as SIGTERM would.
    package func shutdown() async {
        shutdownRequested.store(true, ordering: .relaxed)
        beginDrain()
        if let group = group.withLock({ $0 }) { await group.triggerGracefulShutdown() }
    }

    /// Starts the drain (once): refuses new requests, and runs it out after `drainSeconds`.
    private func beginDrain() {
        guard drain.begin() else { return }
        let statistics = service.statistics
        logger.info("draining", metadata: ["in_flight": .stringConvertible(statistics.inFlight),
                                           "queued": .stringConvertible(statistics.queued),
                                           "drain_seconds": .stringConvertible(configuration.drainSeconds)])
        let drainSeconds = configuration.drainSeconds
        let timer = Task { [weak self] in
            do { try await Task.sleep(for: .seconds(drainSeconds)) } catch { return }
            self?.runOutDrain()
            do { try await Task.sleep(for: .seconds(DrainState.answerSeconds + DrainState.cancelSeconds)) } catch { return }
            guard let self, !self.httpStopped.hasFired else { return }
            self.logger.warning("the HTTP server did not stop in time; stopping without it")
            self.httpStopped.fire()
        }
        drainTimer.withLock { $0 = timer }
    }

    /// Ends the drain (once): every render still queued or running is cancelled, and its request
    /// answered 503 (Refusals counts and logs it as cancelled at shutdown).
    private func runOutDrain() {
        let statistics = service.statistics
        guard drain.runOut() else { return }
        if statistics.inFlight + statistics.queued + statistics.reserved > 0 {
            logger.warning("drain time is up; cancelling what still runs", metadata: [
                "in_flight": .stringConvertible(statistics.inFlight), "queued": .stringConvertible(statistics.queued),
                "reading_body": .stringConvertible(statistics.reserved)])
        }
        service.shutdown(cancellingRunningJobs: true, waitingAtMost: .zero)
    }

    /// Starts the drain at the start of the graceful shutdown (it is shut down first, being last
    /// in the group).
    private struct DrainMarker: Service {
        let server: RenderServer
        func run() async throws {
            // Thrown when the group is cancelled instead (a service failed): no drain then.
            do { try await gracefulShutdown() } catch { return }
            server.beginDrain()
        }
    }
}
