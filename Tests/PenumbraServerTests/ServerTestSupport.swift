// Scenes, servers and request helpers shared by the server tests.
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Penumbra
import PenumbraServer
import XCTest

enum ServerFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let examples = root.appendingPathComponent("Examples")

    /// A small valid scene: a blue square on white.
    static let small = Array("""
        {"format":"penumbra-scene","version":1,"size":[40,30],"background":"#FFFFFF",
         "ops":[{"op":"setFillColor","color":"#2050C0"},{"op":"fill","path":"M 5 5 L 30 5 L 30 25 L 5 25 Z"}]}
        """.utf8)

    /// A scene with an error at ops[1].color.
    static let bad = Array("""
        {"format":"penumbra-scene","version":1,"size":[40,30],
         "ops":[{"op":"setFillColor","color":"#2050C0"},{"op":"setFillColor","color":"not-a-colour"}]}
        """.utf8)

    /// A scene of `count` large fills (a few milliseconds each on the CPU): thousands take seconds,
    /// and a cancelled render stops within one fill.
    static func heavy(count: Int = 2000) -> [UInt8] {
        var ops: [String] = []
        for i in 0..<count {
            let x = i % 50
            let grey = String(format: "%02X", (i * 7) % 256)
            ops.append("{\"op\":\"setFillColor\",\"color\":\"#\(grey)4080\"},"
                + "{\"op\":\"fill\",\"path\":\"M \(x) \(x) L 900 \(x) L 900 900 L \(x) 900 Z\"}")
        }
        let scene = "{\"format\":\"penumbra-scene\",\"version\":1,\"size\":[1000,1000],\"ops\":[" + ops.joined(separator: ",") + "]}"
        return Array(scene.utf8)
    }

    /// A 4 x 4 red PNG, made with the project's encoder.
    static func redPNG() throws -> [UInt8] {
        let red: [UInt8] = [255, 0, 0, 255]
        return try PNGCodec.encode(Bitmap(width: 4, height: 4, pixels: Array((0..<16).map { _ in red }.joined())))
    }

    /// Waits until `condition` holds, up to `seconds`.
    static func eventually(_ seconds: Double, _ condition: () -> Bool) async -> Bool {
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < end {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    /// A CPU server's configuration with a free port.
    static func configuration(_ change: (inout ServerConfiguration) -> Void = { _ in }) -> ServerConfiguration {
        var config = ServerConfiguration()
        config.port = 0
        config.backend = .cpu
        config.workers = 2
        config.queue = 8
        change(&config)
        return config
    }

    /// A started server whose workers are warm, logging to `logger`.
    static func server(logger: Logger = Logger(label: "penumbra.serve"),
                       _ change: (inout ServerConfiguration) -> Void = { _ in }) async throws -> RenderServer {
        let server = try RenderServer(configuration: configuration(change), logger: logger)
        let ready = await server.service.waitUntilReady()
        XCTAssertTrue(ready, "the workers did not warm up")
        return server
    }

    /// A multipart body with `parts` (name, bytes, content type) and its Content-Type.
    static func multipart(_ parts: [(String, [UInt8], String)], boundary: String = "penumbra-test-boundary") -> ([UInt8], String) {
        var body: [UInt8] = []
        for (name, bytes, type) in parts {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(name)\"\r\nContent-Type: \(type)\r\n\r\n".utf8)
            body += bytes
            body += Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return (body, "multipart/form-data; boundary=\(boundary)")
    }
}

extension TestClientProtocol {
    /// POSTs `body` as `contentType` to `uri`.
    func post(_ uri: String, _ body: [UInt8], contentType: String = "application/json",
              headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var headers = extra
        headers[.contentType] = contentType
        return try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }

    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: headers)
    }
}

extension TestResponse {
    var bytes: [UInt8] { Array(buffer: body) }
    var text: String { String(buffer: body) }

    /// The error JSON's fields.
    func errorJSON(file: StaticString = #filePath, line: UInt = #line) throws -> (error: String, place: String) {
        let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: String]
        let unwrapped = try XCTUnwrap(object, "not an error JSON object: \(text)", file: file, line: line)
        return (try XCTUnwrap(unwrapped["error"], file: file, line: line), try XCTUnwrap(unwrapped["place"], file: file, line: line))
    }
}
