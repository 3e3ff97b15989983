// VectorCode: which code runs a kernel that exists twice, as portable Swift
// (128-bit vectors: SSE2 on x86-64) and as 256-bit C compiled for AVX2 inside
// a baseline object (CBlurKernels, CSampleKernels). The package is built for
// baseline x86-64 so one binary runs on every server; the AVX2 code runs only
// where the CPU and its OS support it, decided once per process. Both codes
// give the same bytes; an environment variable per kernel selects the
// portable one, to time both paths in one binary.
import PenumbraModel
import PenumbraCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if arch(x86_64)
import CBlurKernels
#endif

/// Which code runs a kernel that has a portable and an AVX2 form. The bytes are the same either way.
package enum VectorCode: Sendable, CaseIterable {
    /// The Swift code, on every CPU.
    case portable
    /// The 256-bit C code, where ``isSupported`` (x86-64 with AVX2).
    case avx2

    /// Whether this CPU runs the code.
    package var isSupported: Bool { self == .portable || VectorCode.cpuHasAVX2 }

    /// The fastest code this CPU runs, unless the environment variable `variable` is `portable`.
    package static func fastest(unless variable: String) -> VectorCode {
        if let choice = getenv(variable), String(cString: choice) == "portable" { return .portable }
        return cpuHasAVX2 ? .avx2 : .portable
    }

    /// Whether this CPU (and its OS) runs AVX2 code, decided once per process.
    private static let cpuHasAVX2: Bool = {
        #if arch(x86_64)
        penumbra_blur_has_avx2() != 0
        #else
        false
        #endif
    }()
}
