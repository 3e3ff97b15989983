// Tests of the strict JSON parser: every kind of value, escapes and
// surrogates, numbers (exponents, -0, overflow to infinity), key order and
// duplicates, the depth limit, and each kind of syntax error with its line
// and column.

import XCTest
import PenumbraModel
import PenumbraCore

final class JSONTests: XCTestCase {
    private func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    /// Asserts that parsing fails at `location` with a message containing `fragment`.
    private func assertSyntaxError(_ bytes: [UInt8], _ location: String, _ fragment: String,
                                   file: StaticString = #filePath, line: UInt = #line) {
        do {
            let value = try JSONValue.parse(bytes)
            XCTFail("parsed \(value), expected an error at \(location)", file: file, line: line)
        } catch let error as SceneError {
            XCTAssertEqual(error.location, location, "\(error)", file: file, line: line)
            XCTAssertTrue(error.message.contains(fragment), "\(error) should mention \(fragment)", file: file, line: line)
        } catch {
            XCTFail("unexpected error type \(error)", file: file, line: line)
        }
    }

    private func assertSyntaxError(_ text: String, _ location: String, _ fragment: String,
                                   file: StaticString = #filePath, line: UInt = #line) {
        assertSyntaxError(Array(text.utf8), location, fragment, file: file, line: line)
    }

    func testLiteralsAndContainers() throws {
        XCTAssertEqual(try parse("null"), .null)
        XCTAssertEqual(try parse(" true "), .bool(true))
        XCTAssertEqual(try parse("\tfalse\r\n"), .bool(false))
        XCTAssertEqual(try parse("[]"), .array([]))
        XCTAssertEqual(try parse("{ }"), .object(JSONObject()))
        XCTAssertEqual(try parse("[1, \"a\", [true, null], {}]"),
                       .array([.number(1), .string("a"), .array([.bool(true), .null]), .object(JSONObject())]))
        // Booleans and numbers stay apart (JSONSerialization on Linux blurs them).
        XCTAssertNotEqual(try parse("true"), try parse("1"))
    }

    func testObjectsKeepKeyOrder() throws {
        guard case .object(let o) = try parse("{\"z\": 1, \"a\": {\"k\": [2]}, \"m\": null}") else { return XCTFail("not an object") }
        XCTAssertEqual(o.keys, ["z", "a", "m"])
        XCTAssertEqual(o["z"], .number(1))
        XCTAssertEqual(o["m"], .null)
        XCTAssertNil(o["missing"])
        guard case .object(let inner)? = o["a"] else { return XCTFail("nested object missing") }
        XCTAssertEqual(inner["k"], .array([.number(2)]))
    }

