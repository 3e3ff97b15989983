// SigningKey: a secret for signed URLs and the id that names it in a URL.
// A key file holds one key: its bytes, with one trailing newline removed (so
// `head -c 32 /dev/urandom | base64 > key` and an editor's final newline both
// work). The id is derived from the key, never configured: the first 8
// characters of base64url(SHA-256("penumbra-signing-key-id\0" + key)). It
// says nothing usable about a key with enough entropy, lets the server pick
// the right key without trying each, and cannot drift between the signer and
// the server. Rotation is: start the servers with the old and the new key
// file, switch the signers to the new one, wait for the old URLs to expire,
// drop the old file.
import Crypto
import Foundation

/// A signing key and its id.
public struct SigningKey: Sendable, Hashable {
    /// The fewest bytes a key may have (a shorter secret could be guessed from one signed URL).
    public static let minimumBytes = 16

    /// The secret.
    public let bytes: [UInt8]
    /// The id that names the key in a URL: 8 base64url characters derived from the key.
    public let id: String

    /// A key of `bytes`; throws `SigningKeyError` when it is shorter than `minimumBytes`.
    public init(bytes: [UInt8]) throws {
        guard bytes.count >= Self.minimumBytes else {
            throw SigningKeyError("the signing key has \(bytes.count) bytes; it needs at least \(Self.minimumBytes) "
                + "(e.g. head -c 32 /dev/urandom | base64 > key)")
        }
        self.bytes = bytes
        var hash = SHA256()
        hash.update(data: Array("penumbra-signing-key-id\u{0}".utf8))
        hash.update(data: bytes)
        id = String(Base64URL.encode(Array(hash.finalize())).prefix(8))
    }

    /// The key in the file at `path`: its bytes with one trailing newline (LF or CRLF) removed.
    public init(contentsOfFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SigningKeyError("\(path): cannot read the signing key file")
        }
        var bytes = [UInt8](data)
        if bytes.last == UInt8(ascii: "\n") {
            bytes.removeLast()
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        }
        do { try self.init(bytes: bytes) } catch let error as SigningKeyError {
            throw SigningKeyError("\(path): \(error.description)")
        }
    }
}

/// Why a signing key could not be used.
public struct SigningKeyError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

/// Base64url (RFC 4648 section 5) without padding.
public enum Base64URL {
    /// `bytes` in base64url without padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// Decodes base64url without padding; nil for any other character or an impossible length.
    public static func decode(_ text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy({ byte in
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }), text.utf8.count % 4 != 1 else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.utf8.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }
}
