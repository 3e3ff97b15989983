// In-process router tests (HummingbirdTesting's .router): every route and status of
// SCENE_FORMAT.md's "Render server".
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Penumbra
import PenumbraServer
import XCTest

final class RouterTests: XCTestCase {
    func testHealthReadyAndMetrics() async throws {
        let server = try await ServerFixtures.server()
        try await server.application().test(.router) { client in
            let health = try await client.get("/healthz")
            XCTAssertEqual(health.status, .ok)
            let ready = try await client.get("/readyz")
            XCTAssertEqual(ready.status, .ok)
            _ = try await client.post("/v1/render", ServerFixtures.small)
            let metrics = try await client.get("/metrics")
            XCTAssertEqual(metrics.status, .ok)
            for name in ["penumbra_http_requests_total{route=\"/v1/render\",status=\"200\"} 1",
                         "penumbra_request_seconds_bucket{stage=\"queue\"", "penumbra_request_seconds_count{stage=\"decode\"} 1",
                         "penumbra_request_seconds_count{stage=\"render\"} 1", "penumbra_request_seconds_count{stage=\"encode\"} 1",
                         "penumbra_renders_total{backend=\"cpu\"} 1", "penumbra_queue_depth", "penumbra_renders_in_flight",
                         "penumbra_cache_hits_total 0", "penumbra_cache_bytes", "penumbra_gpu_fallbacks_total 0",
                         "process_resident_memory_bytes"] {
                XCTAssertTrue(metrics.text.contains(name), "/metrics lacks \(name)")
            }
        }
        server.service.shutdown()
    }

    func testRenderJSONHasImageAndHeaders() async throws {
        let server = try await ServerFixtures.server()
        let expected = try PNGCodec.encode(try CPURendererHelper.render(ServerFixtures.small))
        try await server.application().test(.router) { client in
            let response = try await client.post("/v1/render?format=png&scale=1", ServerFixtures.small)
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(response.headers[.contentType], "image/png")
            XCTAssertEqual(response.headers[HTTPField.Name("X-Penumbra-Backend")!], "cpu")
            let timing = try XCTUnwrap(response.headers[HTTPField.Name("Server-Timing")!])
            for stage in ["decode;dur=", "render;dur=", "encode;dur="] { XCTAssertTrue(timing.contains(stage), timing) }
            let etag = try XCTUnwrap(response.headers[.eTag])
            XCTAssertTrue(etag.hasPrefix("\"") && etag.count == 66, etag)
            XCTAssertEqual(response.bytes, expected, "the server's PNG differs from rendering the scene directly")

            // If-None-Match: 304 without a body; another query is another ETag.
            let again = try await client.post("/v1/render?format=png&scale=1", ServerFixtures.small, headers: [.ifNoneMatch: etag])
            XCTAssertEqual(again.status, .notModified)
            XCTAssertEqual(again.headers[.eTag], etag)
            XCTAssertEqual(again.body.readableBytes, 0)
            let scaled = try await client.post("/v1/render?scale=2", ServerFixtures.small, headers: [.ifNoneMatch: etag])
            XCTAssertEqual(scaled.status, .ok)
            XCTAssertNotEqual(scaled.headers[.eTag], etag)
            XCTAssertEqual(try PNGCodec.decode(scaled.bytes).width, 80)

            // The same request again comes from the cache, byte for byte.
            let cached = try await client.post("/v1/render?format=png&scale=1", ServerFixtures.small)
            XCTAssertEqual(cached.bytes, expected)
            let metrics = try await client.get("/metrics")
            XCTAssertTrue(metrics.text.contains("penumbra_cache_hits_total 1"))
        }
        server.service.shutdown()
    }

