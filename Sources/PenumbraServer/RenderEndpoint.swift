// RenderEndpoint: one render request from arrival to response, shared by
// POST /v1/render and the signed GET. In order: the deadline starts at
// arrival; the key (SHA-256 of the renderer version, the canonical options,
// the media type and the body) finds a cached response, served (or answered
// 304 for a matching If-None-Match) while the `--assets` files its render
// read are unchanged; otherwise the job goes to the RenderService, which
// decodes, renders and encodes it on a worker within the deadline, noting
// every asset file it resolves. The strong ETag is the key when no asset
// file took part, else a hash of the key and the files' fingerprints
// (AssetAccessLog), so a replaced image or font is a new ETag and never a
// stale hit. Without --assets the ETag is known before any work, and a
// matching If-None-Match is a 304 at once; with it, a request the cache does
// not know is rendered first (its files are known only then). Failures become
// `RequestError`s (their status and JSON body); nothing a request does
// survives it except a cache entry of its own correct response. A render's
// warnings come back with its output (RenderService.Output) and are kept
// in its cache entry, so a hit reports them as the render did.
import Crypto
import Foundation
import Penumbra
import PenumbraModel
import PenumbraCore
import PenumbraRequests

/// A finished render response, before it becomes an HTTP response.
struct RenderResult: Sendable {
    enum Body: Sendable {
        case image(bytes: [UInt8], contentType: String, backend: String, cached: Bool)
        case notModified
    }
    var body: Body
    var etag: String
    /// `Server-Timing`'s value.
    var timing: String
    /// What the render drew otherwise than asked (X-Penumbra-Warnings on an image); a cached
    /// response has the warnings of the render that made it.
    var warnings: [RenderWarning] = []
}

/// Renders requests through the pool and the cache.
struct RenderEndpoint: Sendable {
    let service: RenderService
    let cache: ResponseCache
    let metrics: ServerMetrics
    let configuration: ServerConfiguration

    /// The renderer version in every key: a new renderer never serves an old response.
    static let rendererVersion = "penumbra-0.1.0/scene-1"

    /// Renders `request`, whose body's media type is `mediaType`, that arrived at `arrival`, in the
    /// place in the queue `reservation` holds (given back unused when the cache answers).
    func render(_ request: RenderRequest, body: [UInt8], mediaType: String, ifNoneMatch: String?,
                arrival: ContinuousClock.Instant, reservation: consuming RenderService.Reservation) async throws -> RenderResult {
        let key = RenderEndpoint.key(body: body, mediaType: mediaType, options: request.options)
        if let hit = cache.get(key), RenderEndpoint.unchanged(hit.assets, in: request.sources.baseDirectory) {
            if let ifNoneMatch, RenderEndpoint.matches(ifNoneMatch, hit.etag) {
                return RenderResult(body: .notModified, etag: hit.etag, timing: "cache;desc=etag")
            }
            metrics.countCacheHit()
            return RenderResult(body: .image(bytes: hit.bytes, contentType: hit.contentType, backend: hit.backend, cached: true),
                                etag: hit.etag, timing: "decode;dur=0, render;dur=0, encode;dur=0, cache;desc=hit",
                                warnings: hit.warnings)
        }
        // Without an asset folder no file can take part, so the ETag is known before any work.
        let assetFolder = request.sources.baseDirectory
        if assetFolder == nil, let ifNoneMatch, RenderEndpoint.matches(ifNoneMatch, RenderEndpoint.etag(key: key, assets: [])) {
            return RenderResult(body: .notModified, etag: RenderEndpoint.etag(key: key, assets: []), timing: "cache;desc=etag")
        }
        var request = request
        let accessLog = assetFolder == nil ? nil : AssetAccessLog()
        request.sources.accessLog = accessLog
        let preference = RenderService.Preference(rawValue: request.options.backend) ?? .auto
        let format = request.options.format, quality = request.options.quality, lossless = request.options.lossless
        let job = RenderService.Job(
            preference: preference, deadline: arrival + .milliseconds(configuration.timeoutMilliseconds),
            decoding: { [request] environment in try request.displayList(environment: environment) },
            encode: { try format.encode($0, quality: quality, lossless: lossless) })
        let output: RenderService.Output
        do { output = try await service.render(job, using: reservation) } catch let failure as RenderService.Failure {
            if failure == .deadlineExceeded { metrics.countCancel(reason: "deadline") }
            throw RenderEndpoint.requestError(failure)
        }
        let backend = output.backend == .gpu ? "gpu" : "cpu"
        metrics.countRender(backend: backend, fellBack: output.fellBack)
        for (stage, seconds) in [("queue", output.queueSeconds), ("decode", output.prepareSeconds),
                                 ("render", output.renderSeconds), ("encode", output.encodeSeconds)] {
            metrics.record(stage: stage, seconds: seconds)
        }
        let assets = accessLog?.recorded ?? []
        let etag = RenderEndpoint.etag(key: key, assets: assets)
        cache.put(key, CachedResponse(bytes: output.bytes, contentType: format.contentType, backend: backend, etag: etag, assets: assets,
                                      warnings: output.warnings))
        let ms = { (s: Double) in String(format: "%.3f", s * 1000) }
        let timing = "queue;dur=\(ms(output.queueSeconds)), decode;dur=\(ms(output.prepareSeconds)), "
            + "render;dur=\(ms(output.renderSeconds)), encode;dur=\(ms(output.encodeSeconds))"
        // The files were only known after the render: the client's copy may still be current.
        if let ifNoneMatch, RenderEndpoint.matches(ifNoneMatch, etag) {
            return RenderResult(body: .notModified, etag: etag, timing: timing)
        }
        return RenderResult(body: .image(bytes: output.bytes, contentType: format.contentType, backend: backend, cached: false),
                            etag: etag, timing: timing, warnings: output.warnings)
    }

