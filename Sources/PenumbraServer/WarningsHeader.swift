// WarningsHeader: a render's warnings as the value of X-Penumbra-Warnings.
// A header value must be visible ASCII, and proxies refuse long headers, so:
// each warning is `place: message`, warnings are separated by "; ", every
// character outside printable ASCII is written as its code point (U+4E16),
// a character the message already named by its code point (`U+4E16 '世'`)
// is not repeated, and the value stops at `maximumLength` characters with a
// count of the warnings left out.
import PenumbraModel
import PenumbraCore

enum WarningsHeader {
    /// The longest value sent.
    static let maximumLength = 1024

    /// The header's value; nil when there is nothing to say.
    static func value(_ warnings: [RenderWarning]) -> String? {
        guard !warnings.isEmpty else { return nil }
        let items = warnings.map { ascii($0.description) }
        var value = ""
        for (i, item) in items.enumerated() {
            let separator = value.isEmpty ? "" : "; "
            let left = items.count - i - 1
            let tail = left > 0 ? "; and \(left) more" : ""
            if value.count + separator.count + item.count + tail.count <= maximumLength {
                value += separator + item
                continue
            }
            let more = "; and \(items.count - i) more"
            if value.isEmpty {
                // Not even the first fits: it is cut, with what was left out counted.
                let room = maximumLength - 3 - (left > 0 ? "; and \(left) more".count : 0)
                return String(item.prefix(room)) + "..." + (left > 0 ? "; and \(left) more" : "")
            }
            return value + more
        }
        return value
    }

    /// `text` in printable ASCII: other characters as `U+XXXX`, a quoted character right after
    /// its own code point dropped.
    static func ascii(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = ""
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            if s.value >= 0x20, s.value < 0x7F {
                out.unicodeScalars.append(s)
            } else {
                let code = codePoint(s)
                // `U+4E16 '世'`: the quoted character repeats what its code point said.
                if out.hasSuffix(code + " '"), i + 1 < scalars.count, scalars[i + 1] == "'" {
                    out.removeLast(2)
                    i += 2
                    continue
                }
                out += code
            }
            i += 1
        }
        return out
    }

    static func codePoint(_ s: Unicode.Scalar) -> String {
        let hex = String(s.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
