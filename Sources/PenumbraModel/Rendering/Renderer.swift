// Renderer: the one small protocol both backends implement (Skia's device,
// Blend2D's virtual table): a display list in, premultiplied pixels out.
// Backend types never appear in the rest of the public API.

/// Something that turns a display list into pixels.
public protocol Renderer: AnyObject {
    /// A short human-readable name: "cpu", or the GPU's renderer string.
    var name: String { get }
    /// Renders the list into a new bitmap of its size.
    func render(_ list: DisplayList) throws -> Bitmap
    /// Renders the list, stopping between draws with ``RenderCancelled`` once `cancellation` is set
    /// (a default implementation checks only before and after the render).
    func render(_ list: DisplayList, cancellation: RenderCancellation?) throws -> Bitmap
    /// Renders the list into `bitmap`, reusing its memory when it holds as many pixels as the
    /// list's canvas (the previous frame of a loop: no new allocation, no page faults). The
    /// pixels are the ones `render(_:)` returns; on a throw `bitmap`'s contents are unspecified.
    /// The default implementation renders a new bitmap.
    func render(_ list: DisplayList, into bitmap: inout Bitmap) throws
}

extension Renderer {
    public func render(_ list: DisplayList, into bitmap: inout Bitmap) throws {
        bitmap = try render(list)
    }

    /// Renders `recording` lowered at `scale` over `background` (transparent when nil): the pixels
    /// of making its calls on a context of its size at that scale.
    public func render(_ recording: Recording, scale: Double = 1, background: Color? = nil) throws -> Bitmap {
        try render(recording.displayList(scale: scale, background: background))
    }
}

/// A failure while rendering (as opposed to a rejected input).
public struct RenderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in words; also the error's ``description``.
    public var message: String
    /// Creates the error with its message.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The requested backend cannot run here (no GPU context, or a canvas it cannot hold).
/// Lives in the core so that every backend can throw it; the command line maps it to exit 3.
public struct BackendUnavailable: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why the backend is unavailable, in words; also the error's ``description``.
    public var message: String
    /// Creates the error with its message.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
