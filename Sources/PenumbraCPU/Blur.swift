// Blur: the CPU's separable Gaussian blur of a shadow's alpha plane, in
// integers (docs/ARITHMETIC.md, "Gaussian blur"). SCENE_FORMAT.md, Shadows: "a
// horizontal then a vertical pass of a kernel with radius `ceil(3 * sigma)`
// pixels"; values outside the plane are 0, and the output plane has the
// input's size (the caller leaves a margin of `radius` pixels).
//
// With W the kernel's integer weights (summing to 2^16) and a the U8 plane:
//     horizontal:  h = sum W[i] a[x + i - r],   h16 = (h + 2^7) >> 8   (<= 65_280)
//     vertical:    v = sum W[i] h16[y + i - r], out = (v + 2^23) >> 24  (U8)
// Every sum fits 32 bits unsigned (v <= 65_280 x 2^16 < 2^32), integer sums do
// not depend on their order, and blur.frag computes the same: the planes are
// identical whatever the threads, the SIMD width or the GPU.
//
// Speed: skipping zero samples changes no sum, so a scan finds each row's
// non-zero extent and only the content's bounding box grown by the radius is
// computed; the rest of the plane stays 0. The horizontal pass widens each
// non-empty row into a zero-padded UInt32 buffer so its inner loop has no
// bounds; the vertical pass reads whole rows (never columns) and clips its taps
// to the content rows. Both are register-blocked: 32 outputs at a time in SIMD
// accumulators, one load and one multiply-add per tap. The vertical pass works
// in column strips sized so that the 2r + 1 rows it reads stay in cache, and
// the intermediate plane's rows are padded to an odd number of cache lines so
// that those rows do not collide in one cache set. Rows are shared between at
// most 2 threads.
//
// Complexity: O(width * height) to scan, plus (2r + 1) multiply-adds for each
// pixel of the content's bounding box grown by r, in each pass. Memory: one
// UInt32 scratch plane, and a padded row (width + 2r values) per thread.

import Dispatch
import Foundation
import PenumbraCore

extension AlphaPlane {
    /// A copy of the plane blurred with `kernel`: horizontal pass, then vertical pass,
    /// samples outside the plane read as 0, same size as the input.
    ///
    /// - Parameter threads: how many threads may share the work; `nil` picks 2 for large
    ///   jobs (when the machine has 2 cores or more) and 1 otherwise. The output is identical
    ///   for every thread count.
    public func blurred(with kernel: GaussianKernel, threads: Int? = nil) -> AlphaPlane {
        var copy = self
        copy.blur(with: kernel, threads: threads)
        return copy
    }

    /// Blurs the plane in place with `kernel` (see ``blurred(with:threads:)``).
    public mutating func blur(with kernel: GaussianKernel, threads: Int? = nil) {
        var scratch: [UInt32] = []
        blur(with: kernel, scratch: &scratch, threads: threads)
    }

    /// Blurs the plane in place with `kernel`, using `scratch` for the intermediate plane
    /// (grown to a little more than `width * height` when smaller; its contents on entry and exit are
    /// unspecified). Reusing one scratch across shadows avoids an allocation per blur.
    public mutating func blur(with kernel: GaussianKernel, scratch: inout [UInt32], threads: Int? = nil) {
        blur(with: kernel, scratch: &scratch, threads: threads, cancellation: nil)
    }

    /// The blur, stopping early (the plane's values then unspecified) once `cancellation` is set.
    mutating func blur(with kernel: GaussianKernel, scratch: inout [UInt32], threads: Int? = nil,
                       cancellation: RenderCancellation?) {
        let radius = kernel.radius
        guard radius > 0, width > 0, height > 0 else { return }
        let middleStride = SeparableBlur.middleStride(width: width)
        let count = middleStride * height
        if scratch.count < count { scratch = [UInt32](repeating: 0, count: count) }
        let threadCount = SeparableBlur.threadCount(
            requested: threads, width: width, height: height, radius: radius)
        let (width, height) = (self.width, self.height)
        values.withUnsafeMutableBufferPointer { plane in
            scratch.withUnsafeMutableBufferPointer { middle in
                kernel.weights.withUnsafeBufferPointer { weights in
                    SeparableBlur(
                        width: width, height: height, radius: radius, weights: weights.baseAddress!,
                        plane: plane.baseAddress!, middle: middle.baseAddress!, middleStride: middleStride,
                        threads: threadCount, cancellation: cancellation
                    ).run()
                }
            }
        }
    }
}

