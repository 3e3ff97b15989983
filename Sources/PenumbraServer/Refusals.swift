// Refusals: what a request handler threw, turned into its response. Every
// refusal has one shape (the JSON of RequestError); on the way out:
// - a RequestError keeps its status, with the `--assets` folder's absolute
//   path taken out of its message (a path inside it is written relative to
//   it, the folder itself as "."): where the server keeps its files is none of
//   the client's business;
// - a request ended by the drain running out (its render cancelled, or its
//   task cancelled while it read its body) is 503, logged and counted as
//   cancelled at shutdown, never as the client's 499;
// - a client that left is 499 (nginx's "client closed request"): nobody reads
//   it, but the log line and the metrics say why;
// - malformed HTTP found while reading a body is the client's error, 400;
// - anything else is the server's: 500 with a generic message and an error
//   id, and one error log line with the same id holding the details, which
//   never reach the client.
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import PenumbraRequests

/// Why a request ended early: the server stopped (the drain ran out) before it was done.
struct CancelledAtShutdown: Error {}

/// Turns handler failures into responses, as described above.
struct Refusals: Sendable {
    let metrics: ServerMetrics
    let drain: DrainState
    let assets: AssetPathRedaction

    /// The response for `error`; notes what the log line must say in `notes`.
    func response(for error: any Error, notes: RequestNotes, logger: Logger, requestID: String) -> Response {
        var response = errorResponse(requestError(for: error, notes: notes, logger: logger, requestID: requestID))
        if let errorID = notes.errorID { response.headers[.errorID] = errorID }
        if notes.bodyPending { response.headers[.connection] = "close" }
        return response
    }

    private func requestError(for error: any Error, notes: RequestNotes, logger: Logger, requestID: String) -> RequestError {
        if error is CancelledAtShutdown || (drain.deadlinePassed && Self.endedByCancellation(error)) {
            metrics.countCancel(reason: "shutdown")
            notes.cancelled = "shutdown"
            return RequestError(503, "the server stopped before the request was done (its drain time ran out); retry", retryAfter: 1)
        }
        switch error {
        case var refusal as RequestError:
            if refusal.status == 499 { notes.cancelled = "client" }
            refusal.message = assets.redact(refusal.message)
            return refusal
        case is ClientWentAway:
            metrics.countCancel(reason: "client")
            notes.cancelled = "client"
            return RequestError(499, "the client went away; the render was cancelled")
        case let parse as HTTPParserError:
            return RequestError(400, "the request is not valid HTTP/1.1: \(parse)")
        default:
            let id = Self.makeErrorID()
            notes.errorID = id
            logger.error("unexpected error", metadata: ["request_id": .string(requestID), "error_id": .string(id),
                                                        "error": .string(String(reflecting: error))])
            return RequestError(500, "internal error; the server's log has the details under error id \(id)")
        }
    }

    /// True for the ways a request ends when its task is cancelled.
    private static func endedByCancellation(_ error: any Error) -> Bool {
        if Task.isCancelled || error is CancellationError || error is ClientWentAway { return true }
        return (error as? RequestError)?.status == 499
    }

    /// 16 random hex digits.
    static func makeErrorID() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%016llx", generator.next() as UInt64)
    }
}

/// The JSON error response for `error`, with Retry-After when it has one.
func errorResponse(_ error: RequestError) -> Response {
    var headers: HTTPFields = [.contentType: "application/json"]
    if let retry = error.retryAfter { headers[.retryAfter] = String(retry) }
    return Response(status: HTTPResponse.Status(code: error.status), headers: headers,
                    body: .init(byteBuffer: ByteBuffer(bytes: error.jsonBody)))
}

/// Takes the `--assets` folder's absolute path out of messages: `/srv/assets/fonts/a.ttf` becomes
/// `fonts/a.ttf`, `/srv/assets` alone becomes `.`. Both the path as given (made absolute) and its
/// real path (symbolic links resolved) are taken out, the longer first.
package struct AssetPathRedaction: Sendable {
    /// The absolute forms of the folder, longest first.
    package let prefixes: [String]

    /// The redaction of the folder `assets` (nil: nothing to take out).
    package init(assets: String?) {
        guard let assets, !assets.isEmpty else { prefixes = []; return }
        let absolute = assets.hasPrefix("/") ? assets : FileManager.default.currentDirectoryPath + "/" + assets
        var forms = [URL(fileURLWithPath: absolute).standardizedFileURL.path, absolute]
        if let real = realpath(absolute, nil) {
            forms.append(String(cString: real))
            free(real)
        }
        let trimmed = forms.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        prefixes = Array(Set(trimmed.filter { $0.hasPrefix("/") && $0 != "/" })).sorted { $0.count > $1.count }
    }

    /// `message` with the folder's absolute path taken out.
    package func redact(_ message: String) -> String {
        var text = message
        for prefix in prefixes {
            var out = ""
            var rest = Substring(text)
            while let range = rest.range(of: prefix) {
                out += rest[..<range.lowerBound]
                let after = rest[range.upperBound...]
                if after.hasPrefix("/") {
                    rest = after.dropFirst()
                } else if let next = after.first, next.isLetter || next.isNumber || "-_.".contains(next) {
                    // Another folder that merely starts the same way.
                    out += prefix
                    rest = after
                } else {
                    out += "."
                    rest = after
                }
            }
            text = out + rest
        }
        return text
    }
}

extension HTTPField.Name {
    /// The id of an unexpected error, as the server's log has it.
    static let errorID = HTTPField.Name("X-Error-Id")!
}
