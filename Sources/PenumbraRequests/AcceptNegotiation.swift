// Content negotiation for a render whose query names no `format`: the
// request's `Accept` header (RFC 9110, section 12.5.1) picks among PNG, WebP
// and JPEG. Each format gets the quality value of the most specific media range
// that matches it (`image/webp` before `image/*` before `*/*`); the highest
// value wins; on a tie the more specific match wins (a browser's
// `image/webp,image/*,*/*;q=0.8` gets WebP, since it names WebP and PNG only
// through a wildcard), then PNG before WebP before JPEG (so `*/*`, curl's
// default, and no header at all keep PNG). A header that accepts none of them
// (or cannot be parsed) gets PNG anyway: HTTP lets a server disregard Accept,
// and an image is more use than a 406 to a client that sent an odd header.
// The response carries `Vary: Accept` so that caches keep the variants apart.

import Foundation

extension RenderOptions {
    /// The options with the format `accept` prefers, unless the query named one.
    package func negotiated(accept: String?) -> RenderOptions {
        guard !formatGiven, let accept else { return self }
        var options = self
        options.format = OutputFormat.preferred(accept: accept)
        return options
    }
}

extension OutputFormat {
    /// The format an `Accept` header prefers; PNG when it prefers none of them.
    package static func preferred(accept: String) -> OutputFormat {
        let ranges = accept.split(separator: ",").compactMap(MediaRange.init)
        var best: (format: OutputFormat, q: Double, specificity: Int)?
        for format in [OutputFormat.png, .webp, .jpeg] {
            let (type, subtype) = ("image", String(format.contentType.dropFirst("image/".count)))
            // The most specific range matching this format decides its quality value.
            guard let match = ranges.filter({ $0.matches(type: type, subtype: subtype) }).max(by: { $0.specificity < $1.specificity }),
                  match.q > 0 else { continue }
            if best == nil || match.q > best!.q || (match.q == best!.q && match.specificity > best!.specificity) {
                best = (format, match.q, match.specificity)
            }
        }
        return best?.format ?? .png
    }
}

/// One media range of an Accept header: `type/subtype` with its `q` parameter.
struct MediaRange {
    var type: String, subtype: String, q: Double

    init?(_ text: Substring) {
        let parts = text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let range = parts.first else { return nil }
        let halves = range.split(separator: "/", maxSplits: 1).map(String.init)
        guard halves.count == 2, !halves[0].isEmpty, !halves[1].isEmpty, halves[0] != "*" || halves[1] == "*" else { return nil }
        type = halves[0]; subtype = halves[1]; q = 1
        for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
            guard let value = Double(parameter.dropFirst(2)), value.isFinite, (0...1).contains(value) else { return nil }
            q = value
        }
    }

    /// 2 for `type/subtype`, 1 for `type/*`, 0 for `*/*`.
    var specificity: Int { type == "*" ? 0 : (subtype == "*" ? 1 : 2) }

    func matches(type t: String, subtype s: String) -> Bool {
        (type == "*" || type == t) && (subtype == "*" || subtype == s)
    }
}
