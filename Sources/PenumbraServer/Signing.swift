// Signing: the signed GET URLs of SCENE_FORMAT.md. A URL is
// /v1/render/{signature}/{scene}.{ext}, where {scene} is the scene JSON in
// base64url without padding and {signature} is base64url without padding of
// HMAC-SHA256(key, "{scene}.{ext}"). The comparison is constant-time
// (swift-crypto's isValidAuthenticationCode), so a signature cannot be
// guessed byte by byte from response times.
import Crypto
import Foundation

/// HMAC-SHA256 signing of scene URLs, and base64url without padding.
public enum URLSigning {
    /// The signature of `file` (`{scene}.{ext}`) under `key`, base64url without padding.
    public static func signature(for file: String, key: [UInt8]) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array(file.utf8), using: SymmetricKey(data: key))
        return base64URL(Array(mac))
    }

    /// True when `signature` is the base64url HMAC of `file` under `key`.
    static func isValid(signature: String, for file: String, key: [UInt8]) -> Bool {
        guard let mac = decodeBase64URL(signature), mac.count == SHA256.byteCount else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Array(file.utf8), using: SymmetricKey(data: key))
    }

    /// The path of a signed GET for `scene` (JSON bytes) in `format`'s extension.
    public static func path(scene: [UInt8], ext: String, key: [UInt8]) -> String {
        let file = base64URL(scene) + "." + ext
        return "/v1/render/\(signature(for: file, key: key))/\(file)"
    }

    /// Base64url (RFC 4648 section 5) without padding.
    public static func base64URL(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// Decodes base64url without padding; nil for any other character or an impossible length.
    static func decodeBase64URL(_ text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy({ $0 != UInt8(ascii: "=") && $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "/") }),
              text.utf8.count % 4 != 1 else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.utf8.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }
}
