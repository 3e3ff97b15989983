// ServerConfiguration: every setting of `penumbra serve`, with the defaults
// of SCENE_FORMAT.md's "Render server". The command line fills it; tests
// build it directly. Nothing here reads the environment or files.
//
// Memory: the defaults fit a 2 GiB container running the default deployment
// (deploy/kubernetes: 2 workers). What the server holds at most, by setting:
// - request bodies: `bodyMemoryBytes`, 256 MiB in all (every body from its
//   first byte to its response); a multipart body's parts are copied once
//   when it is parsed, so at most twice that while forms are split: 512 MiB;
// - the queue holds scenes, not bodies: a request gets its place
//   (`queue`, 64) before its body is read, and 429 without reading it when
//   there is none, so the bodies above are the only request bytes in memory;
// - the response cache: `cacheBytes`, 64 MiB;
// - connections: `maxConnections` (512) at a few tens of KiB of buffers each
//   while idle, about 32 MiB;
// - the process with its renderers warm: 45 MiB measured with 2 CPU workers;
//   count 100 MiB for a GPU driver's share and fonts;
// - renders: `workers` at once, each within the render memory budget of the
//   scene limits (decoded images within `--max-image-pixels`, surfaces).
// That is 512 + 64 + 32 + 100 = about 710 MiB before renders, leaving about
// 1.3 GiB, 650 MiB a worker with 2 workers, for the render budgets. More
// workers need a larger container or a smaller `bodyMemoryBytes`. Before,
// bodies were read before the queue decided, and 100 uploads of 30 MiB at
// once held 2.28 GB.
import Foundation
import Penumbra
import PenumbraSigning

/// The render server's settings.
package struct ServerConfiguration: Sendable {
    /// The address to listen on (default 127.0.0.1).
    package var host = "127.0.0.1"
    /// The port (default 8080; 0 picks a free one).
    package var port = 8080
    /// The workers' primary backend.
    package var backend: Backend = .auto
    /// Renders at once (default: the cores).
    package var workers = ProcessInfo.processInfo.activeProcessorCount
    /// Requests that may wait for a worker before 429 (default 64), a request reading its body
    /// included: the place is taken when the head arrives, before the body is read.
    package var queue = 64
    /// Each request's deadline from its arrival, in milliseconds (default 30,000).
    package var timeoutMilliseconds = 30_000
    /// How long a connection may take to send a request's head, or stay idle between requests,
    /// before it is closed, in milliseconds (default 30,000). A request's body must arrive within
    /// the request's deadline (`timeoutMilliseconds`) and not slower than
    /// `minBodyBytesPerSecond`; else the connection is closed after a 408.
    package var readTimeoutMilliseconds = 30_000
    /// The largest request body (default 32 MiB); larger is 413.
    package var maxBodyBytes = 32 << 20
    /// The most bytes of request bodies held in memory at once, across all requests (default
    /// 256 MiB); a request whose body does not fit is 429 (before it is read when it has a
    /// Content-Length).
    package var bodyMemoryBytes = 256 << 20
    /// The slowest average rate a body may arrive at once `bodyGraceMilliseconds` have passed since
    /// its request's head, in bytes a second (default 4,096; 0: no minimum); slower is 408 and a
    /// closed connection.
    package var minBodyBytesPerSecond = 4096
    /// How long a body may arrive at any rate before `minBodyBytesPerSecond` applies, in
    /// milliseconds (default 5,000).
    package var bodyGraceMilliseconds = 5000
    /// The most connections open at once (default 512); one more is closed as soon as it is
    /// accepted, before anything is read from it.
    package var maxConnections = 512
    /// The folder that image paths in scenes resolve inside; nil rejects paths.
    package var assets: String?
    /// The keys that signed GET URLs may be signed with (two while one replaces the other); empty
    /// answers signed URLs 404.
    package var signingKeys: [SigningKey] = []
    /// Accept signed URLs of the first format, which never expire (default false: 403).
    package var acceptUnexpiringURLs = false
    /// The response cache's budget in bytes (default 64 MiB; 0 turns the cache off).
    package var cacheBytes = 64 << 20
    /// Seconds to finish the requests in flight after SIGTERM or SIGINT (default 10); what still
    /// runs then is cancelled and answered 503, and the server stops within a few seconds more.
    package var drainSeconds = 10.0
    /// Scene limits.
    package var limits = ResourceLimits.default

    /// The defaults.
    package init() {}

    /// The connection watch's limits.
    var connectionLimits: ConnectionLimits {
        var limits = ConnectionLimits()
        limits.maxConnections = max(1, maxConnections)
        limits.requestDeadline = .milliseconds(timeoutMilliseconds)
        limits.minBodyBytesPerSecond = max(0, minBodyBytesPerSecond)
        limits.bodyGrace = .milliseconds(bodyGraceMilliseconds)
        limits.checkInterval = .milliseconds(max(20, min(200, timeoutMilliseconds / 4, bodyGraceMilliseconds / 4)))
        return limits
    }
}

/// Why the server could not start.
package struct ServerStartError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
