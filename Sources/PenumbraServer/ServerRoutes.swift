// ServerRoutes: the HTTP surface of SCENE_FORMAT.md's "Render server" on a
// Hummingbird router. Handlers only translate: HTTP in (query, media type,
// body within its limit, path parts), `RenderEndpoint` for the work, HTTP
// out (image with ETag, X-Penumbra-Backend and Server-Timing; 304; or the
// error JSON). Every failure goes through `Refusals`, so each status has one
// shape; the request log middleware (RequestLog.swift) writes one line per
// request.
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Penumbra
import PenumbraRequests
import Synchronization

extension HTTPField.Name {
    static let penumbraBackend = HTTPField.Name("X-Penumbra-Backend")!
    static let serverTiming = HTTPField.Name("Server-Timing")!
    static let requestID = HTTPField.Name("X-Request-Id")!
}

/// Builds the router of a server.
struct ServerRoutes: Sendable {
    let endpoint: RenderEndpoint
    let draining: SharedFlag
    let clients: ClientConnections
    let refusals: Refusals

    var configuration: ServerConfiguration { endpoint.configuration }

    func router() -> Router<ServerRequestContext> {
        let router = Router(context: ServerRequestContext.self)
        router.add(middleware: RequestLogMiddleware(metrics: endpoint.metrics, refusals: refusals))
        router.get("/healthz") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "ok\n"))) }
        router.get("/readyz") { _, _ -> Response in
            if endpoint.service.isReady && !draining.value {
                return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "ready\n")))
            }
            return errorResponse(RequestError(503, draining.value ? "the server is draining" : "the renderers are not ready"))
        }
        router.get("/metrics") { _, _ -> Response in
            let stats = endpoint.service.statistics
            endpoint.metrics.setGauges(queueDepth: stats.queued, inFlight: stats.inFlight, cacheBytes: endpoint.cache.bytes)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(bytes: endpoint.metrics.text())))
        }
        router.post("/v1/render") { request, context in
            let channel = context.channel
            return await respond(context) { try await clients.cancellingWhenGone(channel) { try await post(request, channel: channel) } }
        }
        router.get("/v1/render/:signature/:file") { request, context in
            let token = context.parameters.get("signature") ?? "", file = context.parameters.get("file") ?? ""
            return await respond(context) {
                try await clients.cancellingWhenGone(context.channel) { try await signedGet(request, token: token, file: file) }
            }
        }
        return router
    }

    // MARK: Handlers

    private func post(_ request: Request, channel: any Channel) async throws -> Response {
        let arrival = ContinuousClock.now
        guard !draining.value else { throw RequestError(503, "the server is draining") }
        let options = try RenderOptions.parse(query: request.uri.query ?? "")
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > configuration.maxBodyBytes {
            throw tooLarge()
        }
        let body = try await readBody(request, channel: channel, deadline: arrival + .milliseconds(configuration.timeoutMilliseconds))
        let contentType = request.headers[.contentType]
        let parsed = try RenderRequest.parse(body: body, contentType: contentType, options: options,
                                             assets: configuration.assets, limits: configuration.limits)
        let result = try await endpoint.render(parsed, body: body, mediaType: contentType ?? "",
                                               ifNoneMatch: request.headers[.ifNoneMatch], arrival: arrival)
        return response(result)
    }

    /// The request's body, within the size limit (413) and the request's deadline: a client still
    /// sending when the deadline passes has its connection closed (no reply can be written in the
    /// middle of its body), and the request ends as 408. The timer is a DeadlineTimer, cancelled
    /// when the body is in.
    private func readBody(_ request: Request, channel: any Channel, deadline: ContinuousClock.Instant) async throws -> [UInt8] {
        let late = SharedFlag()
        let timer = DeadlineTimer(at: deadline) {
            late.set()
            channel.close(promise: nil)
        }
        defer { timer.cancel() }
        let tooSlow = RequestError(408, "the body did not arrive within the request's deadline (--timeout-ms)", place: "body")
        do {
            let body = Array(buffer: try await request.body.collect(upTo: configuration.maxBodyBytes))
            if late.value { throw tooSlow }
            return body
        } catch is NIOTooManyBytesError {
            throw tooLarge()
        } catch where late.value {
            throw tooSlow
        } catch let error as HTTPParserError {
            throw RequestError(400, "the request is not valid HTTP/1.1: \(error)", place: "body")
        }
    }

    private func tooLarge() -> RequestError {
        RequestError(413, "the body is larger than \(configuration.maxBodyBytes) bytes (--max-body-bytes)", place: "body")
    }

    // MARK: Responses

    func response(_ result: RenderResult) -> Response {
        switch result.body {
        case .notModified:
            return Response(status: .notModified, headers: [.eTag: result.etag, .serverTiming: result.timing])
        case .image(let bytes, let contentType, let backend, _):
            return Response(status: .ok,
                            headers: [.contentType: contentType, .eTag: result.etag, .penumbraBackend: backend,
                                      .serverTiming: result.timing, .cacheControl: "public, max-age=31536000, immutable"],
                            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }

    /// Runs a handler, turning every failure into its response (Refusals).
    private func respond(_ context: ServerRequestContext, _ body: () async throws -> Response) async -> Response {
        do { return try await body() } catch {
            return refusals.response(for: error, notes: context.notes, logger: context.logger, requestID: context.id)
        }
    }
}
