// Content negotiation: without `format`, `Accept` picks PNG, WebP or JPEG; `lossless=true` gives
// lossless WebP; `format` always wins; responses vary by Accept.
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Penumbra
import PenumbraRequests
import PenumbraServer
import XCTest

final class AcceptNegotiationTests: XCTestCase {
    func testPreferredFormatFollowsQualityThenSpecificity() {
        XCTAssertEqual(OutputFormat.preferred(accept: "image/webp"), .webp)
        // A browser's image Accept names WebP and reaches PNG only through wildcards.
        XCTAssertEqual(OutputFormat.preferred(accept: "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"), .webp)
        XCTAssertEqual(OutputFormat.preferred(accept: "*/*"), .png)
        XCTAssertEqual(OutputFormat.preferred(accept: "image/*"), .png)
        XCTAssertEqual(OutputFormat.preferred(accept: "image/png, image/webp"), .png)
        XCTAssertEqual(OutputFormat.preferred(accept: "image/png;q=0.5, image/webp;q=0.9"), .webp)
        XCTAssertEqual(OutputFormat.preferred(accept: "image/jpeg"), .jpeg)
        XCTAssertEqual(OutputFormat.preferred(accept: "image/*, image/png;q=0"), .webp)
        // Nothing acceptable, or nonsense: PNG anyway.
        XCTAssertEqual(OutputFormat.preferred(accept: "text/html"), .png)
        XCTAssertEqual(OutputFormat.preferred(accept: "image/webp;q=2, ;;, /"), .png)
        XCTAssertEqual(OutputFormat.preferred(accept: ""), .png)
    }

    func testLosslessIsParsedStrictly() throws {
        XCTAssertTrue(try RenderOptions.parse(query: "lossless=true&format=webp").lossless)
        XCTAssertFalse(try RenderOptions.parse(query: "lossless=false").lossless)
        for query in ["lossless=yes", "lossless=1", "lossless=true&format=jpeg"] {
            XCTAssertThrowsError(try RenderOptions.parse(query: query), query) { error in
                XCTAssertEqual((error as? RequestError)?.place, "query.lossless", query)
            }
        }
        // The cache key tells lossless WebP from lossy, and ignores it where it changes nothing.
        XCTAssertNotEqual(try RenderOptions.parse(query: "format=webp&lossless=true").canonical,
                          try RenderOptions.parse(query: "format=webp").canonical)
        XCTAssertEqual(try RenderOptions.parse(query: "format=png&lossless=true").canonical,
                       try RenderOptions.parse(query: "format=png").canonical)
    }

    func testAcceptChoosesTheFormatUnlessTheQueryNamesOne() async throws {
        let server = try await ServerFixtures.server()
        try await server.application().test(.router) { client in
            let cases: [(query: String, accept: String?, type: String, signature: [UInt8])] = [
                ("", "image/webp,*/*;q=0.8", "image/webp", Array("RIFF".utf8)),
                ("", "*/*", "image/png", [0x89, 0x50, 0x4E, 0x47]),
                ("", nil, "image/png", [0x89, 0x50, 0x4E, 0x47]),
                ("", "image/jpeg", "image/jpeg", [0xFF, 0xD8, 0xFF]),
                ("?format=png", "image/webp", "image/png", [0x89, 0x50, 0x4E, 0x47]),
            ]
            var etags: Set<String> = []
            for c in cases {
                var headers = HTTPFields()
                if let accept = c.accept { headers[.accept] = accept }
                let response = try await client.post("/v1/render\(c.query)", ServerFixtures.small, headers: headers)
                XCTAssertEqual(response.status, .ok, "\(c)")
                XCTAssertEqual(response.headers[.contentType], c.type, "\(c)")
                XCTAssertEqual(response.headers[.vary], "Accept", "\(c)")
                XCTAssertEqual(Array(Array(buffer: response.body).prefix(c.signature.count)), c.signature, "\(c)")
                etags.insert(response.headers[.eTag] ?? "")
            }
            // PNG with or without an Accept is one variant; WebP and JPEG are others.
            XCTAssertEqual(etags.count, 3)
        }
        server.service.shutdown()
    }

    func testLosslessWebPIsLosslessAndExact() async throws {
        let server = try await ServerFixtures.server()
        let expected = try CPURendererHelper.render(ServerFixtures.small)
        try await server.application().test(.router) { client in
            let response = try await client.post("/v1/render?format=webp&lossless=true", ServerFixtures.small)
            XCTAssertEqual(response.status, .ok)
            let bytes = Array(buffer: response.body)
            // A lossless WebP's first chunk is VP8L (lossy: VP8 ); its pixels decode to the render's.
            XCTAssertEqual(Array(bytes[12..<16]), Array("VP8L".utf8))
            let decoded = try Image(data: bytes).bitmap
            XCTAssertTrue(try XCTUnwrap(ImageDifference(decoded, expected)).isExact)

            let lossy = try await client.post("/v1/render?format=webp", ServerFixtures.small)
            XCTAssertEqual(Array(Array(buffer: lossy.body)[12..<16]), Array("VP8 ".utf8))

            let refused = try await client.post("/v1/render?format=jpeg&lossless=true", ServerFixtures.small)
            XCTAssertEqual(refused.status, .badRequest)
            XCTAssertEqual(try refused.errorJSON().place, "query.lossless")
        }
        server.service.shutdown()
    }
}
