// RequestError: every refusal of the render server, as the HTTP status and
// the JSON body `{"error": "...", "place": "..."}` of SCENE_FORMAT.md's
// "Render server". The place points into what the client sent, the way the
// scene decoder's errors do: `ops[3].matrix` inside the scene, `query.scale`
// for a query parameter, `body` for the request body, `parts.NAME` for a
// multipart part, `format` for the output format; empty for the request as
// a whole.

import PenumbraModel
import PenumbraCore

/// A refused request: its HTTP status, what is wrong, and where.
package struct RequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The HTTP status (400, 403, 404, 413, 415, 429, 503, 504).
    package var status: Int
    /// What is wrong.
    package var message: String
    /// Where: a path into the scene, `query.NAME`, `body`, `parts.NAME`, or empty.
    package var place: String
    /// Seconds after which a retry may succeed (429's Retry-After).
    package var retryAfter: Int?

    /// A refusal with `status` saying `message` about `place`.
    package init(_ status: Int, _ message: String, place: String = "", retryAfter: Int? = nil) {
        self.status = status; self.message = message; self.place = place; self.retryAfter = retryAfter
    }

    /// A rejected scene (400) from the decoder's error.
    package init(_ error: SceneError) { self.init(400, error.message, place: error.location) }

    package var description: String { place.isEmpty ? "\(status) \(message)" : "\(status) \(place): \(message)" }

    /// The JSON body: `{"error": message, "place": place}`.
    package var jsonBody: [UInt8] {
        Array("{\"error\":\(RequestError.quote(message)),\"place\":\(RequestError.quote(place))}\n".utf8)
    }

    /// A JSON string literal for `text`, escaping quotes, backslashes and control characters.
    package static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
