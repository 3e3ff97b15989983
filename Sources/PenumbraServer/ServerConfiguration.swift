// ServerConfiguration: every setting of `penumbra serve`, with the defaults
// of SCENE_FORMAT.md's "Render server". The command line fills it; tests
// build it directly. Nothing here reads the environment or files.
import Foundation
import Penumbra
import PenumbraSigning

/// The render server's settings.
public struct ServerConfiguration: Sendable {
    /// The address to listen on (default 127.0.0.1).
    public var host = "127.0.0.1"
    /// The port (default 8080; 0 picks a free one).
    public var port = 8080
    /// The workers' primary backend.
    public var backend: Backend = .auto
    /// Renders at once (default: the cores).
    public var workers = ProcessInfo.processInfo.activeProcessorCount
    /// Requests that may wait for a worker before 429 (default 64).
    public var queue = 64
    /// Each request's deadline from its arrival, in milliseconds (default 30,000).
    public var timeoutMilliseconds = 30_000
    /// How long a connection may take to send a request's head, or stay idle between requests,
    /// before it is closed, in milliseconds (default 30,000). A request's body must arrive within
    /// the request's deadline (`timeoutMilliseconds`); a slower one closes the connection (408).
    public var readTimeoutMilliseconds = 30_000
    /// The largest request body (default 32 MiB); larger is 413.
    public var maxBodyBytes = 32 << 20
    /// The folder that image paths in scenes resolve inside; nil rejects paths.
    public var assets: String?
    /// The keys that signed GET URLs may be signed with (two while one replaces the other); empty
    /// answers signed URLs 404.
    public var signingKeys: [SigningKey] = []
    /// Accept signed URLs of the first format, which never expire (default false: 403).
    public var acceptUnexpiringURLs = false
    /// The response cache's budget in bytes (default 64 MiB; 0 turns the cache off).
    public var cacheBytes = 64 << 20
    /// Seconds to finish the requests in flight after SIGTERM or SIGINT (default 10).
    public var drainSeconds = 10.0
    /// Scene limits.
    public var limits = ResourceLimits.default

    /// The defaults.
    public init() {}

}

/// Why the server could not start.
public struct ServerStartError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
