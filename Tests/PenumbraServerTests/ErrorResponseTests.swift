// What errors tell the client: malformed HTTP is the client's 400 (not a 500 that names the
// parser), an unexpected error is a 500 with a generic message and an id that the server's log
// carries with the details, and no message names the --assets folder's absolute path.
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Penumbra
import PenumbraServer
import XCTest

final class ErrorResponseTests: XCTestCase {
    func testABadChunkSizeIs400() async throws {
        let server = try await ServerFixtures.server()
        try await ServerFixtures.serving(server) { port in
            let socket = try XCTUnwrap(LoopbackSocket(port: port))
            let head = "POST /v1/render HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n"
            XCTAssertTrue(socket.send(Array(head.utf8) + Array("5\r\n{\"a\":\r\nZZ-not-hex\r\n".utf8)))
            let text = String(decoding: socket.read(seconds: 10), as: UTF8.self)
            XCTAssertTrue(text.hasPrefix("HTTP/1.1 400"), String(text.prefix(300)))
            XCTAssertFalse(text.contains("internal error"), text)
            XCTAssertTrue(text.contains("not valid HTTP"), text)
            let metrics = String(decoding: server.metrics.text(), as: UTF8.self)
            XCTAssertNil(ServerFixtures.sample(#"penumbra_http_requests_total{route="/v1/render",status="500"}"#, in: metrics))
        }
    }

    /// An error the server does not expect, whose description holds what a client must not see.
    private struct Surprise: Error, CustomStringConvertible {
        var description: String { "opening /srv/secret/state.db failed: EACCES" }
    }

    func testAnUnexpectedErrorIs500WithAnIDTheLogCarries() async throws {
        let log = LogCapture()
        let server = try await ServerFixtures.server(logger: log.logger)
        let router = server.router()
        router.get("/surprise") { _, _ -> Response in throw Surprise() }
        try await server.application(router: router).test(.router) { client in
            let response = try await client.get("/surprise")
            XCTAssertEqual(response.status, .internalServerError)
            XCTAssertFalse(response.text.contains("secret"), response.text)
            XCTAssertFalse(response.text.contains("EACCES"), response.text)
            let id = try XCTUnwrap(response.headers[HTTPField.Name("X-Error-Id")!])
            XCTAssertEqual(id.count, 16)
            XCTAssertTrue(try response.errorJSON().error.contains(id), response.text)

            let details = log.lines("unexpected error")
            XCTAssertEqual(details.count, 1)
            XCTAssertEqual(details.first?.metadata["error_id"], id)
            XCTAssertTrue(details.first?.metadata["error"]?.contains("/srv/secret/state.db") ?? false)
            let request = log.lines("request").last
            XCTAssertEqual(request?.metadata["status"], "500")
            XCTAssertEqual(request?.metadata["error_id"], id, "the request's log line carries the error id")
        }
        server.service.shutdown()
    }

    func testMessagesNeverNameTheAssetsFolder() async throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-redact-\(UUID().uuidString)")
        let assets = parent.appendingPathComponent("assets")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        let server = try await ServerFixtures.server { $0.assets = assets.path }
        // The folder goes away under the server: the decoder's message names the folder.
        try FileManager.default.removeItem(at: assets)
        let scene = Array(#"{"format":"penumbra-scene","version":1,"size":[8,8],"images":{"r":"red.png"},"ops":[]}"#.utf8)
        try await server.application().test(.router) { client in
            let response = try await client.post("/v1/render", scene)
            XCTAssertEqual(response.status, .badRequest)
            let message = try response.errorJSON().error
            XCTAssertFalse(message.contains(parent.path), message)
            XCTAssertFalse(message.contains("penumbra-redact"), message)
            XCTAssertTrue(message.contains("\".\""), "the folder itself is written as \".\": \(message)")
        }
        server.service.shutdown()
    }

    func testRedactionWritesPathsRelativeToTheFolder() {
        let redaction = AssetPathRedaction(assets: "/srv/assets/")
        XCTAssertEqual(redaction.redact("cannot read the font file /srv/assets/fonts/a.ttf"), "cannot read the font file fonts/a.ttf")
        XCTAssertEqual(redaction.redact("the folder \"/srv/assets\" cannot be opened"), "the folder \".\" cannot be opened")
        XCTAssertEqual(redaction.redact("/srv/assets2/x and /srv/assets-old"), "/srv/assets2/x and /srv/assets-old",
                       "another folder that starts the same way is left alone")
        XCTAssertEqual(AssetPathRedaction(assets: nil).redact("/srv/assets/x"), "/srv/assets/x")
    }
}
