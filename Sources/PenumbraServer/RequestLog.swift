// RequestLog: one structured log line per request (id, method, route,
// status, duration, backend, and when they apply: why it was cancelled and
// the id of an unexpected error), and the request counter by route pattern
// (not by path, which would make a label per signed URL). The handler tells
// the line what it found out through the context's RequestNotes.
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PenumbraRequests
import Synchronization

/// What a request's handler found out that its log line must say; shared by the context's copies.
final class RequestNotes: Sendable {
    private struct State {
        var cancelled: String?
        var errorID: String?
        var bodyPending = false
    }
    private let state = Mutex(State())

    /// Why the request was cancelled: `client`, `deadline`, `shutdown`.
    var cancelled: String? {
        get { state.withLock { $0.cancelled } }
        set { state.withLock { $0.cancelled = newValue } }
    }
    /// The id under which an unexpected error was logged.
    var errorID: String? {
        get { state.withLock { $0.errorID } }
        set { state.withLock { $0.errorID = newValue } }
    }
    /// The request's body may still be on its way: an answer now closes the connection.
    var bodyPending: Bool {
        get { state.withLock { $0.bodyPending } }
        set { state.withLock { $0.bodyPending = newValue } }
    }
}

/// The log line and request counter of every request; a failure no handler turned into a
/// response becomes one here (Refusals).
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let metrics: ServerMetrics
    let refusals: Refusals

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let route = Self.route(request.uri.path)
        var response: Response
        do { response = try await next(request, context) } catch let error as HTTPResponseError {
            response = errorResponse(RequestError(error.status.code, error.status.reasonPhrase))
        } catch {
            response = refusals.response(for: error, notes: context.notes, logger: context.logger, requestID: context.id)
        }
        response.headers[.requestID] = context.id
        metrics.countRequest(route: route, status: response.status.code)
        let elapsed = ContinuousClock.now - start
        var metadata: Logger.Metadata = [
            "request_id": .string(context.id), "method": .string(request.method.rawValue), "route": .string(route),
            "status": .stringConvertible(response.status.code), "ms": .string(String(format: "%.2f", elapsed / .milliseconds(1))),
            "backend": .string(response.headers[.penumbraBackend] ?? "-"),
        ]
        if let cancelled = context.notes.cancelled { metadata["cancelled"] = .string(cancelled) }
        if let errorID = context.notes.errorID { metadata["error_id"] = .string(errorID) }
        context.logger.info("request", metadata: metadata)
        return response
    }

    /// The route pattern a path belongs to, for metric labels.
    static func route(_ path: String) -> String {
        switch path {
        case "/healthz", "/readyz", "/metrics", "/v1/render": return path
        default: return path.hasPrefix("/v1/render/") ? "/v1/render/{signature}/{scene}" : "other"
        }
    }
}
