// ServerRoutes: the HTTP surface of SCENE_FORMAT.md's "Render server" on a
// Hummingbird router. Handlers only translate: HTTP in (query, media type,
// body within its limits, path parts), `RenderEndpoint` for the work, HTTP
// out (image with ETag, X-Penumbra-Backend, Server-Timing and, when the render
// warned, X-Penumbra-Warnings; 304; or the
// error JSON). Every failure goes through `Refusals`, so each status has one
// shape. A POST is admitted before its body is read: the draining check, the
// query, the Content-Length against the size limit, a place in the render
// queue (RenderService.reserve) and the body's share of the body memory are
// all decided on the head alone, and a refusal then closes the connection
// instead of reading a body nobody will use.
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Penumbra
import PenumbraRequests

extension HTTPField.Name {
    static let penumbraBackend = HTTPField.Name("X-Penumbra-Backend")!
    static let penumbraWarnings = HTTPField.Name("X-Penumbra-Warnings")!
    static let serverTiming = HTTPField.Name("Server-Timing")!
    static let requestID = HTTPField.Name("X-Request-Id")!
}

/// Builds the router of a server.
struct ServerRoutes: Sendable {
    let endpoint: RenderEndpoint
    let drain: DrainState
    let clients: ClientConnections
    let bodies: BodyBudget
    let refusals: Refusals

    var configuration: ServerConfiguration { endpoint.configuration }

    func router() -> Router<ServerRequestContext> {
        let router = Router(context: ServerRequestContext.self)
        router.add(middleware: RequestLogMiddleware(metrics: endpoint.metrics, refusals: refusals))
        router.get("/healthz") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
        }
        router.get("/readyz") { _, _ -> Response in
            if endpoint.service.isReady && !drain.isDraining {
                return Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: "ready\n")))
            }
            return errorResponse(RequestError(503, drain.isDraining ? "the server is draining" : "the renderers are not ready"))
        }
        router.get("/metrics") { _, _ -> Response in
            let stats = endpoint.service.statistics
            endpoint.metrics.setGauges(queueDepth: stats.queued, inFlight: stats.inFlight, cacheBytes: endpoint.cache.bytes)
            endpoint.metrics.setAdmissionGauges(reserved: stats.reserved, bodyBytes: bodies.bytes, connections: clients.count)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(bytes: endpoint.metrics.text())))
        }
        router.post("/v1/render") { request, context in
            let channel = context.channel, notes = context.notes
            return await respond(context) {
                try await clients.cancellingWhenGone(channel) { try await post(request, channel: channel, notes: notes) }
            }
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

    private func post(_ request: Request, channel: any Channel, notes: RequestNotes) async throws -> Response {
        let arrival = ContinuousClock.now
        // Until the body is in, a refusal closes the connection rather than read it.
        notes.bodyPending = true
        guard !drain.isDraining else { throw RequestError(503, "the server is draining") }
        let options = try RenderOptions.parse(query: request.uri.query ?? "").negotiated(accept: request.headers[.accept])
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > configuration.maxBodyBytes {
            throw tooLarge()
        }
        let reservation = try reserve()
        let charge = BodyCharge(bodies)
        defer { charge.release() }
        let body = try await readBody(request, channel: channel, charge: charge)
        notes.bodyPending = false
        let contentType = request.headers[.contentType]
        let parsed = try RenderRequest.parse(body: body, contentType: contentType, options: options,
                                             assets: configuration.assets, limits: configuration.limits)
        let result = try await endpoint.render(parsed, body: body, mediaType: contentType ?? "",
                                               ifNoneMatch: request.headers[.ifNoneMatch], arrival: arrival,
                                               reservation: reservation)
        return response(result)
    }

    /// A place in the render queue, or the refusal (429, or 503 when the service stopped).
    func reserve() throws -> RenderService.Reservation {
        do { return try endpoint.service.reserve() } catch let failure as RenderService.Failure {
            throw RenderEndpoint.requestError(failure)
        }
    }

    // MARK: Responses

    func response(_ result: RenderResult) -> Response {
        switch result.body {
        case .notModified:
            return Response(status: .notModified, headers: [.eTag: result.etag, .serverTiming: result.timing, .vary: "Accept"])
        case .image(let bytes, let contentType, let backend, _):
            var headers: HTTPFields = [.contentType: contentType, .eTag: result.etag, .penumbraBackend: backend,
                                       .serverTiming: result.timing, .cacheControl: "public, max-age=31536000, immutable",
                                       .vary: "Accept"]
            if let warnings = WarningsHeader.value(result.warnings) { headers[.penumbraWarnings] = warnings }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }

    /// Runs a handler, turning every failure into its response (Refusals).
    private func respond(_ context: ServerRequestContext, _ body: () async throws -> Response) async -> Response {
        do { return try await body() } catch {
            return refusals.response(for: error, notes: context.notes, logger: context.logger, requestID: context.id)
        }
    }
}
