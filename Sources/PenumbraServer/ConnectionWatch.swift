// ConnectionWatch: the handler in every connection's pipeline (after the
// HTTP codec, before Hummingbird's own handlers) that sees each request part
// come in and each response part go out, on the connection's event loop.
//
// - The cap: when the connection opens it registers with ClientConnections,
//   and is closed at once when `maxConnections` are already open.
// - The client leaving: its FIN or a dropped connection tells the request
//   handler (ClientConnections.Connection.clientWent).
// - Bodies: from a request's head on, its body is checked every
//   `checkInterval`: when the request's deadline passes, or once `bodyGrace`
//   is over the body has arrived at less than `minBodyBytesPerSecond` on
//   average, the body is cut: the handler is told why, the body stream it
//   reads ends there, and the rest of the body is dropped; the handler
//   answers 408 and the connection is closed. A body still arriving after its
//   response was sent is cut by closing the connection.
// - Closing after a response: a response whose head says `Connection: close`
//   (a request refused before its body was read, or a cut body) is followed
//   by a lingering close: the output is shut (the client sees the response
//   and its end), the rest of what the client sends is read and dropped for
//   up to `linger` or `lingerBytes`, then the connection is closed. Closing at
//   once with unread bytes would make the kernel reset the connection, and a
//   reset can destroy the response before the client reads it.
import HTTPTypes
import NIOCore
import NIOHTTPTypes

final class ConnectionWatch: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let connections: ClientConnections
    private var limits: ConnectionLimits { connections.limits }
    private var connection: ClientConnections.Connection?
    private var opened = false

    /// The current request's body: open (arriving, not cut), its bytes, when its head came.
    private var bodyOpen = false
    private var bodyBytes = 0
    private var headArrival = NIODeadline.now()
    private var check: Scheduled<Void>?
    /// The rest of a cut body is being dropped until its end.
    private var droppingBody = false
    /// The current request's response has been sent in full.
    private var responded = false
    /// The response being written says `Connection: close`.
    private var closeAfterResponse = false
    /// The output is shut and input is being dropped until the connection closes.
    private var lingering = false
    private var lingerDropped = 0

    init(connections: ClientConnections) { self.connections = connections }

    // MARK: Opening and closing

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { open(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        open(context)
        context.fireChannelActive()
    }

    /// Registers the connection, or closes it at once when the server has its most.
    private func open(_ context: ChannelHandlerContext) {
        guard !opened else { return }
        opened = true
        guard let connection = connections.open(context.channel) else {
            context.close(promise: nil)
            return
        }
        self.connection = connection
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopChecking()
        if connection != nil { connections.close(context.channel) }
        connection?.clientWent()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopChecking()
        connection?.clientWent()
        if connection != nil { connections.close(context.channel) }
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            connection?.clientWent()
            if lingering { context.close(promise: nil); return }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // While lingering nobody reads the request any more: a parse error of what is dropped ends it.
        if lingering { context.close(promise: nil); return }
        context.fireErrorCaught(error)
    }

    // MARK: Requests in

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if lingering {
            if case .body(let buffer) = part { lingerDropped += buffer.readableBytes }
            if lingerDropped > limits.lingerBytes { context.close(promise: nil) }
            return
        }
        switch part {
        case .head:
            bodyOpen = true; bodyBytes = 0; headArrival = .now(); responded = false; closeAfterResponse = false
            scheduleCheck(context)
        case .body(let buffer):
            if droppingBody { return }
            bodyBytes += buffer.readableBytes
        case .end:
            if droppingBody { droppingBody = false; return }
            bodyOpen = false
            stopChecking()
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if lingering { context.read() }
        context.fireChannelReadComplete()
    }

    // MARK: Responses out

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        switch part {
        case .head(let head):
            if head.headerFields[.connection]?.lowercased() == "close" { closeAfterResponse = true }
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            responded = true
            if closeAfterResponse || droppingBody {
                context.writeAndFlush(data, promise: promise)
                linger(context)
            } else {
                context.write(data, promise: promise)
            }
        }
    }

    /// Shuts the output, drops what still comes in, and closes after `linger`.
    private func linger(_ context: ChannelHandlerContext) {
        guard !lingering else { return }
        lingering = true
        stopChecking()
        context.close(mode: .output, promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(limits.linger)) {
            context.close(promise: nil)
        }
        context.read()
    }

    // MARK: Body checks

    private func scheduleCheck(_ context: ChannelHandlerContext) {
        stopChecking()
        check = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(limits.checkInterval)) { [self] in
            check = nil
            checkBody(context)
        }
    }

    private func stopChecking() {
        check?.cancel()
        check = nil
    }

    /// Cuts the body when it is past the deadline or too slow; else checks again later.
    private func checkBody(_ context: ChannelHandlerContext) {
        guard bodyOpen, !lingering else { return }
        let elapsed = Duration(NIODeadline.now() - headArrival)
        var cut: BodyCut?
        if elapsed >= limits.requestDeadline {
            cut = .deadline
        } else if limits.minBodyBytesPerSecond > 0, elapsed >= limits.bodyGrace,
                  Double(bodyBytes) < Double(limits.minBodyBytesPerSecond) * (elapsed / .seconds(1)) {
            cut = .tooSlow
        }
        guard let cut else { return scheduleCheck(context) }
        bodyOpen = false
        if responded {
            // Nobody waits for this body: its response is out.
            context.close(promise: nil)
            return
        }
        // The handler reading the body sees it end here, and learns why.
        connection?.cutBody(cut)
        droppingBody = true
        context.fireChannelRead(wrapInboundOut(.end(nil)))
        context.fireChannelReadComplete()
    }
}

