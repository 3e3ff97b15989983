// `penumbra serve`: the render server of SCENE_FORMAT.md ("Render server").
// The command only reads flags into a ServerConfiguration, sets up JSON-line
// logging and runs PenumbraServer's RenderServer until SIGTERM or SIGINT;
// the server drains (for at most --drain-seconds, then cancels what still
// runs) and the command exits 0.
import ArgumentParser
import Dispatch
import Foundation
import Logging
import Penumbra
import PenumbraServer
import PenumbraSigning

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the HTTP render server (POST /v1/render, signed GETs, /metrics).")

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"
    @Option(help: "The port to listen on (0: any free port).")
    var port = 8080
    @Option(help: ArgumentHelp(Backend.optionHelp))
    var backend: Backend = .auto
    @Option(help: "Renders at once, each on its own thread and renderer (default: the machine's cores, \(ProcessInfo.processInfo.activeProcessorCount) here).")
    var workers: Int?
    @Option(help: "Requests that may wait for a busy worker before 429, those still sending their bodies included (a place is taken before the body is read; a request an idle worker takes at once does not wait, so 0 admits one per idle worker).")
    var queue = 64
    @Option(help: "Each request's deadline from its arrival, queue included, in milliseconds.")
    var timeoutMs = 30_000
    @Option(help: "A connection is closed when a request's head has not arrived, or nothing has come on an idle connection, for this long (ms).")
    var readTimeoutMs = 30_000
    @Option(help: "The largest request body in bytes (larger is 413).")
    var maxBodyBytes = 32 << 20
    @Option(help: "The most bytes of request bodies held in memory at once, all requests together (a body that does not fit is 429).")
    var bodyMemoryBytes = ServerConfiguration().bodyMemoryBytes
    @Option(help: "The slowest average rate a body may arrive at after its first 5 seconds, in bytes a second (slower is 408; 0: no minimum).")
    var minBodyBytesPerSecond = ServerConfiguration().minBodyBytesPerSecond
    @Option(help: "The most connections open at once; one more is closed as soon as it is accepted.")
    var maxConnections = ServerConfiguration().maxConnections
    @Option(help: "The folder image paths in scenes resolve inside (without it, a path is rejected).")
    var assets: String?
    @Option(help: ArgumentHelp(
        "A file holding a key of signed GET URLs (at least 16 bytes; one trailing newline is removed). Give it twice while one key replaces another: URLs signed with either are accepted.",
        valueName: "file"))
    var signingKeyFile: [String] = []
    @Flag(help: "Also accept signed URLs of the first format, which never expire (/v1/render/{signature}/{scene}.{ext}).")
    var acceptUnexpiringUrls = false
    @Option(help: "The response cache's budget in bytes (0 turns it off).")
    var cacheBytes = 64 << 20
    @Option(help: "Seconds to finish the requests in flight after SIGTERM or SIGINT; then what still runs is cancelled (503) and the server exits 0 within seconds.")
    var drainSeconds = 10.0
    @OptionGroup var limits: LimitOptions

    /// `--workers`, or one per core.
    var workerCount: Int { workers ?? ProcessInfo.processInfo.activeProcessorCount }

    func validate() throws {
        if !(0...65535).contains(port) { throw ValidationError("--port must be in 0...65535") }
        if let workers, workers < 1 { throw ValidationError("--workers must be at least 1") }
        if queue < 0 { throw ValidationError("--queue must not be negative") }
        if timeoutMs < 1 { throw ValidationError("--timeout-ms must be at least 1") }
        if readTimeoutMs < 1 { throw ValidationError("--read-timeout-ms must be at least 1") }
        if maxBodyBytes < 1 { throw ValidationError("--max-body-bytes must be at least 1") }
        if bodyMemoryBytes < maxBodyBytes {
            throw ValidationError("--body-memory-bytes must be at least --max-body-bytes (\(maxBodyBytes)), or no body of that size could be read")
        }
        if minBodyBytesPerSecond < 0 { throw ValidationError("--min-body-bytes-per-second must not be negative") }
        if maxConnections < 1 { throw ValidationError("--max-connections must be at least 1") }
        if cacheBytes < 0 { throw ValidationError("--cache-bytes must not be negative") }
        if !(drainSeconds >= 0 && drainSeconds.isFinite) { throw ValidationError("--drain-seconds must be a number >= 0") }
    }

    func run() throws {
        var config = ServerConfiguration()
        config.host = host; config.port = port; config.backend = backend; config.workers = workerCount
        config.queue = queue; config.timeoutMilliseconds = timeoutMs; config.maxBodyBytes = maxBodyBytes
        config.readTimeoutMilliseconds = readTimeoutMs
        config.bodyMemoryBytes = bodyMemoryBytes; config.minBodyBytesPerSecond = minBodyBytesPerSecond
        config.maxConnections = maxConnections; config.acceptUnexpiringURLs = acceptUnexpiringUrls
        config.cacheBytes = cacheBytes; config.drainSeconds = drainSeconds; config.limits = limits.limits(sharedBy: workerCount)
        if let assets {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: assets, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ToolError(.rejected, "--assets \(assets): not a folder")
            }
            config.assets = assets
        }
        do {
            config.signingKeys = try signingKeyFile.map { try SigningKey(contentsOfFile: $0) }
        } catch { throw ToolError(.rejected, "\(error)") }
        if Set(config.signingKeys.map(\.id)).count < config.signingKeys.count {
            throw ToolError(.rejected, "--signing-key-file: the same key is given twice")
        }

        LoggingSystem.bootstrap { JSONLogHandler(label: $0) }
        let logger = Logger(label: "penumbra.serve")
        let server: RenderServer
        do { server = try RenderServer(configuration: config, logger: logger) } catch {
            throw ToolError(.backendUnavailable, "backend \(backend.rawValue) unavailable: \(error)")
        }
        let done = DispatchSemaphore(value: 0)
        let host = config.host, workerCount = config.workers
        let failure = LockedError()
        Task {
            do {
                try await server.run { port in
                    logger.info("listening", metadata: ["host": .string(host), "port": .stringConvertible(port),
                                                        "workers": .stringConvertible(workerCount)])
                }
            } catch { failure.set(error) }
            done.signal()
        }
        done.wait()
        if let error = failure.get() { throw ToolError(.failure, "the server failed: \(error)") }
    }
}

/// An error handed from the server's task to the command's thread.
private final class LockedError: @unchecked Sendable {
    private let lock = NSLock()
    private var error: Error?
    func set(_ e: Error) { lock.lock(); error = e; lock.unlock() }
    func get() -> Error? { lock.lock(); defer { lock.unlock() }; return error }
}
