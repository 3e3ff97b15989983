// RenderServer: the render pool, the cache, the metrics and the router put
// together, and the server's life: start (the workers warm their renderers
// while the listener is already up, /readyz says 503 until they are done),
// serve, and drain. Shutdown is swift-service-lifecycle's graceful shutdown,
// triggered by SIGTERM or SIGINT (or `shutdown()`): the drain marker turns
// /readyz to 503 and refuses new renders, Hummingbird stops accepting and
// lets the requests in flight finish, and after `drainSeconds` whatever is
// left is cancelled (its renders stopped at their next draw). Then the
// workers are joined and `run()` returns normally, so the process exits 0.
import Foundation
import Hummingbird
import Logging
import NIOCore
import Penumbra
import PenumbraRequests
import ServiceLifecycle
import UnixSignals
import Synchronization

/// A flag set once and read from any thread (the server draining).
final class SharedFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var value: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}

/// The render server: `penumbra serve`, or embedded in tests.
public final class RenderServer: Sendable {
    /// The settings it was made with.
    public let configuration: ServerConfiguration
    /// The renderer pool (also usable directly).
    public let service: RenderService
    let cache: ResponseCache
    package let metrics = ServerMetrics()
    let draining = SharedFlag()
    /// The open connections, watched for clients that leave mid-render, slow bodies and the cap.
    package let clients: ClientConnections
    /// The bytes of request bodies held now.
    let bodies: BodyBudget
    let logger: Logger
    private let group = Mutex<ServiceGroup?>(nil)
    private let shutdownRequested = Atomic<Bool>(false)

    /// Starts the renderer pool (its workers warm up in the background).
    public init(configuration: ServerConfiguration, logger: Logger = Logger(label: "penumbra.serve")) throws {
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
        let refusals = Refusals(metrics: metrics, assets: AssetPathRedaction(assets: configuration.assets))
        return ServerRoutes(endpoint: endpoint, draining: draining, clients: clients, bodies: bodies, refusals: refusals).router()
    }

    /// The Hummingbird application serving this server's routes on its host and port.
    public func application(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
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

    /// Serves until SIGTERM or SIGINT (or `shutdown()`), drains, stops the workers and returns.
    /// `onServerRunning` gets the bound port.
    public func run(signals: [UnixSignal] = [.sigterm, .sigint],
                    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let app = application(onServerRunning: onServerRunning)
        var config = ServiceGroupConfiguration(services: [.init(service: app), .init(service: DrainMarker(server: self))],
                                               gracefulShutdownSignals: signals, logger: logger)
        config.maximumGracefulShutdownDuration = .milliseconds(Int64(configuration.drainSeconds * 1000))
        config.maximumCancellationDuration = .seconds(5)
        let group = ServiceGroup(configuration: config)
        self.group.withLock { $0 = group }
        if shutdownRequested.load(ordering: .relaxed) { await group.triggerGracefulShutdown() }
        do { try await group.run() } catch {
            logger.warning("shutdown did not finish cleanly", metadata: ["error": .string("\(error)")])
        }
        draining.set()
        await Task.detached { [service] in service.shutdown() }.value
        logger.info("stopped")
    }

    /// The bytes of request bodies held now (all requests together).
    package var bodyBytesHeld: Int { bodies.bytes }

    /// What /readyz says: the renderers are warm and the server is not draining.
    public var isReady: Bool { service.isReady && !draining.value }

    /// Starts the graceful shutdown, as SIGTERM would.
    public func shutdown() async {
        shutdownRequested.store(true, ordering: .relaxed)
        draining.set()
        if let group = group.withLock({ $0 }) { await group.triggerGracefulShutdown() }
    }

    /// Marks the server draining at the start of the graceful shutdown (it is shut down first,
    /// being last in the group).
    private struct DrainMarker: Service {
        let server: RenderServer
        func run() async throws {
            try? await gracefulShutdown()
            server.draining.set()
            server.logger.info("draining", metadata: ["in_flight": .stringConvertible(server.service.statistics.inFlight)])
        }
    }
}
