// RenderWarning: something a render did other than what its scene asked, which
// did not stop it: text in characters no installed font has (drawn as the
// font's missing-glyph box), a font family no font has (drawn in the generic
// family its name suggests). Warnings are collected per scene while it is
// decoded (where text is laid out), kept on the Scene, copied onto its
// DisplayList when it is recorded, and reported by whoever rendered it (the
// command line on stderr, the server in X-Penumbra-Warnings). Nothing about
// them is process-wide: each decode starts with none.

/// A problem that did not stop a render, with the place in the scene that caused it.
public struct RenderWarning: Hashable, Sendable, CustomStringConvertible {
    /// Where: a path into the document (`ops[3]`, `images.badge.ops[0]`), or empty for the scene.
    public var location: String
    /// What happened, e.g. `no installed font has U+E000`.
    public var message: String

    /// A warning at `location` saying `message`.
    public init(location: String, message: String) { self.location = location; self.message = message }

    /// `location: message`, or just the message when the location is empty.
    public var description: String { location.isEmpty ? message : "\(location): \(message)" }
}

/// The warnings of one decode, bounded: after `limit` of them, only a count of the rest is kept.
struct RenderWarningList: Hashable, Sendable {
    /// The most warnings kept one by one.
    static let limit = 100

    private(set) var kept: [RenderWarning] = []
    private(set) var dropped = 0

    mutating func append(_ warning: RenderWarning) {
        guard !kept.contains(warning) else { return }
        if kept.count < RenderWarningList.limit { kept.append(warning) } else { dropped += 1 }
    }

    /// The kept warnings, and one more saying how many were left out.
    var all: [RenderWarning] {
        dropped == 0 ? kept : kept + [RenderWarning(location: "", message: "\(dropped) more warnings not listed")]
    }
}
