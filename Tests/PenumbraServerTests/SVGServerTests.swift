// SVG at the render server: an `image/svg+xml` body is drawn at its own size times `scale`,
// an SVG part of a multipart form is a vector image of the scene, and a hostile SVG (a `use`
// cycle) is a 400 whose JSON names the element, after which the server serves the next request.
import Foundation
import HummingbirdTesting
import Penumbra
import PenumbraServer
import XCTest

final class SVGServerTests: XCTestCase {
    /// 10 x 8 points: the left half red, the right half blue.
    static let halves = Array("""
        <svg xmlns="http://www.w3.org/2000/svg" width="10" height="8">\
        <rect width="5" height="8" fill="#ff0000"/><rect x="5" width="5" height="8" fill="#0000ff"/></svg>
        """.utf8)

    static let cycle = Array("""
        <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">\
        <g id="a"><use id="loop" xlink:href="#a"/></g></svg>
        """.utf8)

    func testAnSVGBodyIsDrawnAtItsSizeTimesTheScale() async throws {
        let server = try await ServerFixtures.server()
        try await server.application().test(.router) { client in
            let plain = try await client.post("/v1/render", Self.halves, contentType: "image/svg+xml")
            XCTAssertEqual(plain.status, .ok, plain.text)
            let a = try PNGCodec.decode(plain.bytes)
            XCTAssertEqual([a.width, a.height], [10, 8])
            let scaled = try await client.post("/v1/render?scale=4", Self.halves, contentType: "image/svg+xml; charset=utf-8")
            XCTAssertEqual(scaled.status, .ok, scaled.text)
            let b = try PNGCodec.decode(scaled.bytes)
            XCTAssertEqual([b.width, b.height], [40, 32])
            XCTAssertEqual(b[19, 16], SIMD4<UInt8>(255, 0, 0, 255))
            XCTAssertEqual(b[20, 16], SIMD4<UInt8>(0, 0, 255, 255), "drawn as vectors at scale 4: the halves meet sharply")
        }
        server.service.shutdown()
    }

    func testAHostileSVGBodyIs400NamingTheElementAndTheServerGoesOn() async throws {
        let server = try await ServerFixtures.server()
        try await server.application().test(.router) { client in
            let refused = try await client.post("/v1/render", Self.cycle, contentType: "image/svg+xml")
            XCTAssertEqual(refused.status, .badRequest, refused.text)
            let json = try refused.errorJSON()
            XCTAssertEqual(json.place, "body")
            XCTAssertTrue(json.error.contains("<use id=\"loop\">"), json.error)
            let broken = try await client.post("/v1/render", Array("<svg".utf8), contentType: "image/svg+xml")
            XCTAssertEqual(broken.status, .badRequest, broken.text)
            XCTAssertTrue(try broken.errorJSON().error.hasPrefix("<svg>: malformed XML"), broken.text)
            let next = try await client.post("/v1/render", Self.halves, contentType: "image/svg+xml")
            XCTAssertEqual(next.status, .ok, next.text)
            let scene = try await client.post("/v1/render", ServerFixtures.small)
            XCTAssertEqual(scene.status, .ok, scene.text)
        }
        server.service.shutdown()
    }

    func testAnSVGPartIsAVectorImageOfTheScene() async throws {
        let scene = Array("""
            {"format":"penumbra-scene","version":1,"size":[100,80],"images":{"logo":"part:logo"},
             "ops":[{"op":"drawImage","image":"logo","rect":[0,0,100,80]}]}
            """.utf8)
        let server = try await ServerFixtures.server()
        try await server.application().test(.router) { client in
            let (body, type) = ServerFixtures.multipart([("scene", scene, "application/json"), ("logo", Self.halves, "image/svg+xml")])
            let drawn = try await client.post("/v1/render", body, contentType: type)
            XCTAssertEqual(drawn.status, .ok, drawn.text)
            let b = try PNGCodec.decode(drawn.bytes)
            XCTAssertEqual(b[49, 40], SIMD4<UInt8>(255, 0, 0, 255))
            XCTAssertEqual(b[50, 40], SIMD4<UInt8>(0, 0, 255, 255))

            let (hostile, type2) = ServerFixtures.multipart([("scene", scene, "application/json"), ("logo", Self.cycle, "image/svg+xml")])
            let refused = try await client.post("/v1/render", hostile, contentType: type2)
            XCTAssertEqual(refused.status, .badRequest, refused.text)
            let json = try refused.errorJSON()
            XCTAssertEqual(json.place, "images.logo")
            XCTAssertTrue(json.error.contains("<use id=\"loop\">"), json.error)
        }
        server.service.shutdown()
    }
}
