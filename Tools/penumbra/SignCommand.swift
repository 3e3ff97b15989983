// `penumbra sign`: the path of a signed GET for the render server, in the
// expiring format of PenumbraSigning (SignedURL.swift has the whole format):
//
//     /v1/render/{keyID}.{expires}.{signature}/{scene}.{ext}
//
// {scene} is the file's bytes in base64url (no padding), {expires} a Unix
// time, {keyID} derived from the key, and {signature} the base64url
// HMAC-SHA256 of "penumbra-url-v2.{keyID}.{expires}.{scene}.{ext}". The
// server accepts it while the key is one of its --signing-key-file keys and
// the time has not passed.
import ArgumentParser
import Foundation
import PenumbraSigning

struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign", abstract: "Print the signed GET path of a scene for `penumbra serve`.",
        discussion: """
            The path is /v1/render/{keyID}.{expires}.{signature}/{scene}.{ext}: {scene} is the scene \
            file's bytes in base64url without padding, {expires} the Unix time (seconds) after which the \
            server answers 410, {keyID} 8 characters derived from the key (the server picks the key by it, \
            so two keys can be valid at once while one replaces the other), and {signature} the base64url \
            HMAC-SHA256, under the key, of "penumbra-url-v2.{keyID}.{expires}.{scene}.{ext}". Append the path \
            to the server's address. A path over 8,000 characters is printed with a warning: proxies and \
            clients may refuse URLs that long.
            """)

    @Argument(help: "The scene JSON file (- reads standard input).")
    var scene: String
    @Option(help: "The key file, as given to `penumbra serve --signing-key-file` (one trailing newline is removed).")
    var keyFile: String
    @Option(help: ArgumentHelp(
        "When the URL stops working: +N seconds from now (+N with s, m, h or d: +90s, +15m, +12h, +7d), or an absolute Unix time in seconds (1767225600).",
        valueName: "T"))
    var expires = "+1d"
    @Option(help: "The format the server answers in: png, jpg or webp.")
    var ext = "png"

    func validate() throws {
        guard SignedURL.extensions.contains(ext) else { throw ValidationError("--ext must be png, jpg or webp") }
        guard Self.expiry(expires, now: 0) != nil else {
            throw ValidationError("--expires must be +N[s|m|h|d] (from now) or a Unix time in seconds, not \(expires)")
        }
    }

    func run() throws {
        let key: SigningKey
        do { key = try SigningKey(contentsOfFile: keyFile) } catch { throw ToolError(.rejected, "\(error)") }
        let bytes: [UInt8]
        if scene == "-" {
            bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        } else {
            guard let data = FileManager.default.contents(atPath: scene) else {
                throw ToolError(.rejected, "\(scene): cannot read the scene file")
            }
            bytes = [UInt8](data)
        }
        guard (try? JSONSerialization.jsonObject(with: Data(bytes))) != nil else {
            throw ToolError(.rejected, "\(scene): not a JSON document")
        }
        let now = Int64(Date().timeIntervalSince1970)
        guard let at = Self.expiry(expires, now: now), at > now else {
            throw ToolError(.rejected, "--expires \(expires): that time has passed")
        }
        let path = SignedURL.path(scene: bytes, ext: ext, expires: at, key: key)
        if path.utf8.count > 8000 {
            Diagnostics.print("penumbra: warning: the path is \(path.utf8.count) characters; proxies and clients may refuse URLs over 8,000")
        }
        print(path)
    }

    /// The Unix time `text` names at `now`: `+N` with an optional unit (s, m, h, d), or a Unix time.
    static func expiry(_ text: String, now: Int64) -> Int64? {
        guard text.hasPrefix("+") else {
            guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let at = Int64(text),
                  at < 100_000_000_000 else { return nil }
            return at
        }
        var amount = text.dropFirst()
        var unit: Int64 = 1
        if let last = amount.last, let scale = ["s": 1, "m": 60, "h": 3600, "d": 86400][String(last)] {
            unit = Int64(scale)
            amount = amount.dropLast()
        }
        guard !amount.isEmpty, amount.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let n = Int64(amount),
              n <= 100 * 365 * 86400 / unit else { return nil }
        return now + n * unit
    }
}
