// RenderCancellation: how a caller stops a render that has passed its
// deadline. The caller keeps the token and sets it from any thread; the
// renderer checks it between draws (one atomic load per draw, nothing when
// no token is given) and throws `RenderCancelled`, dropping the frame and
// every surface it leased, so the renderer is ready for the next list. The
// CPU renderer also looks at it every few dozen rows inside a draw's long
// loops (compositing, shadow casters, blur passes) and leaves the rest of
// the draw, so even one huge draw stops within milliseconds; the pixels are
// never read after that, because the render throws.
import CPNG
import Synchronization

/// A flag that stops a render between draws once set.
public final class RenderCancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    /// The same flag as C loops read it (penumbra_flag.h), set together with `flag`.
    private let cFlag = CFlag()

    /// A token not yet cancelled.
    public init() {}

    /// Asks the render to stop at its next check; safe from any thread.
    public func cancel() {
        flag.store(true, ordering: .relaxed)
        penumbra_flag_set(cFlag.pointer)
    }

    /// The flag for C code that looks at it between its own units of work (the PNG encoder).
    package var flagForC: UnsafePointer<Int32> { UnsafePointer(cFlag.pointer) }

    /// True once `cancel()` has been called.
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }

    /// Throws `RenderCancelled` when cancelled.
    public func check() throws { if isCancelled { throw RenderCancelled() } }
}

/// A render stopped by its `RenderCancellation`.
public struct RenderCancelled: Error, Hashable, Sendable, CustomStringConvertible {
    /// Creates the error, for a renderer or a loop that stops because its token was cancelled.
    public init() {}
    public var description: String { "the render was cancelled" }
}

extension Renderer {
    /// Renders with a cancellation token, throwing ``RenderCancelled`` once it is set. Renderers that
    /// check between draws implement this; this default implementation checks only before and
    /// after the render.
    public func render(_ list: DisplayList, cancellation: RenderCancellation?) throws -> Bitmap {
        try cancellation?.check()
        let bitmap = try render(list)
        try cancellation?.check()
        return bitmap
    }
}

// MARK: The current token
//
// A request's token reaches the loops that can run long without being handed
// down through every call: the worker that runs a request binds it for the
// request's whole work (decoding, recording, rendering, encoding) with
// `during`, and any loop reads `RenderCancellation.current`. Code that fans
// work out to other threads reads it once before and hands it to them (task
// locals do not follow work onto other threads).
extension RenderCancellation {
    /// The token of the work this thread (or task) is doing, if its caller bound one; nil otherwise.
    ///
    /// This is a task-local value: bind it for a piece of work with ``during(_:)``, or with
    /// `RenderCancellation.$current.withValue(token) { ... }` (the same thing). Penumbra's long
    /// loops that run inside that work (scene and image decoding, text layout, stroke outlining,
    /// filters, rendering, PNG encoding) look at it and stop soon after the token is cancelled,
    /// throwing ``RenderCancelled`` (the CPU and GPU renderers' `render(_:)` included; a text laid out
    /// through the text API throws `TextEngineError` instead). Task-local values do not follow
    /// work onto threads you start yourself: read it before handing work to other threads, and
    /// bind it there again.
    @TaskLocal public static var current: RenderCancellation?

    /// Runs `body` with this token bound as ``current``, and returns what `body` returns;
    /// rethrows what `body` throws (``RenderCancelled`` among them, once the token is cancelled).
    public func during<R>(_ body: () throws -> R) rethrows -> R {
        try RenderCancellation.$current.withValue(self, operation: body)
    }

    /// Throws `RenderCancelled` when the current token (if any) is cancelled.
    package static func checkCurrent() throws { try current?.check() }

    /// True when the current token (if any) is cancelled.
    package static var currentIsCancelled: Bool { current?.isCancelled == true }
}

/// An int that C reads and writes only through penumbra_flag.h's atomic builtins, so sharing it
/// between threads is safe; freed with its token.
private final class CFlag: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Int32>
    init() { pointer = .allocate(capacity: 1); pointer.initialize(to: 0) }
    deinit { pointer.deallocate() }
}