    /// The cache key: hex SHA-256 of the renderer version, options, media type and body.
    static func key(body: [UInt8], mediaType: String, options: RenderOptions) -> String {
        var hash = SHA256()
        hash.update(data: Array("\(rendererVersion)\n\(options.canonical)\n\(mediaType)\n".utf8))
        hash.update(data: body)
        return hash.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// The strong ETag: the key, quoted, when the render read no asset file; else a hash of the
    /// key and every asset file's fingerprint, so a changed file is a new ETag.
    static func etag(key: String, assets: [AssetAccessLog.Entry]) -> String {
        guard !assets.isEmpty else { return "\"" + key + "\"" }
        var hash = SHA256()
        hash.update(data: Array(key.utf8))
        for asset in assets { hash.update(data: Array("\n\(asset.source)\t\(asset.fingerprint)".utf8)) }
        return "\"" + hash.finalize().map { String(format: "%02x", $0) }.joined() + "\""
    }

    /// True when every asset file an entry's render resolved is still what it was.
    static func unchanged(_ assets: [AssetAccessLog.Entry], in folder: String?) -> Bool {
        guard !assets.isEmpty else { return true }
        guard let folder else { return false }
        return assets.allSatisfy { AssetFingerprint.current(source: $0.source, baseDirectory: folder) == $0.fingerprint }
    }

    /// If-None-Match's comparison (weak, as RFC 9110 says for this header): `*` or any listed tag.
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { item in
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }

    /// The HTTP refusal for a pool failure (CancelledAtShutdown for a job the drain's end stopped).
    static func requestError(_ failure: RenderService.Failure) -> any Error {
        switch failure {
        case .queueFull: return RequestError(429, "the render queue is full (--queue); retry later", retryAfter: 1)
        case .deadlineExceeded: return RequestError(504, "the request passed its deadline; the render was cancelled")
        case .cancelled:
            // The request's task was cancelled: its client went away (see ClientConnections);
            // nginx's "client closed request". (Refusals makes it 503 when the drain ran out.)
            return RequestError(499, "the request was cancelled; so was its render")
        case .shuttingDown: return RequestError(503, "the server is draining")
        case .cancelledAtShutdown: return CancelledAtShutdown()
        case .unavailable(let why): return RequestError(503, why, place: "query.backend")
        }
    }
}
