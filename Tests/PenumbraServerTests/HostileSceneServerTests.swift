// HostileSceneServerTests: the attack scenes of Tests/HostileScenes posted to
// a real server over a loopback socket (CPU backend, 2 workers): the 254-byte
// request that aborted the process renders, the budget's refusals are 400s
// naming the op, a render past its deadline is a 504 whose worker is free at
// once for the next request, and the server answers /healthz after them all.
import Foundation
import Penumbra
import PenumbraServer
import XCTest

final class HostileSceneServerTests: XCTestCase {
    static let folder = ServerFixtures.root.appendingPathComponent("Tests/HostileScenes")

    static func scene(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// Posts `body` and returns the status and the response's text (head and body).
    static func post(_ body: [UInt8], port: Int, seconds: Double = 60) -> (status: Int, text: String) {
        guard let socket = LoopbackSocket(port: port), socket.send(LoopbackSocket.post(body)) else { return (0, "") }
        let text = String(decoding: socket.read(seconds: seconds), as: UTF8.self)
        let status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, text)
    }

    func testTheAttacksAreRenderedOrRefusedAndTheServerStaysUp() async throws {
        // A geometry budget small enough that the dashed strokes are refused well inside the
        // deadline on a debug build too (at the default they are refused after about 3 s).
        let server = try await ServerFixtures.server {
            $0.timeoutMilliseconds = 1_500
            $0.limits.maxGeometryPoints = 200_000
        }
        try await ServerFixtures.serving(server) { port in
            let far = Self.post(try Self.scene("shadow-layer-far-offset.json"), port: port)
            XCTAssertEqual(far.status, 200, far.text)
            for (name, place, words) in [("shadow-layer-unbounded.json", "ops[1]", "the layer needs"),
                                         ("nested-layers-10mp.json", "ops[", "over the render budget"),
                                         ("dash-billion.json", "ops[", "geometry budget")] {
                let refused = Self.post(try Self.scene(name), port: port)
                XCTAssertEqual(refused.status, 400, "\(name): \(refused.text.prefix(300))")
                XCTAssertTrue(refused.text.contains(words) && refused.text.contains(place), "\(name): \(refused.text.prefix(400))")
            }
            // 4000 x 4000 with a radius-256 backdrop blur: seconds of work, cut at the deadline; the
            // worker takes the next request at once.
            let started = Date()
            let late = Self.post(try Self.scene("backdrop-256.json"), port: port)
            XCTAssertEqual(late.status, 504, late.text.prefix(300).description)
            let afterDeadline = Date()
            let small = Self.post(ServerFixtures.small, port: port)
            XCTAssertEqual(small.status, 200, small.text.prefix(300).description)
            XCTAssertLessThan(Date().timeIntervalSince(afterDeadline), 5, "the next request waited for the cancelled one")
            XCTAssertLessThan(afterDeadline.timeIntervalSince(started), 10)
            guard let health = LoopbackSocket(port: port), health.send(LoopbackSocket.get("/healthz")) else {
                return XCTFail("the server is down")
            }
            XCTAssertTrue(String(decoding: health.read(seconds: 10), as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        }
    }
}
