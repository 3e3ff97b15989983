// JSONReader: typed access to parsed JSON that knows where it is. Each reader
// carries the location of its value ("ops[3].path.rect[2]"); asking for a
// child extends it, and every failed expectation (wrong type, non-finite
// number, out of range, unknown or missing key) becomes a SceneError at
// exactly that place. The decoder is written as a sequence of such requests,
// so no check can forget to say where it failed.

/// A JSON value and its location in the document.
struct JSONReader {
    let value: JSONValue
    let location: String

    init(_ value: JSONValue, at location: String) { self.value = value; self.location = location }

    /// An error at this value's location.
    func error(_ message: String) -> SceneError { SceneError(location: location, message: message) }

    /// `expected <what>, got <kind of this value>`.
    func typeError(expected what: String) -> SceneError {
        error("expected \(what), got \(value.kindDescription)")
    }

    // MARK: Locations

    /// `base.key`, or `base["key"]` when the key is not a plain word.
    static func location(_ base: String, key: String) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy { s in
            ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || s == "_" || s == "-" || s == "@"
        }
        if plain { return base.isEmpty ? key : "\(base).\(key)" }
        return SceneText.bracketed(base, key: key)
    }

    /// `base[index]`.
    static func location(_ base: String, index: Int) -> String { "\(base)[\(index)]" }

    // MARK: Containers

    /// This value as an object whose keys are all in `allowed`; the first other key is an error that
    /// suggests the nearest allowed key and lists them all.
    func object(allowing allowed: Set<String>) throws -> JSONObjectReader {
        guard case .object(let object) = value else { throw typeError(expected: "an object") }
        for key in object.keys where !allowed.contains(key) {
            throw error(NameSuggestion.unknownNameMessage("key", plural: "keys", name: key, known: allowed, exclude: Set(object.keys)))
        }
        return JSONObjectReader(object: object, location: location)
    }

    /// This value as an array of located elements.
    func array() throws -> [JSONReader] {
        guard case .array(let items) = value else { throw typeError(expected: "an array") }
        return items.enumerated().map { JSONReader($0.element, at: Self.location(location, index: $0.offset)) }
    }

    // MARK: Scalars

    /// A finite number.
    func number() throws -> Double {
        guard case .number(let v) = value else { throw typeError(expected: "a number") }
        guard v.isFinite else { throw error("not a finite number") }
        return v
    }

    /// A finite number in `range`.
    func number(in range: ClosedRange<Double>) throws -> Double {
        let v = try number()
        guard range.contains(v) else {
            throw error("must be in \(SceneText.number(range.lowerBound))...\(SceneText.number(range.upperBound)), got \(SceneText.number(v))")
        }
        return v
    }

    /// A finite number >= 0.
    func nonNegative(_ what: String = "value") throws -> Double {
        let v = try number()
        guard v >= 0 else { throw error("\(what) must not be negative, got \(SceneText.number(v))") }
        return v
    }

    /// A finite number > 0.
    func positive() throws -> Double {
        let v = try number()
        guard v > 0 else { throw error("must be greater than 0, got \(SceneText.number(v))") }
        return v
    }

    func string() throws -> String {
        guard case .string(let s) = value else { throw typeError(expected: "a string") }
        return s
    }

    func bool() throws -> Bool {
        guard case .bool(let b) = value else { throw typeError(expected: "true or false") }
        return b
    }

    /// One of a string enumeration's raw values; short lists are spelled out in the error.
    func choice<E: RawRepresentable & CaseIterable>(_ type: E.Type, naming what: String? = nil) throws -> E
    where E.RawValue == String {
        let names = E.allCases.map { SceneText.quote($0.rawValue) }
        let expectation = what ?? "one of " + names.joined(separator: ", ")
        guard case .string(let s) = value else { throw typeError(expected: expectation) }
        guard let e = E(rawValue: s) else { throw error("expected \(expectation), got \(SceneText.quote(s))") }
        return e
    }

    // MARK: Tuples of numbers

    /// Exactly `count` finite numbers: `expected 6 numbers, got 5`.
    func numbers(_ count: Int) throws -> [Double] {
        guard case .array = value else { throw typeError(expected: "an array of \(count) numbers") }
        let items = try array()
        guard items.count == count else { throw error("expected \(count) numbers, got \(items.count)") }
        return try items.map { try $0.number() }
    }

    /// `[x, y]`.
    func point() throws -> Point {
        let v = try numbers(2)
        return Point(x: v[0], y: v[1])
    }

    /// `[dx, dy]` as a size (offsets may be negative).
    func offset() throws -> Size {
        let v = try numbers(2)
        return Size(width: v[0], height: v[1])
    }

    /// `[x, y, w, h]` with w and h >= 0 (a negative size is an error; zero is valid and empty).
    func rect() throws -> Rect {
        let v = try numbers(4)
        let items = try array()
        _ = try items[2].nonNegative("width")
        _ = try items[3].nonNegative("height")
        return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }
}

/// An object whose keys have been checked, with located access to its members.
struct JSONObjectReader {
    let object: JSONObject
    let location: String

    func error(_ message: String) -> SceneError { SceneError(location: location, message: message) }

    /// True when the key is present.
    func has(_ key: String) -> Bool { object.contains(key) }

    /// The member `key`; its absence is an error at the object.
    func required(_ key: String) throws -> JSONReader {
        guard let v = object[key] else { throw error("missing key \(SceneText.quote(key))") }
        return JSONReader(v, at: JSONReader.location(location, key: key))
    }

    /// The member `key`, or nil when absent.
    func optional(_ key: String) -> JSONReader? {
        guard let v = object[key] else { return nil }
        return JSONReader(v, at: JSONReader.location(location, key: key))
    }
}

/// How the decoder writes values into messages.
enum SceneText {
    /// `"text"`, for naming strings in messages (quotes and backslashes escaped, long text shortened).
    static func quote(_ s: String) -> String {
        var text = s
        if text.count > 240 { text = String(text.prefix(237)) + "..." }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let digits = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A number as a user would write it: integers without ".0".
    static func number(_ v: Double) -> String {
        if v.isFinite, v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        return "\(v)"
    }

    /// `base["key"]` with the key's quotes and backslashes escaped.
    static func bracketed(_ base: String, key: String) -> String {
        var escaped = ""
        for c in key {
            if c == "\\" || c == "\"" { escaped.append("\\") }
            escaped.append(c)
        }
        return "\(base)[\"\(escaped)\"]"
    }
}
