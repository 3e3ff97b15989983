// JSON values as the scene decoder reads them. The parser (JSONParser.swift)
// is our own, strict RFC 8259 reader over UTF-8 bytes: Foundation's
// JSONSerialization blurs booleans and numbers on Linux (true == 1) and
// drops key order and duplicates, and the scene format needs all three
// kept apart. Objects keep their keys in document order (error messages
// and the "unknown key" check report them in the order the user wrote
// them) with an index for lookup; duplicate keys never get this far.

/// A parsed JSON value.
package enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false` (never confused with a number).
    case bool(Bool)
    /// A number as IEEE double: `-0` stays negative zero and a literal too large for a double
    /// (such as `1e999`) becomes an infinity, which the scene decoder rejects as not finite.
    case number(Double)
    /// A string, escapes decoded.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object, keys in document order.
    case object(JSONObject)

    /// What kind of value this is, with an article, for messages ("a number", "an array", "null").
    package var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Parses one JSON document (RFC 8259, strict); see `JSONParser`.
    package static func parse(_ bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth) throws -> JSONValue {
        var parser = JSONParser(bytes, maxDepth: maxDepth)
        return try parser.parseDocument()
    }
}

/// A JSON object: members in document order, keys unique.
package struct JSONObject: Hashable, Sendable {
    /// One `"key": value` pair.
    package struct Member: Hashable, Sendable {
        /// The member's key.
        package var key: String
        /// The member's value.
        package var value: JSONValue
        /// A member.
        package init(key: String, value: JSONValue) { self.key = key; self.value = value }
    }

    /// The members in the order they were written.
    package private(set) var members: [Member] = []
    private var indexByKey: [String: Int] = [:]

    /// An empty object.
    package init() {}

    /// An object with these members; nil when a key repeats.
    package init?(_ members: [Member]) {
        for m in members { guard insert(m.key, m.value) else { return nil } }
    }

    /// The keys in document order.
    package var keys: [String] { members.map(\.key) }
    /// The number of members.
    package var count: Int { members.count }
    /// True when the object has this key.
    package func contains(_ key: String) -> Bool { indexByKey[key] != nil }
    /// The value of `key`, or nil when the object has no such key.
    package subscript(key: String) -> JSONValue? {
        guard let i = indexByKey[key] else { return nil }
        return members[i].value
    }

    /// Appends a member; returns false (and changes nothing) when the key is already present.
    @discardableResult
    package mutating func insert(_ key: String, _ value: JSONValue) -> Bool {
        guard indexByKey[key] == nil else { return false }
        indexByKey[key] = members.count
        members.append(Member(key: key, value: value))
        return true
    }
}