/// The two passes over raw pointers. `plane` is both the input of the horizontal pass and
/// the output of the vertical one; `middle` holds the horizontal pass's h16 values, written
/// (and read) only over the content's bounding box grown by the radius.
struct SeparableBlur {
    let width: Int, height: Int, radius: Int
    let weights: UnsafePointer<UInt32>
    let plane: UnsafeMutablePointer<UInt8>
    let middle: UnsafeMutablePointer<UInt32>
    /// Values from one `middle` row to the next (see ``middleStride(width:)``).
    let middleStride: Int
    let threads: Int
    /// Looked at once per block of rows and per strip; once set, the passes stop early.
    var cancellation: RenderCancellation? = nil

    /// Rows per block when threads interleave rows (keeps threads off each other's cache lines).
    static let rowBlock = 16
    /// Work (multiply-adds) below which a second thread is not worth waking.
    static let parallelThreshold = 1 << 22
    /// Columns per vertical-pass strip: narrow enough that the 2r + 1 rows a strip reads stay in
    /// cache, and that a strip's rows follow the content's shape closely.
    static let stripWidth = 64

    /// The row stride of the intermediate plane: `width` rounded up to whole 64-byte cache
    /// lines, and to an odd number of them, so that the 2r + 1 rows the vertical pass reads do
    /// not all fall in one L1 cache set.
    static func middleStride(width: Int) -> Int {
        let lines = (width + 15) / 16
        return (lines | 1) * 16
    }

    /// The thread count for a job: the request clamped to the number of row blocks, or
    /// automatically 2 for large jobs on a machine with 2 or more cores.
    static func threadCount(requested: Int?, width: Int, height: Int, radius: Int) -> Int {
        let rowBlocks = (height + rowBlock - 1) / rowBlock
        if let requested { return max(1, min(requested, rowBlocks)) }
        let work = width * height * (2 * radius + 1)
        return work >= parallelThreshold ? min(Parallelism.maxThreads, 2, rowBlocks) : 1
    }

    func run() {
        // 1. Each input row's non-zero extent (first > last: an empty row).
        var first = [Int](repeating: 0, count: height), last = [Int](repeating: -1, count: height)
        first.withUnsafeMutableBufferPointer { first in
            last.withUnsafeMutableBufferPointer { last in
                parallel { thread in
                    forEachInterleavedRow(0..<height, thread: thread) { y in
                        (first[y], last[y]) = nonZeroExtent(of: plane + y * width)
                    }
                }
            }
        }
        var rowMin = height, rowMax = -1, columnMin = width, columnMax = -1
        for y in 0..<height where first[y] <= last[y] {
            rowMin = min(rowMin, y); rowMax = y
            columnMin = min(columnMin, first[y]); columnMax = max(columnMax, last[y])
        }
        guard rowMax >= 0, cancellation?.isCancelled != true else { return }  // all zero: the plane is its own blur
        let columns = max(0, columnMin - radius)...min(width - 1, columnMax + radius)

        // 2. Horizontal pass over the content rows, into `middle` (zeros outside each row's extent).
        first.withUnsafeBufferPointer { first in
            last.withUnsafeBufferPointer { last in
                parallel { thread in
                    let padded = UnsafeMutablePointer<UInt32>.allocate(capacity: width + 2 * radius)
                    defer { padded.deallocate() }
                    forEachInterleavedRow(rowMin..<(rowMax + 1), thread: thread) { y in
                        horizontalRow(y, extent: first[y]...max(first[y], last[y]),
                                      isEmpty: first[y] > last[y], columns: columns, padded: padded)
                    }
                }
            }
        }

        if cancellation?.isCancelled == true { return }
        // 3. Vertical pass, in column strips (outside the content rows grown by the radius the
        // output is zero, which the in-place plane already holds).
        let strips = verticalStrips(columns: columns, contentRows: rowMin...rowMax, first: first, last: last)
        let outFirst = max(0, rowMin - radius), outLast = min(height - 1, rowMax + radius)
        let rows = outLast - outFirst + 1
        parallel { thread in
            let chunk = (outFirst + rows * thread / threads)..<(outFirst + rows * (thread + 1) / threads)
            verticalRows(chunk, strips: strips)
        }
    }

