// RenderCancellation: how a caller stops a render that has passed its
// deadline. The caller keeps the token and sets it from any thread; the
// renderer checks it between draws (one atomic load per draw, nothing when
// no token is given) and throws `RenderCancelled`, dropping the frame and
// every surface it leased, so the renderer is ready for the next list. The
// CPU renderer also looks at it every few dozen rows inside a draw's long
// loops (compositing, shadow casters, blur passes) and leaves the rest of
// the draw, so even one huge draw stops within milliseconds; the pixels are
// never read after that, because the render throws.
import Synchronization

/// A flag that stops a render between draws once set.
public final class RenderCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    /// A token not yet cancelled.
    public init() {}

    /// Asks the render to stop at its next check; safe from any thread.
    public func cancel() { flag.store(true, ordering: .relaxed) }

    /// True once `cancel()` has been called.
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }

    /// Throws `RenderCancelled` when cancelled.
    public func check() throws { if isCancelled { throw RenderCancelled() } }
}

/// A render stopped by its `RenderCancellation`.
public struct RenderCancelled: Error, Hashable, Sendable, CustomStringConvertible {
    public init() {}
    public var description: String { "the render was cancelled" }
}

extension Renderer {
    /// Renders with a cancellation token. Renderers that check between draws implement this;
    /// the fallback checks before and after only.
    public func render(_ list: DisplayList, cancellation: RenderCancellation?) throws -> Bitmap {
        try cancellation?.check()
        let bitmap = try render(list)
        try cancellation?.check()
        return bitmap
    }
}
