// Blur: the CPU's Gaussian blur of a shadow's alpha plane, in integers
// (docs/ARITHMETIC.md, "Gaussian blur"). SCENE_FORMAT.md, Shadows: "a
// horizontal then a vertical pass of a kernel with radius `ceil(3 * sigma)`
// pixels"; values outside the plane are 0, and the output plane has the
// input's size (the caller leaves a margin of `radius` pixels).
//
// With W the kernel's integer weights (summing to 2^16) and a the U8 plane:
//     horizontal:  h = sum W[i] a[x + i - r],   h16 = (h + 2^7) >> 8   (<= 65_280)
//     vertical:    v = sum W[i] h16[y + i - r], out = (v + 2^23) >> 24  (U8)
// Every sum fits 32 bits unsigned, integer sums do not depend on their order,
// and blur.frag computes the same: the planes are identical whatever the
// threads, the SIMD width or the GPU.
//
// Speed (GaussianKernel.blurPlane, FilterEvaluator+Alpha.swift, which shadows
// reach through the filter graph): skipping zero samples changes no sum, so
// a scan finds the content's bounding box, and only that box grown by the
// radius (within the plane) is blurred: outside it the input is 0 and so is
// the output. The box is blurred by the interleaved blur with one channel (RGBABlur.swift, the filters'
// RGBA blur: 16-bit pair multiply-adds, a ring of rows per thread, bands of
// rows on the thread budget), whose window reads values outside itself as 0,
// as the plane's edge rule does.
//
// Complexity: O(width * height) to scan, plus about r + 1 pair multiply-adds
// per pass for each value of the grown box. Memory: per thread, a ring of
// r + 2 row pairs and one padded row.

import PenumbraModel
import PenumbraCore

extension AlphaPlane {
    /// A copy of the plane blurred with `kernel`: horizontal pass, then vertical pass,
    /// samples outside the plane read as 0, same size as the input.
    ///
    /// - Parameter threads: how many threads may share the work; `nil` takes the project's
    ///   thread budget for large jobs and 1 otherwise. The output is identical for every thread
    ///   count.
    package func blurred(with kernel: GaussianKernel, threads: Int? = nil) -> AlphaPlane {
        var copy = self
        copy.blur(with: kernel, threads: threads)
        return copy
    }

    /// Blurs the plane in place with `kernel` (see ``blurred(with:threads:)``).
    package mutating func blur(with kernel: GaussianKernel, threads: Int? = nil) {
        let (width, height) = (self.width, self.height)
        values.withUnsafeMutableBufferPointer { kernel.blurPlane($0.baseAddress!, width: width, height: height, threads: threads) }
    }
}
