// ServerMetrics: the server's counters, gauges and histograms through
// swift-metrics, kept in a Prometheus registry of the server's own (not the
// process-wide MetricsSystem, which can be bootstrapped once per process:
// tests start many servers), rendered as Prometheus text on /metrics. Every
// metric SCENE_FORMAT.md lists exists from start-up, at zero, so a scraper
// sees the full set before the first request. Gauges that mirror state
// elsewhere (queue, renders in flight, cache bytes, resident memory) are set
// when scraped. Besides SCENE_FORMAT.md's list: renders cancelled by reason
// (deadline, client, shutdown), connections open and refused by the cap,
// places in the queue held by requests still reading their bodies, and the
// bytes of request bodies held.
import CoreMetrics
import Foundation
import Prometheus

/// The server's metrics.
package final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    /// The stages of `penumbra_request_seconds`.
    static let stages = ["queue", "decode", "render", "encode"]

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets["penumbra_request_seconds"] = [
            .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        ]
        self.factory = factory
        for stage in Self.stages { _ = Timer(label: "penumbra_request_seconds", dimensions: [("stage", stage)], factory: factory) }
        for backend in ["cpu", "gpu"] { _ = Counter(label: "penumbra_renders_total", dimensions: [("backend", backend)], factory: factory) }
        for name in ["penumbra_cache_hits_total", "penumbra_gpu_fallbacks_total"] { _ = Counter(label: name, factory: factory) }
        for reason in ["deadline", "client", "shutdown"] {
            _ = Counter(label: "penumbra_renders_cancelled_total", dimensions: [("reason", reason)], factory: factory)
        }
        _ = Counter(label: "penumbra_http_requests_total", dimensions: [("route", "/healthz"), ("status", "200")], factory: factory)
        _ = Counter(label: "penumbra_connections_refused_total", factory: factory)
        setGauges(queueDepth: 0, inFlight: 0, cacheBytes: 0)
        setAdmissionGauges(reserved: 0, bodyBytes: 0, connections: 0)
    }

    /// Counts a response.
    func countRequest(route: String, status: Int) {
        Counter(label: "penumbra_http_requests_total", dimensions: [("route", route), ("status", String(status))], factory: factory)
            .increment()
    }

    /// Records a stage's duration.
    func record(stage: String, seconds: Double) {
        Timer(label: "penumbra_request_seconds", dimensions: [("stage", stage)], factory: factory)
            .recordNanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// Counts a render on `backend`, and a GPU fallback when there was one.
    func countRender(backend: String, fellBack: Bool) {
        Counter(label: "penumbra_renders_total", dimensions: [("backend", backend)], factory: factory).increment()
        if fellBack { Counter(label: "penumbra_gpu_fallbacks_total", factory: factory).increment() }
    }

    /// Counts a request stopped before its end: `deadline` (504), `client` (the client went away) or
    /// `shutdown` (the drain ran out; 503).
    func countCancel(reason: String) {
        Counter(label: "penumbra_renders_cancelled_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    /// Counts a connection closed at once because the server had its most open.
    func countRefusedConnection() { Counter(label: "penumbra_connections_refused_total", factory: factory).increment() }

    /// Sets the gauges of admission: places held by requests reading their bodies, the bytes of
    /// bodies held, the connections open.
    func setAdmissionGauges(reserved: Int, bodyBytes: Int, connections: Int) {
        Gauge(label: "penumbra_queue_reserved", factory: factory).record(reserved)
        Gauge(label: "penumbra_request_body_bytes", factory: factory).record(bodyBytes)
        Gauge(label: "penumbra_connections_open", factory: factory).record(connections)
    }

    /// Counts a response served from the cache.
    func countCacheHit() { Counter(label: "penumbra_cache_hits_total", factory: factory).increment() }

    /// Sets the gauges that mirror state elsewhere.
    func setGauges(queueDepth: Int, inFlight: Int, cacheBytes: Int) {
        Gauge(label: "penumbra_queue_depth", factory: factory).record(queueDepth)
        Gauge(label: "penumbra_renders_in_flight", factory: factory).record(inFlight)
        Gauge(label: "penumbra_cache_bytes", factory: factory).record(cacheBytes)
        Gauge(label: "process_resident_memory_bytes", factory: factory).record(ServerMetrics.residentBytes())
        Gauge(label: "penumbra_heap_in_use_bytes", factory: factory).record(HeapStatistics.inUse)
    }

    /// Prometheus text of every metric.
    package func text() -> [UInt8] { registry.emitToBuffer() }

    /// The process's resident set size from /proc/self/statm (0 where that cannot be read).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
