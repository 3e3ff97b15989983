// RequestBody: reading a POST's body once the request has its place in the
// render queue, within three bounds:
// - its size: `--max-body-bytes` (a Content-Length over it is 413 before a
//   byte is read; a chunked body is 413 as soon as it passes it);
// - the server's memory for bodies: every body held, from its first byte to
//   its response, is charged to one BodyBudget of `--body-memory-bytes`; a
//   request whose Content-Length does not fit is 429 before its body is read,
//   a chunked one as soon as a chunk does not fit;
// - time: the connection watch cuts a body that is past the request's
//   deadline or slower than `--min-body-bytes-per-second` (ConnectionWatch),
//   and the request ends as 408.
// A malformed body (a bad chunk size) is the client's error, 400. The bytes are
// read into one array reserved at the Content-Length, so a body is held once.
import Hummingbird
import NIOCore
import NIOHTTP1
import PenumbraRequests
import Synchronization

/// The bytes of request bodies held in memory at once, across one server.
final class BodyBudget: Sendable {
    /// The most bytes held at once.
    let limit: Int
    private let held = Mutex(0)

    init(limit: Int) { self.limit = limit }

    /// Bytes held now.
    var bytes: Int { held.withLock { $0 } }

    /// Takes `count` bytes; false when they do not fit.
    fileprivate func take(_ count: Int) -> Bool {
        held.withLock { held in
            guard count <= limit - held else { return false }
            held += count
            return true
        }
    }

    fileprivate func giveBack(_ count: Int) { held.withLock { $0 -= count } }
}

/// One request's share of the BodyBudget; `release()` gives it back (call it when the request ends).
final class BodyCharge: Sendable {
    private let budget: BodyBudget
    private let charged = Mutex(0)

    init(_ budget: BodyBudget) { self.budget = budget }

    /// Adds `count` bytes to the charge; throws 429 when the budget cannot hold them.
    func add(_ count: Int) throws {
        guard budget.take(count) else {
            throw RequestError(429, "the server holds as many request bodies as it may (--body-memory-bytes); retry later",
                               place: "body", retryAfter: 1)
        }
        charged.withLock { $0 += count }
    }

    /// Gives the whole charge back; idempotent.
    func release() {
        let count = charged.withLock { charged in defer { charged = 0 }; return charged }
        budget.giveBack(count)
    }
}

extension ServerRoutes {
    /// The body of `request`, charged to `charge`, within the limits above.
    func readBody(_ request: Request, channel: any Channel, charge: BodyCharge) async throws -> [UInt8] {
        let maxBytes = configuration.maxBodyBytes
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        if let declared {
            guard declared <= maxBytes else { throw tooLarge() }
            try charge.add(declared)
        }
        var body: [UInt8] = []
        body.reserveCapacity(declared ?? 0)
        do {
            for try await chunk in request.body {
                guard chunk.readableBytes <= maxBytes - body.count else { throw tooLarge() }
                if declared == nil { try charge.add(chunk.readableBytes) }
                body.append(contentsOf: chunk.readableBytesView)
            }
        } catch let error as HTTPParserError {
            throw RequestError(400, "the request is not valid HTTP/1.1: \(error)", place: "body")
        }
        // A body that ended because the server is stopping is not a short body.
        try Task.checkCancellation()
        switch clients.connection(for: channel)?.takeBodyCut() {
        case .deadline?:
            throw RequestError(408, "the body did not arrive within the request's deadline (--timeout-ms)", place: "body")
        case .tooSlow?:
            throw RequestError(408, "the body arrived slower than \(configuration.minBodyBytesPerSecond) bytes a second "
                + "(--min-body-bytes-per-second)", place: "body")
        case nil:
            return body
        }
    }

    func tooLarge() -> RequestError {
        RequestError(413, "the body is larger than \(configuration.maxBodyBytes) bytes (--max-body-bytes)", place: "body")
    }
}
