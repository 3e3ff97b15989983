// ClientConnections: a render is stopped when its client goes away.
//
// Hummingbird runs a handler to its end even when the client has closed
// the connection, so a client that posts a slow scene and leaves would keep
// a worker for the whole render (or until the deadline). A small channel
// handler in each connection's pipeline watches for the client's end: the
// input closing (the client's FIN; the server allows half-closure, so this
// arrives as an event, not as a closed channel) or the connection dropping
// (a reset). The render handler runs inside `cancellingWhenGone`, which
// races the work against that signal in a task group: when the client goes
// first, the work's task is cancelled, RenderService stops the render at its
// next check and frees the worker, and the request ends as 499 (nginx's
// "client closed request") in the log and the metrics. As in Go's net/http
// and nginx, a client that half-closes its side after sending the request
// counts as gone; HTTP/1.1 clients do not do that and still want the answer.
//
// The handler registers its connection under the channel's identity for the
// life of the channel, so a request finds it from its context's channel; a
// request on a channel with no watch (the in-process test router) just runs.
import Hummingbird
import NIOCore
import NIOHTTPTypes
import Synchronization

/// A request handler's context: Hummingbird's, the connection's channel, and notes for the log line.
package struct ServerRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    let channel: any Channel
    /// What the handler found out that the request's log line and metrics must say.
    let notes = RequestNotes()

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// Why a request ended early: its client closed the connection.
struct ClientWentAway: Error {}

/// The open connections of one server, by channel.
package final class ClientConnections: Sendable {
    /// One connection: whether its client is gone, and who waits for that.
    final class Connection: Sendable {
        private let state = Mutex<(gone: Bool, waiters: [Int: CheckedContinuation<Void, Never>], next: Int)>((false, [:], 0))

        /// Marks the client gone and wakes every waiter.
        func clientWent() {
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.gone = true
                defer { state.waiters.removeAll() }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume() }
        }

        /// Returns when the client is gone or the calling task is cancelled (then it throws).
        func waitUntilGone() async throws {
            let id = state.withLock { state -> Int in state.next += 1; return state.next }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let resumeNow = state.withLock { state -> Bool in
                        if state.gone || Task.isCancelled { return true }
                        state.waiters[id] = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            } onCancel: {
                let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
                waiter?.resume()
            }
            try Task.checkCancellation()
        }
    }

    private let table = Mutex<[ObjectIdentifier: Connection]>([:])

    /// Connections being watched now.
    package var count: Int { table.withLock { $0.count } }

    /// A fresh watch handler for a new connection's pipeline.
    func makeHandler() -> any RemovableChannelHandler { ConnectionWatch(connections: self) }

    fileprivate func register(_ channel: any Channel) -> Connection {
        let connection = Connection()
        table.withLock { $0[ObjectIdentifier(channel)] = connection }
        return connection
    }

    fileprivate func unregister(_ channel: any Channel) {
        _ = table.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Runs `work`; if the client of `channel` goes away first, cancels it and throws `ClientWentAway`.
    func cancellingWhenGone<T: Sendable>(_ channel: any Channel, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let connection = table.withLock({ $0[ObjectIdentifier(channel)] }) else { return try await work() }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await connection.waitUntilGone()
                throw ClientWentAway()
            }
            defer { group.cancelAll() }
            // The first child to finish decides: the work's result, or the client's departure.
            guard let first = try await group.next(), let value = first else { throw ClientWentAway() }
            return value
        }
    }
}

/// The pipeline handler that tells a connection's watch when its client leaves.
private final class ConnectionWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    let connections: ClientConnections
    private var connection: ClientConnections.Connection?

    init(connections: ClientConnections) { self.connections = connections }

    func handlerAdded(context: ChannelHandlerContext) {
        connection = connections.register(context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        connections.unregister(context.channel)
        connection?.clientWent()
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection?.clientWent()
        connections.unregister(context.channel)
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { connection?.clientWent() }
        context.fireUserInboundEventTriggered(event)
    }
}
