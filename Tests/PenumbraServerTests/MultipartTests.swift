// The strict multipart reader and the query parser, on their own.
@_spi(Fuzzing) import PenumbraRequests
import XCTest

final class MultipartTests: XCTestCase {
    private func parse(_ text: String, boundary: String = "b") throws -> [MultipartPart] {
        try Multipart.parse(Array(text.utf8), boundary: boundary)
    }

    func testWellFormedForm() throws {
        let parts = try parse("--b\r\nContent-Disposition: form-data; name=\"scene\"\r\n\r\n{}\r\n"
            + "--b\r\nContent-Disposition: form-data; name=\"img\"; filename=\"x.png\"\r\nContent-Type: image/png\r\n\r\n\r\n--\r\n--b--\r\n")
        XCTAssertEqual(parts.map(\.name), ["scene", "img"])
        XCTAssertEqual(parts[0].body, Array("{}".utf8))
        XCTAssertEqual(parts[1].body, Array("\r\n--".utf8), "bytes that only resemble a delimiter stay in the part")
        XCTAssertEqual(parts[1].contentType, "image/png")
    }

    func testBoundaryParameter() throws {
        XCTAssertEqual(try Multipart.boundary(contentType: "multipart/form-data; boundary=abc"), "abc")
        XCTAssertEqual(try Multipart.boundary(contentType: "multipart/form-data; charset=x; boundary=\"a b\""), "a b")
        XCTAssertThrowsError(try Multipart.boundary(contentType: "multipart/form-data"))
        XCTAssertThrowsError(try Multipart.boundary(contentType: "multipart/form-data; boundary=" + String(repeating: "x", count: 71)))
    }

    func testMalformedFormsAreRefusedWithPlaces() {
        let cases: [(String, String)] = [
            ("preamble\r\n--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--b--", "body"),
            ("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx", "parts.a"),
            ("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--b--junk", "body"),
            ("--b\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nx\r\n--b--", "body"),
            ("--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--", "body"),
            ("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\ny\r\n--b--", "parts.a"),
            ("--b\r\nNo-Colon\r\n\r\nx\r\n--b--", "body"),
            ("--b--", "body"),
            ("--bX", "body"),
        ]
        for (text, place) in cases {
            XCTAssertThrowsError(try parse(text), text) { error in
                XCTAssertEqual((error as? RequestError)?.status, 400, text)
                XCTAssertEqual((error as? RequestError)?.place, place, text)
            }
        }
    }

    func testQueryCanonicalForm() throws {
        let a = try RenderOptions.parse(query: "scale=2&format=png")
        let b = try RenderOptions.parse(query: "format=PNG&scale=2.0&quality=90")
        XCTAssertEqual(a.canonical, b.canonical)
        XCTAssertNotEqual(a.canonical, try RenderOptions.parse(query: "scale=3").canonical)
        XCTAssertEqual(try RenderOptions.parse(query: "format=jpg").format, .jpeg)
        XCTAssertThrowsError(try RenderOptions.parse(query: "scale=nan"))
        XCTAssertThrowsError(try RenderOptions.parse(query: "scale=inf"))
    }

    func testErrorJSONEscapes() {
        let error = RequestError(400, "bad \"quote\" \\ and \u{1}", place: "ops[0]")
        XCTAssertEqual(String(decoding: error.jsonBody, as: UTF8.self),
                       "{\"error\":\"bad \\\"quote\\\" \\\\ and \\u0001\",\"place\":\"ops[0]\"}\n")
    }

    func testFuzzEntryAcceptsGarbage() {
        for seed in 0..<200 {
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<(seed % 64)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            RequestFuzzing.run([UInt8(seed % 2)] + bytes)
        }
    }
}
