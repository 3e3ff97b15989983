// OutputFormat: the formats a client can ask for. The server turns a bitmap
// into bytes only through `encode(_:quality:)` (PenumbraServer's
// OutputFormat+Encoding.swift, on PenumbraIO's encoders), so a new codec is
// one case here and one there; this target stays free of the codecs so that
// the request fuzzer links the parsing alone.
import PenumbraModel
import PenumbraCore

/// An image format the server can be asked for.
package enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    case png, jpeg, webp

    /// The format a query value or path extension names (`jpg` is JPEG); nil for any other.
    package init?(name: String) {
        switch name.lowercased() {
        case "png": self = .png
        case "jpeg", "jpg": self = .jpeg
        case "webp": self = .webp
        default: return nil
        }
    }

    /// The media type of the response.
    package var contentType: String {
        switch self {
        case .png: return "image/png"
        case .jpeg: return "image/jpeg"
        case .webp: return "image/webp"
        }
    }
}
