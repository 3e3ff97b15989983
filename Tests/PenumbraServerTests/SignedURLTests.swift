// Signed GETs (PenumbraSigning, SignedRoute): the expiring format with key ids, two keys at once,
// unknown keys, tampering, expiry, and the first, unexpiring format refused unless asked for.
import Foundation
import HummingbirdTesting
import Penumbra
import PenumbraServer
import PenumbraSigning
import XCTest

final class SignedURLTests: XCTestCase {
    static let oldKey = try! SigningKey(bytes: Array("an old key of at least 16 bytes".utf8))
    static let newKey = try! SigningKey(bytes: Array("the new key, also 16 bytes or more".utf8))
    static let retiredKey = try! SigningKey(bytes: Array("a key this server was never given".utf8))

    private static var now: Int64 { Int64(Date().timeIntervalSince1970) }

    func testKeyIDsAreDerivedAndDistinct() throws {
        XCTAssertEqual(Self.oldKey.id.count, 8)
        XCTAssertNotEqual(Self.oldKey.id, Self.newKey.id)
        XCTAssertEqual(try SigningKey(bytes: Self.oldKey.bytes).id, Self.oldKey.id, "the id is a function of the key")
        XCTAssertThrowsError(try SigningKey(bytes: Array("short".utf8)), "a key too short to resist guessing")
        // A key file's one trailing newline is not part of the key.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-key-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(Self.oldKey.bytes + [0x0A]).write(to: file)
        XCTAssertEqual(try SigningKey(contentsOfFile: file.path), Self.oldKey)
    }

    func testRotationExpiryAndTampering() async throws {
        let server = try await ServerFixtures.server { $0.signingKeys = [Self.oldKey, Self.newKey] }
        let expires = Self.now + 600
        try await server.application().test(.router) { client in
            let posted = try await client.post("/v1/render", ServerFixtures.small)
            XCTAssertEqual(posted.status, .ok)
            // Both keys are accepted while one replaces the other.
            for key in [Self.oldKey, Self.newKey] {
                let path = SignedURL.path(scene: ServerFixtures.small, ext: "png", expires: expires, key: key)
                XCTAssertTrue(path.hasPrefix("/v1/render/\(key.id).\(expires)."), path)
                let good = try await client.get(path)
                XCTAssertEqual(good.status, .ok, good.text)
                XCTAssertEqual(good.headers[.contentType], "image/png")
                XCTAssertEqual(good.bytes, posted.bytes)
            }
            // A key the server does not have.
            let unknown = try await client.get(SignedURL.path(scene: ServerFixtures.small, ext: "png", expires: expires,
                                                              key: Self.retiredKey))
            XCTAssertEqual(unknown.status, .forbidden)
            XCTAssertTrue(try unknown.errorJSON().error.contains(Self.retiredKey.id), unknown.text)

            // Tampering with any signed part: the expiry, the scene, the extension, the key id.
            let path = SignedURL.path(scene: ServerFixtures.small, ext: "png", expires: expires, key: Self.newKey)
            let later = path.replacingOccurrences(of: ".\(expires).", with: ".\(expires + 86400).")
            let otherScene = path.replacingOccurrences(of: "/" + Base64URL.encode(ServerFixtures.small),
                                                       with: "/" + Base64URL.encode(ServerFixtures.bad))
            let otherExt = path.replacingOccurrences(of: ".png", with: ".webp")
            let otherKey = path.replacingOccurrences(of: "/\(Self.newKey.id).", with: "/\(Self.oldKey.id).")
            for tampered in [later, otherScene, otherExt, otherKey] {
                XCTAssertNotEqual(tampered, path)
                let response = try await client.get(tampered)
                XCTAssertEqual(response.status, .forbidden, tampered)
                XCTAssertEqual(try response.errorJSON().place, "path.signature")
            }
            let withQuery = try await client.get(path + "?scale=9")
            XCTAssertEqual(withQuery.status, .badRequest)

            // Past its expiry: 410 with a message that says so.
            let expired = try await client.get(SignedURL.path(scene: ServerFixtures.small, ext: "png", expires: Self.now - 5,
                                                              key: Self.newKey))
            XCTAssertEqual(expired.status, .gone)
            let message = try expired.errorJSON().error
            XCTAssertTrue(message.contains("expired"), message)

            // Not in the format at all.
            let garbled = try await client.get("/v1/render/abc.notatime.sig/\(Base64URL.encode(ServerFixtures.small)).png")
            XCTAssertEqual(garbled.status, .notFound)
        }
        server.service.shutdown()
    }

    func testUnexpiringURLsOnlyWhenAskedFor() async throws {
        let legacy = LegacySignedURL.path(scene: ServerFixtures.small, ext: "png", key: Self.oldKey)
        let strict = try await ServerFixtures.server { $0.signingKeys = [Self.oldKey] }
        try await strict.application().test(.router) { client in
            let refused = try await client.get(legacy)
            XCTAssertEqual(refused.status, .forbidden)
            XCTAssertTrue(try refused.errorJSON().error.contains("--accept-unexpiring-urls"))
        }
        strict.service.shutdown()

        let lenient = try await ServerFixtures.server { $0.signingKeys = [Self.newKey, Self.oldKey]; $0.acceptUnexpiringURLs = true }
        try await lenient.application().test(.router) { client in
            let accepted = try await client.get(legacy)
            XCTAssertEqual(accepted.status, .ok, accepted.text)
            let wrong = try await client.get(LegacySignedURL.path(scene: ServerFixtures.small, ext: "png", key: Self.retiredKey))
            XCTAssertEqual(wrong.status, .forbidden)
        }
        lenient.service.shutdown()

        let unsigned = try await ServerFixtures.server()
        try await unsigned.application().test(.router) { client in
            let response = try await client.get(SignedURL.path(scene: ServerFixtures.small, ext: "png", expires: Self.now + 60,
                                                               key: Self.oldKey))
            XCTAssertEqual(response.status, .notFound)
            XCTAssertTrue(try response.errorJSON().error.contains("signing key"))
        }
        unsigned.service.shutdown()
    }
}
