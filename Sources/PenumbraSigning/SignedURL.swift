// Signed render URLs: a GET that carries its scene and a proof that the
// holder of a signing key made it, so a page can embed an image URL that
// renders on demand without letting anyone render anything.
//
// The format (version 2, the one to make):
//
//     /v1/render/{keyID}.{expires}.{signature}/{scene}.{ext}
//
// - {scene}: the scene JSON's bytes in base64url without padding;
// - {ext}: png, jpg or webp, the response's format;
// - {expires}: the Unix time (seconds, decimal, no sign or leading zero) after
//   which the URL is refused (410 Gone);
// - {keyID}: which key signed it, 8 base64url characters derived from the
//   key itself (`SigningKey.id`), so signer and server can never disagree on
//   a name and two keys can be valid at once while one replaces the other;
// - {signature}: base64url without padding of
//   HMAC-SHA256(key, "penumbra-url-v2.{keyID}.{expires}.{scene}.{ext}").
//
// None of the fields can hold a dot, so the text signed is unambiguous, and
// its prefix keeps it apart from the version 1 text. The signature covers the
// key id, the expiry, the scene and the format: changing any of them is 403.
// Comparison is constant-time (swift-crypto's isValidAuthenticationCode).
//
// Version 1 (`/v1/render/{signature}/{scene}.{ext}`, signature =
// HMAC-SHA256(key, "{scene}.{ext}")) has no expiry: a leaked URL renders for
// as long as its key lives, and the only revocation is replacing the key,
// which breaks every URL at once. A server accepts it only when told to
// (`penumbra serve --accept-unexpiring-urls`), for moving existing links over;
// `LegacySignedURL` checks it against every key.
import Crypto
import Foundation

/// Making and checking version 2 signed render URLs (expiring, with a key id).
public enum SignedURL {
    /// The extensions a signed URL may carry.
    public static let extensions: Set<String> = ["png", "jpg", "webp"]

    /// The path of a signed GET: `/v1/render/{keyID}.{expires}.{signature}/{scene}.{ext}` for the
    /// scene JSON `scene`, valid until the Unix time `expires` (seconds).
    public static func path(scene: [UInt8], ext: String, expires: Int64, key: SigningKey) -> String {
        let file = Base64URL.encode(scene) + "." + ext
        return "/v1/render/\(key.id).\(expires).\(signature(file: file, expires: expires, key: key))/\(file)"
    }

    /// The signature of `file` (`{scene}.{ext}`) expiring at `expires` under `key`, base64url.
    public static func signature(file: String, expires: Int64, key: SigningKey) -> String {
        Base64URL.encode(Array(HMAC<SHA256>.authenticationCode(for: signedText(file: file, expires: expires, keyID: key.id),
                                                                using: SymmetricKey(data: key.bytes))))
    }

    /// The bytes the signature covers.
    static func signedText(file: String, expires: Int64, keyID: String) -> [UInt8] {
        Array("penumbra-url-v2.\(keyID).\(expires).\(file)".utf8)
    }

    /// What a check found.
    public enum Verdict: Sendable, Hashable {
        /// Signed by a known key and not expired: the scene's JSON bytes and the extension.
        case valid(scene: [UInt8], ext: String)
        /// The first path segment or the file name is not in the format; the reason.
        case malformed(String)
        /// No key of the server has this id (an unknown or retired key).
        case unknownKey(String)
        /// The signature does not match what it claims to sign.
        case badSignature
        /// Signed correctly, but its time ran out at this Unix time.
        case expired(at: Int64)
    }

    /// Checks the two path segments of a version 2 URL (`{keyID}.{expires}.{signature}` and
    /// `{scene}.{ext}`) against `keys` at the Unix time `now`. The signature is checked before the
    /// expiry, so only the holder of a key learns that a URL has expired.
    public static func verify(token: String, file: String, keys: [SigningKey], now: Int64) -> Verdict {
        let fields = token.split(separator: ".", omittingEmptySubsequences: false)
        guard fields.count == 3 else { return .malformed("expected {keyID}.{expires}.{signature} before the file name") }
        let keyID = String(fields[0]), expiresText = String(fields[1]), signatureText = String(fields[2])
        guard let expires = parseExpiry(expiresText) else {
            return .malformed("the expiry must be a Unix time in seconds (decimal digits)")
        }
        guard let dot = file.lastIndex(of: "."), extensions.contains(String(file[file.index(after: dot)...])) else {
            return .malformed("expected {scene}.{png,jpg,webp} as the file name")
        }
        guard let key = keys.first(where: { $0.id == keyID }) else { return .unknownKey(keyID) }
        guard let mac = Base64URL.decode(signatureText), mac.count == SHA256.byteCount,
              HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: signedText(file: file, expires: expires, keyID: keyID),
                                                     using: SymmetricKey(data: key.bytes)) else {
            return .badSignature
        }
        guard now <= expires else { return .expired(at: expires) }
        guard let scene = Base64URL.decode(String(file[..<dot])) else {
            return .malformed("the scene is not base64url without padding")
        }
        return .valid(scene: scene, ext: String(file[file.index(after: dot)...]))
    }

    /// A Unix time as the format writes it: 1 to 12 decimal digits, no leading zero.
    static func parseExpiry(_ text: String) -> Int64? {
        guard (1...12).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              text == "0" || !text.hasPrefix("0") else { return nil }
        return Int64(text)
    }
}

/// Version 1 signed URLs (`/v1/render/{signature}/{scene}.{ext}`): no expiry, no key id.
public enum LegacySignedURL {
    /// The path of a version 1 signed GET (kept for tests and migration tools; make version 2 URLs).
    public static func path(scene: [UInt8], ext: String, key: SigningKey) -> String {
        let file = Base64URL.encode(scene) + "." + ext
        let mac = HMAC<SHA256>.authenticationCode(for: Array(file.utf8), using: SymmetricKey(data: key.bytes))
        return "/v1/render/\(Base64URL.encode(Array(mac)))/\(file)"
    }

    /// True when `signature` is the HMAC of `file` under one of `keys` (each compared in constant time).
    public static func isValid(signature: String, file: String, keys: [SigningKey]) -> Bool {
        guard let mac = Base64URL.decode(signature), mac.count == SHA256.byteCount else { return false }
        var valid = false
        for key in keys where HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Array(file.utf8),
                                                                    using: SymmetricKey(data: key.bytes)) {
            valid = true
        }
        return valid
    }
}
