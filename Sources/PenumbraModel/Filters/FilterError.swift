// FilterError: how filter evaluation fails, on any renderer (a region over the
// pixel limit, a renderer's error).

/// A failure evaluating a filter graph (a region over the pixel limit, a renderer's error).
public struct FilterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, for people.
    public var message: String
    /// An error with `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
