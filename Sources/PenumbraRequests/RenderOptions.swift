// RenderOptions: the query of a render request (`format`, `quality`,
// `lossless`, `scale`, `time`, `backend`), parsed strictly: an unknown or
// repeated key, or a value out of range, is a 400 naming `query.KEY`.
// Without `format` the request's `Accept` header chooses (negotiated(accept:),
// AcceptNegotiation.swift). `canonical` writes the options back in one fixed
// order, so that two queries meaning the same render share one cache entry
// and one ETag.
//
// `time` (seconds, for animated images) is validated and keyed but has no
// effect until the decoder reads animated images.
import Foundation

/// What a render request asks for besides its scene.
package struct RenderOptions: Sendable, Hashable {
    /// The output format (default PNG, or what `Accept` prefers when the query names none).
    package var format: OutputFormat = .png
    /// True when the query named the format (then `Accept` is not consulted).
    package var formatGiven = false
    /// Lossless WebP (`lossless=true`); PNG is always lossless, JPEG never.
    package var lossless = false
    /// Quality of lossy formats, 1...100 (default 90).
    package var quality: Int = 90
    /// Pixels per point, overriding the scene's.
    package var scale: Double?
    /// The time for animated images, in seconds.
    package var time: Double = 0
    /// The backend asked for: auto, cpu or gpu.
    package var backend: String = "auto"

    package init() {}

    static let keys: Set<String> = ["backend", "format", "lossless", "quality", "scale", "time"]

    /// Parses a raw query string (without `?`; percent-encoded, `+` as space).
    package static func parse(query: String) throws -> RenderOptions {
        var options = RenderOptions()
        var seen: Set<String> = []
        for item in query.split(separator: "&", omittingEmptySubsequences: true) {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = decode(pair[0]), value = pair.count > 1 ? decode(pair[1]) : ""
            let place = "query." + key
            guard keys.contains(key) else {
                throw RequestError(400, "unknown query parameter; known: \(keys.sorted().joined(separator: ", "))", place: place)
            }
            guard seen.insert(key).inserted else { throw RequestError(400, "given more than once", place: place) }
            switch key {
            case "format":
                guard let format = OutputFormat(name: value) else {
                    throw RequestError(400, "unknown format \(RequestError.quote(value)); expected png, jpeg or webp", place: place)
                }
                options.format = format
                options.formatGiven = true
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
            case "lossless":
                guard value == "true" || value == "false" else {
                    throw RequestError(400, "expected true or false, got \(RequestError.quote(value))", place: place)
                }
                options.lossless = value == "true"
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
        if options.lossless, options.formatGiven, options.format == .jpeg {
            throw RequestError(400, "lossless applies to WebP (PNG is always lossless); JPEG has no lossless mode",
                               place: "query.lossless")
        }
        return options
    }

    /// The options in one fixed order, for cache keys and ETags.
    package var canonical: String {
        "format=\(format.rawValue)&quality=\(quality)&lossless=\(lossless && format == .webp)&scale=\(scale.map { "\($0)" } ?? "-")&time=\(time)&backend=\(backend)"
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
