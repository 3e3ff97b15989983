// HostileSceneServerTests: the attack scenes of Tests/HostileScenes posted to
// a real server over a loopback socket (CPU backend, 2 workers): the 254-byte
// request that aborted the process renders, the budget's refusals are 400s
// naming the op, a render past its deadline is a 504 whose worker is free at
// once for the next request, and the server answers /healthz after them all.
// Hostile view trees are 400s whose JSON names the view (`place`), under the
// default limits and under --max-views 5; 10,000 views render.
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

    /// The error JSON of a response's body (after the head): its `error` and `place`.
    static func errorJSON(_ text: String) -> (error: String, place: String)? {
        guard let head = text.range(of: "\r\n\r\n"), let open = text[head.upperBound...].firstIndex(of: "{"),
              let close = text.lastIndex(of: "}"), open < close,
              let object = try? JSONSerialization.jsonObject(with: Data(text[open...close].utf8)) as? [String: String],
              let error = object["error"], let place = object["place"] else { return nil }
        return (error, place)
    }

    /// The view scenes of Tests/HostileScenes refused under the default limits: where and why
    /// (as HostileSceneTests.viewRefusals).
    static let viewRefusals: [(scene: String, place: String, words: String)] = [
        ("invalid/view-unknown-type.json", "ops[0].view.subviews[2].type", "unknown view type \"button\""),
        ("invalid/view-unknown-key.json", "ops[0].view.subviews[2]", "unknown key \"colour\""),
        ("invalid/view-frame-and-transform.json", "ops[0].view.subviews[2].transform", "cannot have a \"transform\""),
        ("invalid/view-negative-size.json", "ops[0].view.subviews[2].frame[2]", "width must not be negative"),
        ("view-missing-image.json", "ops[0].view.subviews[2].image", "no image named \"icon\""),
        ("view-65-levels.json", "ops[0].view" + String(repeating: ".subviews[0]", count: 64), "more than 64 levels"),
    ]

    /// A tree of 10,000 flat views in groups of 100 under a root (the default --max-views).
    static func viewForest(_ count: Int) -> [UInt8] {
        var groups: [String] = []
        var left = count - 1, g = 0
        while left > 0 {
            let children = min(100, left - 1)
            left -= 1 + children
            let subviews = (0..<children).map { i -> String in
                let colour = String(format: "#%06X", (i * 40503 + g * 977) & 0xFFFFFF)
                return ##"{"frame":[\##(i % 10 * 4),\##(i / 10 * 4),3,3],"backgroundColor":"\##(colour)","layer":{"cornerRadius":1}}"##
            }
            groups.append(##"{"frame":[\##(g % 10 * 40),\##(g / 10 * 40),40,40],"clipsToBounds":true,"subviews":["##
                          + subviews.joined(separator: ",") + "]}")
            g += 1
        }
        return Array((##"{"format":"penumbra-scene","version":1,"size":[400,400],"ops":[{"op":"drawView","view":"##
            + ##"{"frame":[0,0,400,400],"backgroundColor":"#FFFFFF","subviews":["## + groups.joined(separator: ",") + "]}}]}").utf8)
    }

    func testHostileViewTreesAre400sNamingTheViewAndTheServerStaysUp() async throws {
        let server = try await ServerFixtures.server()
        try await ServerFixtures.serving(server) { port in
            for (name, place, words) in Self.viewRefusals {
                let refused = Self.post(try Self.scene(name), port: port)
                XCTAssertEqual(refused.status, 400, "\(name): \(refused.text.prefix(300))")
                let json = Self.errorJSON(refused.text)
                XCTAssertEqual(json?.place, place, "\(name): \(refused.text.prefix(400))")
                XCTAssertTrue(json?.error.contains(words) == true, "\(name): \(refused.text.prefix(400))")
            }
            let started = Date()
            let forest = Self.post(Self.viewForest(10_000), port: port)
            XCTAssertEqual(forest.status, 200, forest.text.prefix(300).description)
            XCTAssertLessThan(Date().timeIntervalSince(started), 30)
            let over = Self.post(Self.viewForest(10_001), port: port)
            XCTAssertEqual(over.status, 400, over.text.prefix(300).description)
            XCTAssertEqual(Self.errorJSON(over.text)?.place, "ops[0].view.subviews[99]", over.text.prefix(400).description)
            let small = Self.post(ServerFixtures.small, port: port)
            XCTAssertEqual(small.status, 200, small.text.prefix(300).description)
        }
        let five = try await ServerFixtures.server { $0.limits.maxViews = 5 }
        try await ServerFixtures.serving(five) { port in
            let refused = Self.post(try Self.scene("view-8-views.json"), port: port)
            XCTAssertEqual(refused.status, 400, refused.text.prefix(300).description)
            let json = Self.errorJSON(refused.text)
            XCTAssertEqual(json?.place, "ops[0].view.subviews[4]", refused.text.prefix(400).description)
            XCTAssertTrue(json?.error.contains("(--max-views)") == true, refused.text.prefix(400).description)
            guard let health = LoopbackSocket(port: port), health.send(LoopbackSocket.get("/healthz")) else {
                return XCTFail("the server is down")
            }
            XCTAssertTrue(String(decoding: health.read(seconds: 10), as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        }
    }
}
