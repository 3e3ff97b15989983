// OutputFormat: the one place where a rendered bitmap becomes the bytes a
// client receives. The server asks `encode(_:quality:)` and nothing else, so
// a new codec is one case here: PenumbraIO's PNG, JPEG (4:2:0, transparency
// flattened on white) and WebP (lossy) encoders.
import PenumbraCore
import PenumbraIO

/// An image format the server can be asked for.
public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    case png, jpeg, webp

    /// The format a query value or path extension names (`jpg` is JPEG); nil for any other.
    public init?(name: String) {
        switch name.lowercased() {
        case "png": self = .png
        case "jpeg", "jpg": self = .jpeg
        case "webp": self = .webp
        default: return nil
        }
    }

    /// The media type of the response.
    public var contentType: String {
        switch self {
        case .png: return "image/png"
        case .jpeg: return "image/jpeg"
        case .webp: return "image/webp"
        }
    }

    /// True when this build has an encoder for the format (every format now).
    public var isAvailable: Bool { true }

    /// Refuses a format this build cannot encode (400, place `format`).
    public func checkAvailable() throws {
        guard isAvailable else {
            throw RequestError(400, "the output format \(rawValue) is not available in this build (png is)", place: "format")
        }
    }

    /// Encodes the bitmap; `quality` (1...100) applies to lossy formats.
    public func encode(_ bitmap: Bitmap, quality: Int) throws -> [UInt8] {
        switch self {
        case .png: return try PNGEncoder().encode(bitmap)
        case .jpeg: return try JPEGEncoder(quality: quality).encode(bitmap)
        case .webp: return try WebPEncoder(quality: quality).encode(bitmap)
        }
    }
}
