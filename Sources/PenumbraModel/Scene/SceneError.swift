// SceneError: why a scene was rejected, and where. Every check of the decoder
// (and every JSON syntax error) ends in one of these, so a caller needs to
// catch one type; the location is a path into the document written the way
// a user would point at it: "ops[12].matrix", "images.mars", "size[0]",
// "" for the document as a whole, "line 3, column 14" for JSON syntax.

/// A scene that breaks a rule of the scene format, with the place that breaks it.
public struct SceneError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the problem is: a path into the document (`ops[12].matrix`, `images.mars`, `size[0]`),
    /// `line L, column C` for a JSON syntax error, or empty for the document as a whole.
    public var location: String
    /// What is wrong, concise and specific (`expected 6 numbers, got 5`).
    public var message: String

    /// An error at `location` saying `message`.
    public init(location: String, message: String) {
        self.location = location; self.message = message
    }

    /// `location: message`, or just the message when the location is empty (the document level).
    public var description: String { location.isEmpty ? message : "\(location): \(message)" }
}
