// SignedRoute: GET /v1/render/{token}/{scene}.{ext}, a render whose scene is
// in the URL and whose URL was signed with one of the server's keys
// (PenumbraSigning: the format, the key ids, the expiry). A token with dots
// is the expiring format: `{keyID}.{expires}.{signature}`; a token without is
// the first, unexpiring format, refused unless `--accept-unexpiring-urls`.
// Statuses: 404 without keys or for a path not in either format, 403 for an
// unknown key, a signature that does not match, or an unexpiring URL
// refused; 410 for an expired URL (checked after the signature, so only a
// key's holder learns it); 400 for a query (the signature covers none).
import Foundation
import Hummingbird
import Penumbra
import PenumbraRequests
import PenumbraSigning

extension ServerRoutes {
    func signedGet(_ request: Request, token: String, file: String) async throws -> Response {
        let arrival = ContinuousClock.now
        let keys = configuration.signingKeys
        guard !keys.isEmpty else {
            throw RequestError(404, "signed URLs are off: the server has no signing key", place: "path")
        }
        guard !drain.isDraining else { throw RequestError(503, "the server is draining") }
        let (scene, ext) = try verify(token: token, file: file, keys: keys)
        guard (request.uri.query ?? "").isEmpty else {
            throw RequestError(400, "a signed URL takes no query: the signature covers only the path", place: "query")
        }
        var options = RenderOptions()
        options.format = OutputFormat(name: ext) ?? .png
        let parsed = RenderRequest(scene: scene, sources: ImageSources(baseDirectory: configuration.assets),
                                   options: options, limits: configuration.limits)
        let result = try await endpoint.render(parsed, body: scene, mediaType: "application/json",
                                               ifNoneMatch: request.headers[.ifNoneMatch], arrival: arrival,
                                               reservation: try reserve())
        return response(result)
    }

    /// The scene and extension of a signed path, or its refusal.
    private func verify(token: String, file: String, keys: [SigningKey]) throws -> (scene: [UInt8], ext: String) {
        guard token.contains(".") else { return try verifyUnexpiring(signature: token, file: file, keys: keys) }
        switch SignedURL.verify(token: token, file: file, keys: keys, now: Int64(Date().timeIntervalSince1970)) {
        case .valid(let scene, let ext):
            return (scene, ext)
        case .malformed(let why):
            throw RequestError(404, "expected /v1/render/{keyID}.{expires}.{signature}/{scene}.{png,jpg,webp}: \(why)",
                               place: "path")
        case .unknownKey(let id):
            throw RequestError(403, "the URL was signed with key \(RequestError.quote(id)), which this server does not have "
                + "(retired, or never given with --signing-key-file)", place: "path.signature")
        case .badSignature:
            throw RequestError(403, "the signature does not match the URL", place: "path.signature")
        case .expired(let at):
            let when = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(at)))
            throw RequestError(410, "the signed URL expired at \(when) (Unix time \(at)); ask for a new one",
                               place: "path.signature")
        }
    }

    /// The first format: `{signature}/{scene}.{ext}`, no expiry; only with `--accept-unexpiring-urls`.
    private func verifyUnexpiring(signature: String, file: String, keys: [SigningKey]) throws -> (scene: [UInt8], ext: String) {
        guard let dot = file.lastIndex(of: "."), SignedURL.extensions.contains(String(file[file.index(after: dot)...])) else {
            throw RequestError(404, "expected /v1/render/{keyID}.{expires}.{signature}/{scene}.{png,jpg,webp}", place: "path")
        }
        guard LegacySignedURL.isValid(signature: signature, file: file, keys: keys) else {
            throw RequestError(403, "the signature does not match the URL", place: "path.signature")
        }
        guard configuration.acceptUnexpiringURLs else {
            throw RequestError(403, "URLs without an expiry are not accepted (--accept-unexpiring-urls); "
                + "sign a new one with `penumbra sign`", place: "path.signature")
        }
        guard let scene = Base64URL.decode(String(file[..<dot])) else {
            throw RequestError(400, "the scene is not base64url without padding", place: "path.scene")
        }
        return (scene, String(file[file.index(after: dot)...]))
    }
}
