// ClientConnections: the open connections of one server, what the request
// handlers need to know about each, and the connection cap.
//
// Every connection's pipeline holds a ConnectionWatch (ConnectionWatch.swift)
// that registers the connection here when it opens and removes it when it
// closes. A connection over `ConnectionLimits.maxConnections` is closed at
// once, before anything is read from it: an attacker opening thousands of
// sockets costs the server a file descriptor each for a moment, not a
// request's worth of buffers.
//
// What a handler learns from its connection's entry:
// - that the client went away (its FIN, or the connection dropping): Hummingbird
//   runs a handler to its end even then, so a render handler runs inside
//   `cancellingWhenGone`, which races the work against that signal; the work's
//   task is cancelled, RenderService stops the render at its next check, and
//   the request ends as 499 (nginx's "client closed request"). As in Go's
//   net/http and nginx, a client that half-closes after sending counts as gone;
//   HTTP/1.1 clients do not do that and still want the answer.
// - that its body was cut (`takeBodyCut()`): the watch ends a body that is too
//   slow or past the request's deadline, and the handler answers 408.
//
// A request on a channel with no watch (the in-process test router) just runs.
import Hummingbird
import NIOCore
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

/// The limits the connection watch enforces.
struct ConnectionLimits: Sendable {
    /// Connections open at once; one more is closed at once.
    var maxConnections = 512
    /// Each request's deadline from its head's arrival: a body still arriving then is cut (408).
    var requestDeadline: Duration = .seconds(30)
    /// The slowest average body rate accepted once `bodyGrace` has passed (bytes a second; 0: none).
    var minBodyBytesPerSecond = 0
    /// How long a body may arrive at any rate before `minBodyBytesPerSecond` applies.
    var bodyGrace: Duration = .seconds(5)
    /// How often a body's progress is checked.
    var checkInterval: Duration = .milliseconds(200)
    /// After a response that closes the connection: how long the rest of the request is read and
    /// dropped (so that closing does not reset the connection before the client reads the response),
    /// and the most bytes dropped.
    var linger: Duration = .seconds(2)
    var lingerBytes = 8 << 20
}

/// How a body was cut short.
enum BodyCut: Sendable, Hashable {
    /// The request's deadline passed while its body was arriving.
    case deadline
    /// The body arrived slower than the minimum rate.
    case tooSlow
}

/// The open connections of one server, by channel.
package final class ClientConnections: Sendable {
    /// One connection: whether its client is gone, who waits for that, and whether its body was cut.
    final class Connection: Sendable {
        private struct State {
            var gone = false
            var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
            var next = 0
            var bodyCut: BodyCut?
        }
        private let state = Mutex(State())

        /// Marks the client gone and wakes every waiter.
        func clientWent() {
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.gone = true
                defer { state.waiters.removeAll() }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume() }
        }

        /// Records that the current request's body was cut short.
        func cutBody(_ cut: BodyCut) { state.withLock { $0.bodyCut = cut } }

        /// How the current request's body was cut, if it was; clears it.
        func takeBodyCut() -> BodyCut? { state.withLock { state in defer { state.bodyCut = nil }; return state.bodyCut } }

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

    let limits: ConnectionLimits
    private let table = Mutex<[ObjectIdentifier: Connection]>([:])
    private let onRefused: @Sendable () -> Void

    /// Connections watched under `limits`; `onRefused` is called for each one closed by the cap.
    init(limits: ConnectionLimits = ConnectionLimits(), onRefused: @escaping @Sendable () -> Void = {}) {
        self.limits = limits
        self.onRefused = onRefused
    }

    /// Connections open now.
    package var count: Int { table.withLock { $0.count } }

    /// A fresh watch handler for a new connection's pipeline.
    func makeHandler() -> any RemovableChannelHandler { ConnectionWatch(connections: self) }

    /// Registers `channel`'s connection; nil (and counted as refused) when `maxConnections` are open.
    func open(_ channel: any Channel) -> Connection? {
        let connection = Connection()
        let admitted = table.withLock { table -> Bool in
            guard table.count < limits.maxConnections else { return false }
            table[ObjectIdentifier(channel)] = connection
            return true
        }
        guard admitted else {
            onRefused()
            return nil
        }
        return connection
    }

    /// Forgets `channel`'s connection.
    func close(_ channel: any Channel) {
        _ = table.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// The watched connection of `channel`, if it has one.
    func connection(for channel: any Channel) -> Connection? {
        table.withLock { $0[ObjectIdentifier(channel)] }
    }

    /// Runs `work`; if the client of `channel` goes away first, cancels it and throws `ClientWentAway`.
    func cancellingWhenGone<T: Sendable>(_ channel: any Channel, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let connection = connection(for: channel) else { return try await work() }
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
