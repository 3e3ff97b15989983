// OutputFormat: the one place where a rendered bitmap becomes the bytes a
// client receives. The server asks `encode(_:quality:)` and nothing else, so
// a new codec is one case here. Today the project encodes PNG only; JPEG and
// WebP are named (a request for them gets a 400 naming `format`) until their
// encoders land, and `isAvailable` says which can be served.
import PenumbraCore

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

    /// True when this build has an encoder for the format.
    public var isAvailable: Bool { self == .png }

    /// Refuses a format this build cannot encode (400, place `format`).
    public func checkAvailable() throws {
        guard isAvailable else {
            throw RequestError(400, "the output format \(rawValue) is not available in this build (png is)", place: "format")
        }
    }

    /// Encodes the bitmap; `quality` (1...100) applies to lossy formats.
    public func encode(_ bitmap: Bitmap, quality: Int) throws -> [UInt8] {
        switch self {
        case .png: return try PNGCodec.encode(bitmap)
        case .jpeg, .webp:
            try checkAvailable()
            return []
        }
    }
}
