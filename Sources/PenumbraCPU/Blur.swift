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
// Speed: skipping zero samples changes no sum, so a scan finds the content's
// bounding box, and only that box grown by the radius (within the plane) is
// blurred: outside it the input is 0 and so is the output. The box is blurred
// by Core's interleaved blur with one channel (RGBABlur.swift, the filters'
// RGBA blur: 16-bit pair multiply-adds, a ring of rows per thread, bands of
// rows on the thread budget), whose window reads values outside itself as 0,
// as the plane's edge rule does.
//
// Complexity: O(width * height) to scan, plus about r + 1 pair multiply-adds
// per pass for each value of the grown box. Memory: per thread, a ring of
// r + 2 row pairs and one padded row.

import PenumbraCore

extension AlphaPlane {
    /// A copy of the plane blurred with `kernel`: horizontal pass, then vertical pass,
    /// samples outside the plane read as 0, same size as the input.
    ///
    /// - Parameter threads: how many threads may share the work; `nil` takes the project's
    ///   thread budget for large jobs and 1 otherwise. The output is identical for every thread
    ///   count.
    public func blurred(with kernel: GaussianKernel, threads: Int? = nil) -> AlphaPlane {
        var copy = self
        copy.blur(with: kernel, threads: threads)
        return copy
    }

    /// Blurs the plane in place with `kernel` (see ``blurred(with:threads:)``).
    public mutating func blur(with kernel: GaussianKernel, threads: Int? = nil) {
        blur(with: kernel, threads: threads, cancellation: nil)
    }

    /// The blur, not started (the plane then unchanged) once `cancellation` is set.
    mutating func blur(with kernel: GaussianKernel, threads: Int? = nil, cancellation: RenderCancellation?) {
        let radius = kernel.radius, (width, height) = (self.width, self.height)
        guard radius > 0, width > 0, height > 0 else { return }
        values.withUnsafeMutableBufferPointer { plane in
            let base = plane.baseAddress!
            // All zero: the plane is its own blur.
            guard let box = AlphaPlane.contentBounds(base, width: width, height: height),
                  cancellation?.isCancelled != true else { return }
            let x0 = max(0, box.x - radius), x1 = min(width - 1, box.x + box.width - 1 + radius)
            let y0 = max(0, box.y - radius), y1 = min(height - 1, box.y + box.height - 1 + radius)
            kernel.blurInterleaved(base + y0 * width + x0, rowStride: width, width: x1 - x0 + 1, height: y1 - y0 + 1,
                                   channels: 1, threads: threads)
        }
    }

    /// The smallest rectangle holding every non-zero value, nil when there is none.
    private static func contentBounds(_ plane: UnsafePointer<UInt8>, width: Int, height: Int) -> PixelRect? {
        var rowMin = height, rowMax = -1, columnMin = width, columnMax = -1
        for y in 0..<height {
            let row = plane + y * width
            var first = 0
            while first + 16 <= width && UnsafeRawPointer(row + first).loadUnaligned(as: SIMD16<UInt8>.self) == .zero { first += 16 }
            while first < width && row[first] == 0 { first += 1 }
            guard first < width else { continue }
            var last = width - 1
            while last - 15 > first && UnsafeRawPointer(row + (last - 15)).loadUnaligned(as: SIMD16<UInt8>.self) == .zero {
                last -= 16
            }
            while row[last] == 0 { last -= 1 }
            if rowMax < 0 { rowMin = y }
            rowMax = y
            columnMin = min(columnMin, first); columnMax = max(columnMax, last)
        }
        guard rowMax >= 0 else { return nil }
        return PixelRect(x: columnMin, y: rowMin, width: columnMax - columnMin + 1, height: rowMax - rowMin + 1)
    }
}
