// JSONParser: a strict RFC 8259 reader over UTF-8 bytes.
//
// It is iterative, not recursive: open arrays and objects live on explicit
// stacks, so a deeply nested document cannot overflow the thread's stack
// whatever thread the caller is on; the depth limit still bounds it. Strings
// are validated as UTF-8 byte by byte (no overlong forms, no encoded
// surrogates, nothing above U+10FFFF), raw control characters are refused,
// `\u` escapes must pair surrogates. Numbers follow the JSON grammar exactly
// (no leading zeros, no `+`, no bare `.5`, no NaN or Infinity) and are then
// converted by the standard library (correctly rounded; `1e999` becomes an
// infinity for the decoder to reject). Errors name the line and column
// (columns count Unicode scalars, from 1). A leading UTF-8 byte order mark
// is skipped, as RFC 8259 section 8.1 permits.

/// A strict JSON parser; `JSONValue.parse` is the usual entry point.
package struct JSONParser {
    /// The default nesting limit for arrays and objects.
    package static let defaultMaxDepth = 512

    private let bytes: [UInt8]
    private let maxDepth: Int
    private var pos = 0

    /// A parser for one document held in `bytes`.
    package init(_ bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth) {
        self.bytes = bytes; self.maxDepth = maxDepth
    }

    private enum Frame { case array, object }

    /// Parses the whole input as one JSON value; anything after it but whitespace is an error.
    package mutating func parseDocument() throws -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { pos = 3 }
        var frames: [Frame] = []
        var arrays: [[JSONValue]] = []
        var objects: [JSONObject] = []
        var pendingKeys: [String] = []

        nextValue: while true {
            skipWhitespace()
            guard pos < bytes.count else { throw error("unexpected end of input, expected a value") }
            var value: JSONValue
            switch bytes[pos] {
            case UInt8(ascii: "{"):
                try checkDepth(frames.count)
                pos += 1; skipWhitespace()
                if peek() == UInt8(ascii: "}") {
                    pos += 1; value = .object(JSONObject())
                } else {
                    let empty = JSONObject()
                    pendingKeys.append(try parseKey(in: empty))
                    frames.append(.object); objects.append(empty)
                    continue nextValue
                }
            case UInt8(ascii: "["):
                try checkDepth(frames.count)
                pos += 1; skipWhitespace()
                if peek() == UInt8(ascii: "]") {
                    pos += 1; value = .array([])
                } else {
                    frames.append(.array); arrays.append([])
                    continue nextValue
                }
            case UInt8(ascii: "\""): value = .string(try parseString())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = .number(try parseNumber())
            default: value = try parseLiteral()
            }

            // A complete value: hand it to the innermost open container, closing containers
            // for as long as their closing bracket follows.
            while let frame = frames.last {
                skipWhitespace()
                switch frame {
                case .array:
                    arrays[arrays.count - 1].append(value)
                    if peek() == UInt8(ascii: ",") { pos += 1; continue nextValue }
                    guard peek() == UInt8(ascii: "]") else { throw unexpected(expecting: "',' or ']' in an array") }
                    pos += 1
                    frames.removeLast(); value = .array(arrays.removeLast())
                case .object:
                    objects[objects.count - 1].insert(pendingKeys.removeLast(), value)
                    if peek() == UInt8(ascii: ",") {
                        pos += 1; skipWhitespace()
                        pendingKeys.append(try parseKey(in: objects[objects.count - 1]))
                        continue nextValue
                    }
                    guard peek() == UInt8(ascii: "}") else { throw unexpected(expecting: "',' or '}' in an object") }
                    pos += 1
                    frames.removeLast(); value = .object(objects.removeLast())
                }
            }
            skipWhitespace()
            guard pos == bytes.count else { throw unexpected(expecting: "the end of the document") }
            return value
        }
    }

    // MARK: Pieces

    private func peek() -> UInt8? { pos < bytes.count ? bytes[pos] : nil }

    private mutating func skipWhitespace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case 0x20, 0x09, 0x0A, 0x0D: pos += 1
            default: return
            }
        }
    }

    private func checkDepth(_ depth: Int) throws {
        guard depth < maxDepth else { throw error("arrays and objects nested deeper than \(maxDepth)") }
    }

    /// Reads `"key"` and the colon after it; a key already in `object` is an error at the key.
    private mutating func parseKey(in object: JSONObject) throws -> String {
        guard peek() == UInt8(ascii: "\"") else { throw unexpected(expecting: "a string key in an object") }
        let start = pos
        let key = try parseString()
        guard !object.contains(key) else { throw error("duplicate key \(quoted(key))", at: start) }
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw unexpected(expecting: "':' after an object key") }
        pos += 1
        return key
    }

    /// `true`, `false` or `null`; any other word is named in the error.
    private mutating func parseLiteral() throws -> JSONValue {
        let start = pos
        var end = pos
        while end < bytes.count, isWordByte(bytes[end]) { end += 1 }
        let word = String(decoding: bytes[start..<end], as: UTF8.self)
        switch word {
        case "true": pos = end; return .bool(true)
        case "false": pos = end; return .bool(false)
        case "null": pos = end; return .null
        case "": throw unexpected(expecting: "a value")
        case "NaN", "Infinity":
            throw error("\(word) is not JSON; write a number (non-finite numbers are not allowed)")
        default: throw error("unknown word \(quoted(word)), expected a value (true, false, null, a number, a string, an array or an object)")
        }
    }

    private func isWordByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
    }

    // MARK: Numbers

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, then converted correctly rounded.
    private mutating func parseNumber() throws -> Double {
        let start = pos
        if peek() == UInt8(ascii: "-") { pos += 1 }
        guard let first = peek(), isDigit(first) else {
            if peek() == UInt8(ascii: "I") { throw error("Infinity is not JSON; non-finite numbers are not allowed") }
            throw unexpected(expecting: "a digit after '-'")
        }
        pos += 1
        if first == UInt8(ascii: "0"), let next = peek(), isDigit(next) {
            throw error("a number must not have leading zeros")
        }
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            pos += 1
            guard let d = peek(), isDigit(d) else { throw unexpected(expecting: "a digit after the decimal point") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            pos += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { pos += 1 }
            guard let d = peek(), isDigit(d) else { throw unexpected(expecting: "a digit in the exponent") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<pos], as: UTF8.self)
        guard let value = Double(text) else { throw error("cannot read the number \(text)", at: start) }
        return value
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
    private mutating func skipDigits() { while let b = peek(), isDigit(b) { pos += 1 } }

    // MARK: Strings

    /// A string from its opening quote to its closing quote, escapes decoded, UTF-8 validated.
    private mutating func parseString() throws -> String {
        pos += 1  // the opening quote
        var out: [UInt8] = []
        while true {
            guard pos < bytes.count else { throw error("unexpected end of input inside a string") }
            let b = bytes[pos]
            switch b {
            case UInt8(ascii: "\""):
                pos += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &out)
            case 0x00..<0x20:
                throw error("control character U+\(hex(UInt32(b), width: 4)) in a string; escape it")
            case 0x20..<0x80:
                out.append(b); pos += 1
            default:
                let length = try utf8SequenceLength()
                out.append(contentsOf: bytes[pos..<(pos + length)]); pos += length
            }
        }
    }

    /// The length of the valid UTF-8 sequence at `pos` (RFC 3629 table 3-7), or an error.
    private func utf8SequenceLength() throws -> Int {
        let b0 = bytes[pos]
        let length: Int, secondRange: ClosedRange<UInt8>
        switch b0 {
        case 0xC2...0xDF: length = 2; secondRange = 0x80...0xBF
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; secondRange = 0x80...0xBF
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4; secondRange = 0x80...0xBF
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw error("invalid UTF-8 (byte 0x\(hex(UInt32(b0), width: 2)))")
        }
        guard pos + length <= bytes.count else { throw error("invalid UTF-8 (truncated sequence)") }
        guard secondRange.contains(bytes[pos + 1]) else { throw error("invalid UTF-8 (bad continuation byte)") }
        for i in 2..<length where !(0x80...0xBF).contains(bytes[pos + i]) {
            throw error("invalid UTF-8 (bad continuation byte)")
        }
        return length
    }

    /// One escape sequence at `pos` (the backslash); `\u` surrogates must come in pairs.
    private mutating func parseEscape(into out: inout [UInt8]) throws {
        let start = pos
        pos += 1
        guard let c = peek() else { throw error("unexpected end of input inside a string") }
        pos += 1
        let simple: UInt8?
        switch c {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default: throw error("invalid escape \(describe(c, after: "\\"))", at: start)
        }
        if let simple { out.append(simple); return }
        var scalar = try parseHex4(escapeStart: start)
        if (0xDC00...0xDFFF).contains(scalar) {
            throw error("unpaired surrogate \\u\(hex(scalar, width: 4))", at: start)
        }
        if (0xD800...0xDBFF).contains(scalar) {
            guard pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") else {
                throw error("unpaired surrogate \\u\(hex(scalar, width: 4))", at: start)
            }
            let lowStart = pos
            pos += 2
            let low = try parseHex4(escapeStart: lowStart)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error("unpaired surrogate \\u\(hex(scalar, width: 4))", at: start)
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        UTF8.encode(Unicode.Scalar(scalar)!) { out.append($0) }
    }

    private mutating func parseHex4(escapeStart: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let b = peek() else { throw error("unexpected end of input inside a string") }
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("\\u must be followed by 4 hexadecimal digits", at: escapeStart)
            }
            value = value * 16 + digit; pos += 1
        }
        return value
    }

    // MARK: Errors

    private func error(_ message: String, at offset: Int? = nil) -> SceneError {
        let (line, column) = lineAndColumn(of: offset ?? pos)
        return SceneError(location: "line \(line), column \(column)", message: message)
    }

    /// "unexpected X, expected Y" for the byte at `pos` (or the end of input).
    private func unexpected(expecting what: String) -> SceneError {
        guard let b = peek() else { return error("unexpected end of input, expected \(what)") }
        return error("unexpected \(describe(b)), expected \(what)")
    }

    private func describe(_ b: UInt8, after prefix: String = "") -> String {
        if b >= 0x21 && b < 0x7F { return "'\(prefix)\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(hex(UInt32(b), width: 2))"
    }

    private func quoted(_ s: String) -> String { "\"\(s)\"" }

    private func hex(_ v: UInt32, width: Int) -> String {
        let digits = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// 1-based line and column of a byte offset; columns count Unicode scalars (UTF-8 lead bytes).
    private func lineAndColumn(of offset: Int) -> (Int, Int) {
        var line = 1, column = 1
        for i in 0..<min(offset, bytes.count) {
            let b = bytes[i]
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return (line, column)
    }
}
