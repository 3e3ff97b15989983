// Multipart: a small, strict reader of `multipart/form-data` (RFC 7578 over
// RFC 2046's syntax), enough for a scene and its images. The body must
// start with the first delimiter (no preamble), every part must carry
// `Content-Disposition: form-data; name="..."` (a `filename` is allowed and
// ignored), part names are unique, header blocks are small, lines end in
// CRLF, and the close delimiter must come, followed by at most a CRLF. Any
// departure is a 400 naming the part or `body`: a lenient reader is where
// request smuggling and parser disagreements live. Parts are slices copied
// once; the parser never allocates more than the body's size in total.

/// One part of a form: its name, media type (if given) and bytes.
package struct MultipartPart: Sendable, Hashable {
    package var name: String
    package var contentType: String?
    package var body: [UInt8]
}

/// Parsing `multipart/form-data` bodies.
package enum Multipart {
    /// Most parts in one form.
    package static let maxParts = 256
    /// Most bytes of one part's header block.
    static let maxHeaderBytes = 8 << 10

    /// The boundary of a `multipart/form-data` media type (its `boundary` parameter, quoted or not).
    package static func boundary(contentType: String) throws -> String {
        let params = contentType.split(separator: ";").dropFirst()
        for param in params {
            let pair = param.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == "boundary" else { continue }
            var value = pair[1].trimmingSpaces
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            guard (1...70).contains(value.utf8.count), value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F || $0 == 0x20 }) else {
                throw RequestError(400, "the multipart boundary must be 1 to 70 printable characters", place: "content-type")
            }
            return value
        }
        throw RequestError(400, "multipart/form-data without a boundary parameter", place: "content-type")
    }

    /// The parts of `body`, delimited by `boundary`.
    package static func parse(_ body: [UInt8], boundary: String) throws -> [MultipartPart] {
        let dash = Array("--\(boundary)".utf8)
        let delimiter = Array("\r\n--\(boundary)".utf8)
        guard body.starts(with: dash) else {
            throw RequestError(400, "the multipart body must start with the boundary delimiter", place: "body")
        }
        var position = dash.count
        var parts: [MultipartPart] = []
        var names: Set<String> = []
        while true {
            // After a delimiter: "--" closes the form, CRLF opens a part.
            if body[position...].starts(with: [0x2D, 0x2D]) {
                let rest = body[(position + 2)...]
                guard rest.isEmpty || Array(rest) == [0x0D, 0x0A] else {
                    throw RequestError(400, "bytes after the closing boundary", place: "body")
                }
                guard !parts.isEmpty else { throw RequestError(400, "a multipart form without parts", place: "body") }
                return parts
            }
            guard body[position...].starts(with: [0x0D, 0x0A]) else {
                throw RequestError(400, "a boundary delimiter must be followed by CRLF or --", place: "body")
            }
            position += 2
            guard parts.count < maxParts else { throw RequestError(400, "more than \(maxParts) parts", place: "body") }
            guard let headerEnd = find([0x0D, 0x0A, 0x0D, 0x0A], in: body, from: position, within: maxHeaderBytes + 4) else {
                throw RequestError(400, "part \(parts.count + 1): no end of the header block within \(maxHeaderBytes) bytes", place: "body")
            }
            let (name, contentType) = try headers(Array(body[position..<headerEnd]), index: parts.count + 1)
            guard names.insert(name).inserted else {
                throw RequestError(400, "a second part with this name", place: "parts.\(name)")
            }
            let start = headerEnd + 4
            guard let end = find(delimiter, in: body, from: start, within: Int.max) else {
                throw RequestError(400, "the part has no closing boundary", place: "parts.\(name)")
            }
            parts.append(MultipartPart(name: name, contentType: contentType, body: Array(body[start..<end])))
            position = end + delimiter.count
        }
    }

    /// The name and media type from a part's header block.
    private static func headers(_ block: [UInt8], index: Int) throws -> (String, String?) {
        guard let text = String(validating: block, as: UTF8.self) else {
            throw RequestError(400, "part \(index): its headers are not UTF-8", place: "body")
        }
        var name: String?, contentType: String?
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: false) {
            guard let colon = line.firstIndex(of: ":"), !line.contains("\n"), !line.contains("\r") else {
                throw RequestError(400, "part \(index): malformed header line", place: "body")
            }
            let field = line[..<colon].lowercased(), value = line[line.index(after: colon)...].trimmingSpaces
            switch field {
            case "content-disposition":
                name = try dispositionName(value, index: index)
            case "content-type":
                contentType = value
            default:
                break
            }
        }
        guard let name else { throw RequestError(400, "part \(index): no Content-Disposition: form-data; name=\"...\"", place: "body") }
        return (name, contentType)
    }

    /// `form-data; name="NAME"[; filename="..."]`: the name, which must be non-empty.
    private static func dispositionName(_ value: String, index: Int) throws -> String {
        let items = value.split(separator: ";").map { $0.trimmingSpaces }
        guard items.first?.lowercased() == "form-data" else {
            throw RequestError(400, "part \(index): Content-Disposition must be form-data", place: "body")
        }
        for item in items.dropFirst() {
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].lowercased() == "name" else { continue }
            let raw = String(pair[1])
            guard raw.count >= 3, raw.hasPrefix("\""), raw.hasSuffix("\""), !raw.dropFirst().dropLast().contains("\"") else {
                throw RequestError(400, "part \(index): the name must be a non-empty quoted string", place: "body")
            }
            return String(raw.dropFirst().dropLast())
        }
        throw RequestError(400, "part \(index): Content-Disposition has no name", place: "body")
    }

    /// The index of `needle` in `haystack` at or after `from`, starting within `within` bytes.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int, within: Int) -> Int? {
        guard let first = needle.first, from <= haystack.count else { return nil }
        let last = min(haystack.count - needle.count, within == Int.max ? Int.max : from + within)
        guard from <= last else { return nil }
        return haystack.withUnsafeBufferPointer { h -> Int? in
            needle.withUnsafeBufferPointer { n -> Int? in
                var i = from
                while i <= last {
                    if h[i] == first {
                        var k = 1
                        while k < n.count && h[i + k] == n[k] { k += 1 }
                        if k == n.count { return i }
                    }
                    i += 1
                }
                return nil
            }
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}
