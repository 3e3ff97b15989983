import Foundation
import PenumbraModel
import PenumbraCore
import PenumbraCPU
import XCTest

/// Whether AVX2 kernels can be compared with their Swift forms on this CPU. Where they cannot
/// (any non-x86 CPU) it checks instead that `dispatch` picked the Swift form; on x86-64 under
/// CI=true a CPU without AVX2 fails the test, so no kernel goes untested there.
func avx2Runs(_ dispatch: VectorCode, file: StaticString = #filePath, line: UInt = #line) -> Bool {
    if VectorCode.avx2.isSupported { return true }
    XCTAssertEqual(dispatch, .portable, "without AVX2 the Swift form runs", file: file, line: line)
    #if arch(x86_64)
    if ProcessInfo.processInfo.environment["CI"] == "true" {
        XCTFail("CI=true on an x86-64 CPU without AVX2: the AVX2 kernels are untested", file: file, line: line)
    }
    #endif
    return false
}
