// Helpers for the PNG tests: fixture loading, a chunk lister, an inflater
// for zlib's stored (level 0) blocks, and a seeded random number generator.
// None of them uses the codec under test.
import Foundation
import XCTest

/// The bytes of `Fixtures/png/<name>`, written by make_fixtures.py.
func pngFixture(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> [UInt8] {
    let url = try XCTUnwrap(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/png"),
                            "missing fixture \(name)", file: file, line: line)
    return [UInt8](try Data(contentsOf: url))
}

/// One chunk of a PNG file.
struct PNGChunk {
    var type: String
    var data: [UInt8]
    /// Offset of the chunk's length field in the file.
    var offset: Int
}

/// The chunks of a PNG, in order (CRCs not checked).
func pngChunks(_ png: [UInt8]) -> [PNGChunk] {
    var chunks: [PNGChunk] = []
    var i = 8
    while i + 8 <= png.count {
        let length = png[i..<i + 4].reduce(0) { $0 << 8 | Int($1) }
        let type = String(decoding: png[i + 4..<i + 8], as: UTF8.self)
        guard i + 12 + length <= png.count else { break }
        chunks.append(PNGChunk(type: type, data: Array(png[i + 8..<i + 8 + length]), offset: i))
        i += 12 + length
    }
    return chunks
}

/// IHDR's colour type byte (2 = RGB, 6 = RGBA), bit depth and interlace method.
func pngHeaderFields(_ png: [UInt8]) -> (bitDepth: UInt8, colourType: UInt8, interlace: UInt8)? {
    guard let ihdr = pngChunks(png).first, ihdr.type == "IHDR", ihdr.data.count == 13 else { return nil }
    return (ihdr.data[8], ihdr.data[9], ihdr.data[12])
}

/// The concatenated IDAT payloads of a level-0 PNG, inflated by reading zlib's stored blocks.
/// Nil when the stream holds a compressed block.
func inflateStoredIDAT(_ png: [UInt8]) -> [UInt8]? {
    let stream = pngChunks(png).filter { $0.type == "IDAT" }.flatMap(\.data)
    guard stream.count >= 2 else { return nil }
    var out: [UInt8] = []
    var i = 2 // zlib header
    while i + 5 <= stream.count {
        let header = stream[i]
        guard header & 0b110 == 0 else { return nil } // not a stored block
        let length = Int(stream[i + 1]) | Int(stream[i + 2]) << 8
        let complement = Int(stream[i + 3]) | Int(stream[i + 4]) << 8
        guard length ^ complement == 0xFFFF, i + 5 + length <= stream.count else { return nil }
        out += stream[i + 5..<i + 5 + length]
        i += 5 + length
        if header & 1 == 1 { return out }
    }
    return nil
}