    func testNumbers() throws {
        let cases: [(String, Double)] = [
            ("0", 0), ("7", 7), ("-12", -12), ("3.25", 3.25), ("1e3", 1000), ("1E3", 1000), ("2e+2", 200),
            ("25e-2", 0.25), ("-1.5E-1", -0.15), ("123456789012345678901234567890", 1.2345678901234568e29),
            ("0.1", 0.1), ("1e-400", 0),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try parse(text), .number(expected), text)
        }
        guard case .number(let negativeZero) = try parse("-0") else { return XCTFail("-0 is a number") }
        XCTAssertEqual(negativeZero, 0)
        XCTAssertEqual(negativeZero.sign, .minus, "-0 keeps its sign")
        // Overflow parses as an infinity; the scene decoder rejects it as not finite.
        XCTAssertEqual(try parse("1e999"), .number(.infinity))
        XCTAssertEqual(try parse("-1e999"), .number(-.infinity))
    }

    func testStringEscapes() throws {
        XCTAssertEqual(try parse(#""a\"b\\c\/d\be\ff\ng\rh\ti""#), .string("a\"b\\c/d\u{8}e\u{C}f\ng\rh\ti"))
        XCTAssertEqual(try parse(#""\u00e9\u00C9\u0000""#), .string("éÉ\u{0}"))
        XCTAssertEqual(try parse(#""\uD83D\uDE00""#), .string("😀"), "surrogate pair")
        XCTAssertEqual(try parse("\"héllo 😀 中\""), .string("héllo 😀 中"), "raw UTF-8")
        XCTAssertEqual(try parse(#""""#), .string(""))
    }

    func testByteOrderMarkIsSkipped() throws {
        XCTAssertEqual(try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)), .array([.number(1)]))
    }

    func testDuplicateKeysAreErrors() {
        assertSyntaxError("{\"a\": 1, \"a\": 2}", "line 1, column 10", "duplicate key \"a\"")
        assertSyntaxError("{\"x\": {\"b\": 1,\n \"b\": 2}}", "line 2, column 2", "duplicate key \"b\"")
    }

    func testDepthLimit() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        XCTAssertNoThrow(try parse(ok))
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        assertSyntaxError(tooDeep, "line 1, column 513", "nested deeper than 512")
        // Far deeper than any stack could recurse: still a clean error.
        assertSyntaxError(String(repeating: "{\"a\":", count: 200_000), "line 1, column 2561", "nested deeper")
        XCTAssertThrowsError(try JSONValue.parse(Array("[[[1]]]".utf8), maxDepth: 2))
    }

    func testLongArrayParsesInLinearTime() throws {
        let text = "[" + Array(repeating: "{\"op\": \"save\"}", count: 50_000).joined(separator: ",") + "]"
        guard case .array(let items) = try parse(text) else { return XCTFail("not an array") }
        XCTAssertEqual(items.count, 50_000)
    }

    func testStructuralErrors() {
        assertSyntaxError("", "line 1, column 1", "unexpected end of input")
        assertSyntaxError("   \n ", "line 2, column 2", "unexpected end of input")
        assertSyntaxError("[1, 2", "line 1, column 6", "unexpected end of input")
        assertSyntaxError("[1,]", "line 1, column 4", "unexpected ']'")
        assertSyntaxError("[1 2]", "line 1, column 4", "expected ',' or ']'")
        assertSyntaxError("{\"a\" 1}", "line 1, column 6", "expected ':'")
        assertSyntaxError("{\"a\": 1,}", "line 1, column 9", "expected a string key")
        assertSyntaxError("{a: 1}", "line 1, column 2", "expected a string key")
        assertSyntaxError("{\"a\": 1 \"b\": 2}", "line 1, column 9", "expected ',' or '}'")
        assertSyntaxError("['a']", "line 1, column 2", "unexpected")
        assertSyntaxError("1 2", "line 1, column 3", "expected the end of the document")
        assertSyntaxError("{} x", "line 1, column 4", "expected the end of the document")
        assertSyntaxError("[1] // comment", "line 1, column 5", "unexpected '/'")
        assertSyntaxError("tru", "line 1, column 1", "unknown word \"tru\"")
        assertSyntaxError("nulls", "line 1, column 1", "unknown word \"nulls\"")
        assertSyntaxError("{\n  \"size\": [1,\n    2,,]\n}", "line 3, column 7", "expected a value")
    }

    func testNumberSyntaxErrors() {
        assertSyntaxError("01", "line 1, column 2", "leading zeros")
        assertSyntaxError("-", "line 1, column 2", "a digit after '-'")
        assertSyntaxError("1.", "line 1, column 3", "a digit after the decimal point")
        assertSyntaxError("1.e5", "line 1, column 3", "a digit after the decimal point")
        assertSyntaxError("1e", "line 1, column 3", "a digit in the exponent")
        assertSyntaxError("1e+", "line 1, column 4", "a digit in the exponent")
        assertSyntaxError("+1", "line 1, column 1", "unexpected '+'")
        assertSyntaxError(".5", "line 1, column 1", "unexpected '.'")
        assertSyntaxError("NaN", "line 1, column 1", "NaN is not JSON")
        assertSyntaxError("[Infinity]", "line 1, column 2", "Infinity is not JSON")
        assertSyntaxError("-Infinity", "line 1, column 2", "Infinity is not JSON")
        assertSyntaxError("0x10", "line 1, column 2", "expected the end")
    }

    func testStringErrors() {
        assertSyntaxError("\"abc", "line 1, column 5", "end of input inside a string")
        assertSyntaxError("\"a\nb\"", "line 1, column 3", "control character U+000A")
        assertSyntaxError("\"a\tb\"", "line 1, column 3", "control character U+0009")
        assertSyntaxError(#""\x""#, "line 1, column 2", "invalid escape '\\x'")
        assertSyntaxError(#""\u12G4""#, "line 1, column 2", "4 hexadecimal digits")
        assertSyntaxError(#""ab\uD800""#, "line 1, column 4", "unpaired surrogate \\uD800")
        assertSyntaxError(#""\uD800\u0041""#, "line 1, column 2", "unpaired surrogate")
        assertSyntaxError(#""\uDC00\uD800""#, "line 1, column 2", "unpaired surrogate \\uDC00")
        // Invalid UTF-8: a stray continuation byte, a lone lead byte, an overlong form,
        // an encoded surrogate, a code point above U+10FFFF, a truncated sequence.
        for bad: [UInt8] in [[0x80], [0xC3, 0x41], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            assertSyntaxError([0x22] + bad + [0x22], "line 1, column 2", "invalid UTF-8")
        }
        // Outside a string a non-ASCII byte is simply unexpected.
        assertSyntaxError([0x5B, 0xC3, 0xA9, 0x5D], "line 1, column 2", "unexpected byte 0xC3")
    }

    func testColumnsCountCharactersNotBytes() {
        assertSyntaxError("[\"é😀\" x]", "line 1, column 7", "unexpected 'x'")
        assertSyntaxError("{\r\n\"a\": 1,\r\n\"a\": 2}", "line 3, column 1", "duplicate key")
    }
}