    /// The vertical pass's column strips over `columns`, each with the rows of `middle` that may
    /// be non-zero in it (nil: none).
    private func verticalStrips(columns: ClosedRange<Int>, contentRows: ClosedRange<Int>,
                                first: [Int], last: [Int]) -> [(columns: ClosedRange<Int>, rows: ClosedRange<Int>?)] {
        var strips: [(columns: ClosedRange<Int>, rows: ClosedRange<Int>?)] = []
        var start = columns.lowerBound
        while start <= columns.upperBound {
            let end = min(columns.upperBound, start + SeparableBlur.stripWidth - 1)
            var top = Int.max, bottom = Int.min
            for y in contentRows where first[y] <= last[y] && first[y] - radius <= end && last[y] + radius >= start {
                top = min(top, y); bottom = y
            }
            strips.append((start...end, top <= bottom ? top...bottom : nil))
            start = end + 1
        }
        return strips
    }

    /// Runs `body(thread)` for each thread index, concurrently when there are several.
    private func parallel(_ body: (Int) -> Void) {
        if threads <= 1 { body(0); return }
        withoutActuallyEscaping(body) { body in
            // Each thread writes its own rows or strips, and all finish before this returns.
            let work = DisjointWrites(body)
            DispatchQueue.concurrentPerform(iterations: threads) { work.value($0) }
        }
    }

    /// The rows of `range` that `thread` takes: blocks of `rowBlock` rows, dealt round-robin.
    private func forEachInterleavedRow(_ range: Range<Int>, thread: Int, _ body: (Int) -> Void) {
        let block = SeparableBlur.rowBlock
        var start = range.lowerBound + thread * block
        while start < range.upperBound {
            if cancellation?.isCancelled == true { return }
            for row in start..<min(start + block, range.upperBound) { body(row) }
            start += threads * block
        }
    }

    /// The first and last non-zero value of a row (first > last when it has none).
    private func nonZeroExtent(of row: UnsafePointer<UInt8>) -> (Int, Int) {
        var first = 0
        while first + 16 <= width && UnsafeRawPointer(row + first).loadUnaligned(as: SIMD16<UInt8>.self) == .zero { first += 16 }
        while first < width && row[first] == 0 { first += 1 }
        guard first < width else { return (0, -1) }
        var last = width - 1
        while last - 15 > first && UnsafeRawPointer(row + (last - 15)).loadUnaligned(as: SIMD16<UInt8>.self) == .zero {
            last -= 16
        }
        while row[last] == 0 { last -= 1 }
        return (first, last)
    }

    /// Horizontal pass for content row `y`: writes `middle` row `y` over `columns`.
    private func horizontalRow(
        _ y: Int, extent: ClosedRange<Int>, isEmpty: Bool, columns: ClosedRange<Int>,
        padded: UnsafeMutablePointer<UInt32>
    ) {
        let destination = middle + y * middleStride
        guard !isEmpty else {
            destination.advanced(by: columns.lowerBound).initialize(repeating: 0, count: columns.count)
            return
        }
        let outFirst = max(0, extent.lowerBound - radius), outLast = min(width - 1, extent.upperBound + radius)
        // padded[radius + x] is input x; the taps of outputs outFirst...outLast read padded indices
        // outFirst...outLast + 2 radius, which are zero except for the extent.
        let window = (outFirst)...(outLast + 2 * radius)
        padded.advanced(by: window.lowerBound).initialize(repeating: 0, count: window.count)
        let source = plane + y * width
        for x in extent { padded[radius + x] = UInt32(source[x]) }
        weightedSums(into: destination + outFirst, count: outLast - outFirst + 1,
                     source: padded + outFirst, stride: 1, weights: weights, taps: 2 * radius + 1) { sums in
            (sums &+ 128) &>> 8
        }
        destination.advanced(by: columns.lowerBound)
            .initialize(repeating: 0, count: outFirst - columns.lowerBound)
        destination.advanced(by: outLast + 1).initialize(repeating: 0, count: columns.upperBound - outLast)
    }

