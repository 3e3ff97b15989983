// ShaperPieceTests: how the shaper cuts a run into bounded pieces (Shaper.swift):
// never inside real text, only where one cluster runs past 64 scalars.
import XCTest
@testable import PenumbraText

final class ShaperPieceTests: XCTestCase {
    func testShapingPiecesCutOnlyOverlongClusters() {
        let plain = Array("Hello, wörld".unicodeScalars)
        XCTAssertEqual(Shaper.pieces(of: plain), [0..<plain.count])
        let marks = Array(("a" + String(repeating: "\u{0301}", count: 200)).unicodeScalars)
        let cuts = Shaper.pieces(of: marks)
        XCTAssertEqual(cuts.first, 0..<64)
        XCTAssertEqual(cuts.map(\.count).reduce(0, +), marks.count)
        XCTAssertTrue(cuts.allSatisfy { $0.count <= 64 })
    }
}
