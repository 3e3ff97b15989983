// Normal mode's AVX2 composite of per-pixel sources (CSampleKernels,
// penumbra_composite.c) against the Swift Int32 loop and the per-pixel
// definition (`composite(source:destination:coverage:mode:)`): random bytes
// (sources valid and not premultiplied, clear and opaque), coverage per pixel
// and constant (0, 255 and between), rows of every length modulo 8.

import XCTest
import PenumbraTestSupport
import PenumbraModel
import PenumbraCore
@testable import PenumbraCPU

final class NormalRowKernelTests: XCTestCase {
    /// A source of one of the kinds the composite treats apart: clear, opaque, valid, invalid.
    private func randomSource(_ g: inout SplitMix64) -> SIMD4<UInt8> {
        func byte() -> UInt8 { UInt8(truncatingIfNeeded: g.next()) }
        let a = byte()
        switch g.next() % 5 {
        case 0: return .zero
        case 1: return SIMD4(byte(), byte(), byte(), 255)
        case 2: return SIMD4(byte(), byte(), byte(), 0)  // colour above a zero alpha
        case 3: return SIMD4(byte(), byte(), byte(), a)  // usually colour above alpha
        default: return SIMD4(premultiply(byte(), alpha: a), premultiply(byte(), alpha: a), premultiply(byte(), alpha: a), a)
        }
    }

    private func composite(_ sources: [SIMD4<UInt8>], coverage: [UInt8]?, constant: UInt8, over pixels: [UInt8],
                           _ code: VectorCode) -> [UInt8] {
        var out = pixels
        sources.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { d in
                if let coverage {
                    coverage.withUnsafeBufferPointer { c in BlendMode.normal.blendRow(sources: s, coverage: c, destination: d, code: code) }
                } else {
                    BlendMode.normal.blendRow(sources: s, coverage: constant, destination: d, code: code)
                }
            }
        }
        return out
    }

    func testTheKernelGivesTheSwiftLoopsAndTheDefinitionsBytes() {
        guard avx2Runs(.compositeRows) else { return }
        var g = SplitMix64(seed: 0xB1E_D0_0A1)
        var checked = 0
        for trial in 0..<600 {
            let count = Int(g.next() % 70)
            let sources = (0..<count).map { _ in randomSource(&g) }
            let destination: [UInt8] = (0..<count).flatMap { _ -> [UInt8] in
                let p = randomSource(&g)
                return [p.x, p.y, p.z, p.w]
            }
            let perPixel = g.next() % 2 == 0
            let coverage: [UInt8]? = perPixel ? (0..<count).map { _ in [0, 255, UInt8(truncatingIfNeeded: g.next())][Int(g.next() % 3)] } : nil
            let constant: UInt8 = [0, 255, 1, 128, UInt8(truncatingIfNeeded: g.next())][Int(g.next() % 5)]
            let vector = composite(sources, coverage: coverage, constant: constant, over: destination, .avx2)
            let portable = composite(sources, coverage: coverage, constant: constant, over: destination, .portable)
            var mismatches: [Int] = []
            for i in 0..<count {
                let t = coverage?[i] ?? constant
                let d = SIMD4<Int32>(Int32(destination[i * 4]), Int32(destination[i * 4 + 1]), Int32(destination[i * 4 + 2]), Int32(destination[i * 4 + 3]))
                var expected = PenumbraCPU.composite(source: SIMD4<Int32>(truncatingIfNeeded: sources[i]), destination: d,
                                                     coverage: Int32(t), mode: .normal)
                if sources[i].w == 0 { expected = d }  // normal mode leaves the destination where the source is clear
                let got = SIMD4<Int32>(Int32(vector[i * 4]), Int32(vector[i * 4 + 1]), Int32(vector[i * 4 + 2]), Int32(vector[i * 4 + 3]))
                if got != expected { mismatches.append(i) }
                checked += 1
            }
            XCTAssert(mismatches.isEmpty, "trial \(trial): \(count) pixels, \(perPixel ? "per-pixel" : "constant \(constant)") coverage: pixels \(mismatches.prefix(8)) differ from the definition")
            XCTAssert(vector == portable, "trial \(trial): the kernel and the Swift loop differ")
        }
        XCTAssertGreaterThan(checked, 15_000)
    }

    /// The kernel's shortcuts are exact: a fully covered opaque source is stored as it is, and
    /// zero coverage or a clear source leaves the destination, even a colour above a zero alpha.
    func testOpaqueClearAndUncoveredPixels() {
        guard avx2Runs(.compositeRows) else { return }
        let opaque = [SIMD4<UInt8>](repeating: SIMD4(10, 200, 30, 255), count: 8)
        let invalidClear = [SIMD4<UInt8>](repeating: SIMD4(90, 90, 90, 0), count: 8)
        let destination = [UInt8]((0..<8).flatMap { i in [UInt8(i * 20), 100, 50, 200] })
        XCTAssertEqual(composite(opaque, coverage: nil, constant: 255, over: destination, .avx2),
                       [UInt8]((0..<8).flatMap { _ in [10, 200, 30, 255] as [UInt8] }))
        XCTAssertEqual(composite(opaque, coverage: nil, constant: 0, over: destination, .avx2), destination)
        XCTAssertEqual(composite(invalidClear, coverage: nil, constant: 255, over: destination, .avx2), destination)
    }
}