    /// Vertical pass for output rows `rows`: in each strip, output row y reads `middle` rows
    /// y - radius ... y + radius clipped to the strip's rows (the others are zero there).
    private func verticalRows(_ rows: Range<Int>, strips: [(columns: ClosedRange<Int>, rows: ClosedRange<Int>?)]) {
        let count = SeparableBlur.stripWidth
        let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        defer { sums.deallocate() }
        for strip in strips {
            if cancellation?.isCancelled == true { return }
            guard let content = strip.rows else { continue }
            let lo = max(rows.lowerBound, content.lowerBound - radius)
            let hi = min(rows.upperBound - 1, content.upperBound + radius)
            guard lo <= hi else { continue }
            let stripStart = strip.columns.lowerBound, n = strip.columns.count
            for y in lo...hi {
                let top = max(content.lowerBound, y - radius), bottom = min(content.upperBound, y + radius)
                weightedSums(into: sums, count: n, source: middle + top * middleStride + stripStart,
                             stride: middleStride, weights: weights + (top - y + radius), taps: bottom - top + 1) { v in
                    (v &+ (1 << 23)) &>> 24
                }
                let out = plane + y * width + stripStart
                for x in 0..<n { out[x] = UInt8(truncatingIfNeeded: sums[x]) }
            }
        }
    }
}

/// `output[x] = finish(sum over t in 0..<taps of weights[t] * source[x + t * stride])` for x in
/// `0..<count`, in wrapping UInt32 arithmetic (the sums fit by construction). Thirty-two outputs
/// at a time in SIMD registers, then sixteen, then one at a time.
@inline(__always)
private func weightedSums(
    into output: UnsafeMutablePointer<UInt32>, count: Int, source: UnsafePointer<UInt32>,
    stride: Int, weights: UnsafePointer<UInt32>, taps: Int, _ finish: (SIMD16<UInt32>) -> SIMD16<UInt32>
) {
    var x = 0
    while x + 32 <= count {
        var low = SIMD16<UInt32>(), high = SIMD16<UInt32>()
        var sample = source + x
        for t in 0..<taps {
            let weight = SIMD16(repeating: weights[t])
            low = low &+ weight &* loadBlock(sample)
            high = high &+ weight &* loadBlock(sample + 16)
            sample += stride
        }
        UnsafeMutableRawPointer(output + x).storeBytes(of: finish(low), as: SIMD16<UInt32>.self)
        UnsafeMutableRawPointer(output + x + 16).storeBytes(of: finish(high), as: SIMD16<UInt32>.self)
        x += 32
    }
    while x + 16 <= count {
        var sum = SIMD16<UInt32>()
        var sample = source + x
        for t in 0..<taps {
            sum = sum &+ SIMD16(repeating: weights[t]) &* loadBlock(sample)
            sample += stride
        }
        UnsafeMutableRawPointer(output + x).storeBytes(of: finish(sum), as: SIMD16<UInt32>.self)
        x += 16
    }
    while x < count {
        var sum: UInt32 = 0
        var sample = source + x
        for t in 0..<taps {
            sum = sum &+ weights[t] &* sample.pointee
            sample += stride
        }
        output[x] = finish(SIMD16(repeating: sum))[0]
        x += 1
    }
}

/// Sixteen consecutive values, any alignment.
@inline(__always)
private func loadBlock(_ pointer: UnsafePointer<UInt32>) -> SIMD16<UInt32> {
    UnsafeRawPointer(pointer).loadUnaligned(as: SIMD16<UInt32>.self)
}
