// RenderOptions: the query of a render request (`format`, `quality`,
// `scale`, `time`, `backend`), parsed strictly: an unknown or repeated key,
// or a value out of range, is a 400 naming `query.KEY`. `canonical` writes
// the options back in one fixed order, so that two queries meaning the same
// render share one cache entry and one ETag.
//
// `time` (seconds, for animated images) is validated and keyed but has no
// effect until the decoder reads animated images.
import Foundation

/// What a render request asks for besides its scene.
package struct RenderOptions: Sendable, Hashable {
    /// The output format (default PNG).
    package var format: OutputFormat = .png
    /// Quality of lossy formats, 1...100 (default 90).
    package var quality: Int = 90
    /// Pixels per point, overriding the scene's.
    package var scale: Double?
    /// The time for animated images, in seconds.
    package var time: Double = 0
    /// The backend asked for: auto, cpu or gpu.
    package var backend: String = "auto"

    package init() {}

    static let keys: Set<String> = ["format", "quality", "scale", "time", "backend"]

    /// Parses a raw query string (without `?`; percent-encoded, `+` as space).
    package static func parse(query: String) throws -> RenderOptions {
        var options = RenderOptions()
        var seen: Set<String> = []
        for item in query.split(separator: "&", omittingEmptySubsequences: true) {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = decode(pair[0]), value = pair.count > 1 ? decode(pair[1]) : ""
            let place = "query." + key
            guard keys.contains(key) else {
                throw RequestError(400, "unknown query parameter; known: backend, format, quality, scale, time", place: place)
            }
            guard seen.insert(key).inserted else { throw RequestError(400, "given more than once", place: place) }
            switch key {
            case "format":
                guard let format = OutputFormat(name: value) else {
                    throw RequestError(400, "unknown format \(RequestError.quote(value)); expected png, jpeg or webp", place: place)
                }
                options.format = format
            case "quality":
                guard let q = Int(value), (1...100).contains(q) else {
                    throw RequestError(400, "expected an integer in 1...100, got \(RequestError.quote(value))", place: place)
                }
                options.quality = q
            case "scale":
                guard let s = Double(value), s.isFinite, s > 0, s <= 16 else {
                    throw RequestError(400, "expected a number greater than 0 and at most 16, got \(RequestError.quote(value))", place: place)
                }
                options.scale = s
            case "time":
                guard let t = Double(value), t.isFinite, t >= 0 else {
                    throw RequestError(400, "expected a finite number of seconds >= 0, got \(RequestError.quote(value))", place: place)
                }
                options.time = t
            default: // backend
                guard ["auto", "cpu", "gpu"].contains(value) else {
                    throw RequestError(400, "expected auto, cpu or gpu, got \(RequestError.quote(value))", place: place)
                }
                options.backend = value
            }
        }
        return options
    }

    /// The options in one fixed order, for cache keys and ETags.
    package var canonical: String {
        "format=\(format.rawValue)&quality=\(quality)&scale=\(scale.map { "\($0)" } ?? "-")&time=\(time)&backend=\(backend)"
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
