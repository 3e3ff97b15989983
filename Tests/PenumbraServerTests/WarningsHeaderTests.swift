// X-Penumbra-Warnings: a render whose text has characters no installed font has still succeeds and
// says so in the header, ASCII-safe and bounded; a cached response says it again; another
// request's response never carries it.
import Foundation
import HTTPTypes
import HummingbirdTesting
import Penumbra
@testable import PenumbraServer
import XCTest

final class WarningsHeaderTests: XCTestCase {
    static let header = HTTPField.Name("X-Penumbra-Warnings")!

    static func scene(_ text: String) -> [UInt8] {
        Array(#"""
            {"format":"penumbra-scene","version":1,"size":[120,40],"background":"#FFFFFF",
             "ops":[{"op":"setFillColor","color":"#000000"},{"op":"drawText","text":"\#(text)","font":{"family":"DejaVu Sans","size":20},"at":[4,4]}]}
            """#.utf8)
    }

    func testARenderWithMissingCharactersWarnsInItsHeaderEvenFromTheCache() async throws {
        let server = try await ServerFixtures.server()
        try await server.application().test(.router) { client in
            let expected = "ops[1]: no installed font has U+E000 (drawn as missing-glyph boxes)"
            let first = try await client.post("/v1/render", Self.scene(#"x\uE000"#))
            XCTAssertEqual(first.status, .ok, first.text)
            XCTAssertEqual(first.headers[Self.header], expected)
            XCTAssertEqual(first.headers[.serverTiming].map { $0.contains("cache;desc=hit") }, false)
            let again = try await client.post("/v1/render", Self.scene(#"x\uE000"#))
            XCTAssertEqual(again.headers[.serverTiming].map { $0.contains("cache;desc=hit") }, true, "the second is a cache hit")
            XCTAssertEqual(again.headers[Self.header], expected)
            // The next request, with text every font has, carries nothing of the one before.
            let clean = try await client.post("/v1/render", Self.scene("x 世界"))
            XCTAssertEqual(clean.status, .ok, clean.text)
            XCTAssertNil(clean.headers[Self.header])
        }
        server.service.shutdown()
    }

    func testTheValueIsPrintableASCIIWithoutRepeatingACharacterItsCodePointNamed() {
        let warnings = [RenderWarning(location: "ops[0]", message: "no installed font has U+0870 '\u{0870}', U+E000 (drawn as missing-glyph boxes)"),
                        RenderWarning(location: "ops[2]", message: "no installed font family \"Café Mono\"; drawn in monospace instead")]
        XCTAssertEqual(WarningsHeader.value(warnings),
                       "ops[0]: no installed font has U+0870, U+E000 (drawn as missing-glyph boxes); "
                       + "ops[2]: no installed font family \"CafU+00E9 Mono\"; drawn in monospace instead")
        XCTAssertNil(WarningsHeader.value([]))
        XCTAssertEqual(WarningsHeader.ascii("a\tb\u{7F}"), "aU+0009bU+007F")
    }

    func testTheValueIsBoundedAndCountsWhatItLeavesOut() throws {
        let many = (0..<200).map { RenderWarning(location: "ops[\($0)]", message: "no installed font has U+E000 (drawn as missing-glyph boxes)") }
        let value = try XCTUnwrap(WarningsHeader.value(many))
        XCTAssertLessThanOrEqual(value.count, WarningsHeader.maximumLength)
        XCTAssertTrue(value.hasPrefix("ops[0]: no installed font has U+E000"), value)
        let listed = value.components(separatedBy: "; ops[").count
        XCTAssertTrue(value.hasSuffix("; and \(200 - listed) more"), value)
        let huge = [RenderWarning(location: "ops[0]", message: String(repeating: "é", count: 5000))]
        let cut = try XCTUnwrap(WarningsHeader.value(huge))
        XCTAssertLessThanOrEqual(cut.count, WarningsHeader.maximumLength)
        XCTAssertTrue(cut.hasSuffix("..."), cut)
        XCTAssertTrue(cut.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F })
    }
}
