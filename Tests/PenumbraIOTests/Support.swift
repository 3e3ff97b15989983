// Fixture access for PenumbraIOTests: the encoded files and the pixels the
// libraries' own tools decoded them to (RGBA PAM, straight alpha), made by
// make_fixtures.py.
import Foundation
import XCTest
import Penumbra

enum Fixtures {
    static func bytes(_ name: String) throws -> [UInt8] {
        let url = try XCTUnwrap(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"), name)
        return [UInt8](try Data(contentsOf: url))
    }

    /// The expected pixels of `name` (its `.pam`), premultiplied like a decoded Bitmap.
    static func expected(_ name: String) throws -> Bitmap {
        let data = try bytes(name + ".pam")
        let end = try XCTUnwrap(findEndHeader(data))
        let header = String(decoding: data[..<end], as: UTF8.self)
        var width = 0, height = 0
        for line in header.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.first == "WIDTH" { width = Int(parts[1])! }
            if parts.first == "HEIGHT" { height = Int(parts[1])! }
        }
        var pixels = Array(data[(end + "ENDHDR\n".utf8.count)...])
        XCTAssertEqual(pixels.count, width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) where pixels[i + 3] != 255 {
            for k in 0..<3 { pixels[i + k] = premultiply(pixels[i + k], alpha: pixels[i + 3]) }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    private static func findEndHeader(_ d: [UInt8]) -> Int? {
        let marker = Array("ENDHDR\n".utf8)
        guard d.count >= marker.count else { return nil }
        for i in 0...(d.count - marker.count) where Array(d[i..<(i + marker.count)]) == marker { return i }
        return nil
    }

    /// The largest difference of any channel between two bitmaps of one size.
    static func maxDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        guard a.width == b.width, a.height == b.height else { return Int.max }
        return zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }
}