    func testBadRequestsNameTheirPlace() async throws {
        let server = try await ServerFixtures.server { $0.maxBodyBytes = 4096 }
        try await server.application().test(.router) { client in
            let bad = try await client.post("/v1/render", ServerFixtures.bad)
            XCTAssertEqual(bad.status, .badRequest)
            XCTAssertEqual(try bad.errorJSON().place, "ops[1].color")
            XCTAssertEqual(bad.headers[.contentType], "application/json")

            let syntax = try await client.post("/v1/render", Array("{\"format\": ".utf8))
            XCTAssertEqual(syntax.status, .badRequest)
            let syntaxPlace = try syntax.errorJSON().place
            XCTAssertTrue(syntaxPlace.hasPrefix("line 1"), syntaxPlace)

            for (query, place) in [("scale=0", "query.scale"), ("quality=101", "query.quality"), ("format=gif", "query.format"),
                                   ("time=-1", "query.time"), ("backend=metal", "query.backend"), ("colour=red", "query.colour"),
                                   ("scale=1&scale=2", "query.scale")] {
                let response = try await client.post("/v1/render?\(query)", ServerFixtures.small)
                XCTAssertEqual(response.status, .badRequest, query)
                XCTAssertEqual(try response.errorJSON().place, place, query)
            }

            // JPEG and WebP come back in their own formats (the files' signatures), as the type says.
            for (query, type, signature) in [("format=jpeg&quality=80", "image/jpeg", [UInt8]([0xFF, 0xD8, 0xFF])),
                                             ("format=webp", "image/webp", Array("RIFF".utf8))] {
                let response = try await client.post("/v1/render?\(query)", ServerFixtures.small)
                XCTAssertEqual(response.status, .ok, query)
                XCTAssertEqual(response.headers[.contentType], type, query)
                XCTAssertEqual(Array(Array(buffer: response.body).prefix(signature.count)), signature, query)
            }

            let path = Array(#"{"format":"penumbra-scene","version":1,"size":[10,10],"images":{"a":"a.png"},"ops":[]}"#.utf8)
            let refused = try await client.post("/v1/render", path)
            XCTAssertEqual(refused.status, .badRequest)
            XCTAssertEqual(try refused.errorJSON().place, "images.a")
            let refusedError = try refused.errorJSON().error
            XCTAssertTrue(refusedError.contains("no folder"), refusedError)

            let big = try await client.post("/v1/render", [UInt8](repeating: 0x20, count: 5000) + ServerFixtures.small)
            XCTAssertEqual(big.status, .contentTooLarge)
            XCTAssertEqual(try big.errorJSON().place, "body")

            for type in ["text/plain", "image/png"] {
                let wrong = try await client.post("/v1/render", ServerFixtures.small, contentType: type)
                XCTAssertEqual(wrong.status, .unsupportedMediaType, type)
                XCTAssertEqual(try wrong.errorJSON().place, "content-type")
            }
            let none = try await client.execute(uri: "/v1/render", method: .post, body: ByteBuffer(bytes: ServerFixtures.small))
            XCTAssertEqual(none.status, .unsupportedMediaType)

            let gpu = try await client.post("/v1/render?backend=gpu", ServerFixtures.small)
            XCTAssertEqual(gpu.status, .serviceUnavailable, "a CPU-only server has no GPU renderer")
            XCTAssertEqual(try gpu.errorJSON().place, "query.backend")
        }
        server.service.shutdown()
    }

    func testBadRequestDoesNotChangeTheNextOne() async throws {
        let alone = try await ServerFixtures.server()
        let expected = try await alone.application().test(.router) { client in
            try await client.post("/v1/render?scale=2", ServerFixtures.small).bytes
        }
        alone.service.shutdown()

        let server = try await ServerFixtures.server { $0.cacheBytes = 0 }
        try await server.application().test(.router) { client in
            for body in [ServerFixtures.bad, Array("[[[[".utf8), ServerFixtures.heavy(count: 3) + [0x7D]] {
                let response = try await client.post("/v1/render?scale=2", body)
                XCTAssertEqual(response.status, .badRequest)
            }
            let good = try await client.post("/v1/render?scale=2", ServerFixtures.small)
            XCTAssertEqual(good.status, .ok)
            XCTAssertFalse(expected.isEmpty)
            XCTAssertEqual(good.bytes, expected)
        }
        server.service.shutdown()
    }

    func testMultipartPartsAndAssets() async throws {
        let png = try ServerFixtures.redPNG()
        let scene = Array(#"""
            {"format":"penumbra-scene","version":1,"size":[8,8],"images":{"r":"part:red"},
             "ops":[{"op":"drawImage","image":"r","rect":[0,0,8,8]}]}
            """#.utf8)
        let assets = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-assets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: assets) }
        try Data(png).write(to: assets.appendingPathComponent("red.png"))

        let server = try await ServerFixtures.server { $0.assets = assets.path }
        try await server.application().test(.router) { client in
            let (body, type) = ServerFixtures.multipart([("scene", scene, "application/json"), ("red", png, "image/png")])
            let response = try await client.post("/v1/render", body, contentType: type)
            XCTAssertEqual(response.status, .ok, response.text)
            let image = try PNGCodec.decode(response.bytes)
            XCTAssertEqual(image[4, 4], SIMD4<UInt8>(255, 0, 0, 255))

            let (missing, type2) = ServerFixtures.multipart([("scene", scene, "application/json")])
            let noPart = try await client.post("/v1/render", missing, contentType: type2)
            XCTAssertEqual(noPart.status, .badRequest)
            XCTAssertEqual(try noPart.errorJSON().place, "images.r")

            let (noScene, type3) = ServerFixtures.multipart([("red", png, "image/png")])
            let noSceneResponse = try await client.post("/v1/render", noScene, contentType: type3)
            XCTAssertEqual(try noSceneResponse.errorJSON().place, "parts.scene")

            var truncated = body
            truncated.removeLast(12)
            let broken = try await client.post("/v1/render", truncated, contentType: type)
            XCTAssertEqual(broken.status, .badRequest)

            let viaAssets = Array(#"{"format":"penumbra-scene","version":1,"size":[8,8],"images":{"r":"red.png"},"ops":[{"op":"drawImage","image":"r","rect":[0,0,8,8]}]}"#.utf8)
            let fromFolder = try await client.post("/v1/render", viaAssets)
            XCTAssertEqual(fromFolder.status, .ok, fromFolder.text)
            XCTAssertEqual(fromFolder.bytes, response.bytes)
            let outside = Array(#"{"format":"penumbra-scene","version":1,"size":[8,8],"images":{"r":"../red.png"},"ops":[]}"#.utf8)
            let outsideResponse = try await client.post("/v1/render", outside)
            XCTAssertEqual(outsideResponse.status, .badRequest)
        }
        server.service.shutdown()
    }
}

/// Renders a scene directly, as the reference for the server's bytes.
enum CPURendererHelper {
    static func render(_ json: [UInt8], scale: Double? = nil) throws -> Bitmap {
        try Backend.cpu.makeRenderer().renderer.render(try Scene.decode(json, baseDirectory: "/nonexistent", scale: scale).displayList())
    }
}
