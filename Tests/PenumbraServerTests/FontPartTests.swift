// Fonts as multipart parts and as --assets files, the way images are: a `fonts` entry naming
// "part:NAME" uses the posted file, and a font file in the asset folder is part of the ETag.
import Foundation
import HummingbirdTesting
import Penumbra
import PenumbraServer
import XCTest

final class FontPartTests: XCTestCase {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let dejaVuBold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    private static func scene(_ source: String) -> [UInt8] {
        Array(#"""
            {"format":"penumbra-scene","version":1,"size":[120,40],"background":"#FFFFFF","fonts":{"f":"\#(source)"},
             "ops":[{"op":"setFillColor","color":"#000000"},{"op":"drawText","text":"Hamburg","font":{"name":"f","size":24},"at":[4,30]}]}
            """#.utf8)
    }

    private static func inkedPixels(_ png: [UInt8]) throws -> Int {
        let bitmap = try PNGCodec.decode(png)
        var count = 0
        for y in 0..<bitmap.height { for x in 0..<bitmap.width where bitmap[x, y].x < 128 { count += 1 } }
        return count
    }

    func testAFontPartIsDrawnAndAMissingOneNamesItsPlace() async throws {
        let font = try XCTUnwrap(FileManager.default.contents(atPath: Self.dejaVu), "fonts-dejavu-core is installed by .ci/run")
        let server = try await ServerFixtures.server()
        try await server.application().test(.router) { client in
            let (body, type) = ServerFixtures.multipart([("scene", Self.scene("part:font"), "application/json"),
                                                         ("font", [UInt8](font), "font/ttf")])
            let drawn = try await client.post("/v1/render", body, contentType: type)
            XCTAssertEqual(drawn.status, .ok, drawn.text)
            XCTAssertGreaterThan(try Self.inkedPixels(drawn.bytes), 40, "the text was not drawn")

            let (noFont, type2) = ServerFixtures.multipart([("scene", Self.scene("part:font"), "application/json")])
            let missing = try await client.post("/v1/render", noFont, contentType: type2)
            XCTAssertEqual(missing.status, .badRequest)
            XCTAssertEqual(try missing.errorJSON().place, "fonts.f")
        }
        server.service.shutdown()
    }

    func testAReplacedAssetFontIsANewETag() async throws {
        let assets = FileManager.default.temporaryDirectory.appendingPathComponent("penumbra-font-assets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: assets) }
        let file = assets.appendingPathComponent("brand.ttf")
        try FileManager.default.copyItem(atPath: Self.dejaVu, toPath: file.path)
        let server = try await ServerFixtures.server { $0.assets = assets.path }
        try await server.application().test(.router) { client in
            let regular = try await client.post("/v1/render", Self.scene("brand.ttf"))
            XCTAssertEqual(regular.status, .ok, regular.text)
            try FileManager.default.removeItem(at: file)
            try FileManager.default.copyItem(atPath: Self.dejaVuBold, toPath: file.path)
            let bold = try await client.post("/v1/render", Self.scene("brand.ttf"))
            XCTAssertEqual(bold.status, .ok, bold.text)
            XCTAssertNotEqual(bold.headers[.eTag], regular.headers[.eTag])
            XCTAssertGreaterThan(try Self.inkedPixels(bold.bytes), try Self.inkedPixels(regular.bytes), "the bold face was not used")
        }
        server.service.shutdown()
    }
}
