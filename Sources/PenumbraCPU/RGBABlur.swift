// RGBABlur: the Gaussian blur of a premultiplied RGBA8 image in one
// horizontal and one vertical pass over the interleaved bytes, for the
// filters (gaussianBlur, unsharpMask) and blurBackdrop; with one channel, the
// same code blurs the shadow's alpha plane (PenumbraCPU's Blur.swift, over
// the content's bounding box grown by the radius). Each channel gets exactly
// the plane blur of docs/ARITHMETIC.md, "Gaussian blur":
//     h = sum W[i] a[x + i - r],    h16 = (h + 2^7) >> 8
//     v = sum W[i] h16[y + i - r],  out = (v + 2^23) >> 24
// with samples outside the window 0. Interleaving only changes where a sample
// sits (a channel's horizontal taps are `channels` bytes apart; the vertical
// pass treats a row as channels x width independent columns), and integer
// sums do not depend on their order, so the bytes equal blurring each channel
// plane on its own (RGBABlurTests and BlurTests check this against the
// tap-by-tap reference).
//
// Speed. Every product is a 16-bit pair multiply-add, a[0] b[0] + a[1] b[1]
// into 32 bits (pmaddwd on x86-64, baseline SSE2, which has no 32-bit
// multiply; plain SIMD arithmetic elsewhere): four lanes and two taps per
// instruction. The factors must fit Int16:
// - horizontally, the kernel is symmetric, so the two samples of a tap pair
//   are added first (at most 510), and tap pairs i and i + 1 are interleaved
//   lane by lane against their weights (off the centre a weight is below
//   2^16 / 3); the centre is paired with itself, its weight split in halves;
// - vertically, two horizontal rows are stored interleaved in one "pair row"
//   and h16 is stored biased, h16 - 2^15 (Int16); as the weights sum to 2^16,
//   the biased total is v - 2^31, exact in wrapping 32-bit arithmetic
//   (VerticalTaps has the weight pairs for both row parities).
// A kernel whose off-centre weights all round to 0 is the identity and
// returns early.
//
// 256-bit vectors. The package is compiled for baseline x86-64, so the Swift
// row functions run 128 bits at a time. Where the CPU has AVX2 (checked once
// per process, ``VectorCode/rgbaBlur``) the two row functions run instead
// in CBlurKernels (penumbra_blur.c): the same multiply-adds of the same
// factors, 16 lanes per instruction, so the same bytes; and it computes two
// output rows per sweep over the ring (rows 2j and 2j + 1 of a band read the
// same pair rows), which halves the vertical pass's reads. The Swift functions
// stay the path of every other CPU; tests run both (the `rowCode` parameter)
// and compare them byte for byte.
//
// Memory: per thread, a ring of r + 2 pair rows (for sigma 10 and 1024 RGBA
// pixels, 32 x 16 KiB: within L2), each output row computed as soon as its
// rows are in the ring, so the intermediate image never exists whole. A
// thread takes one band of output rows and computes the r horizontal rows on
// each side of it itself (the neighbours' input rows read from a copy taken
// first, as the neighbours overwrite them). No per-pixel branches: rows are
// widened into a zero-padded UInt16 row so taps never test bounds, blocks of
// 16 lanes run to the row's end (ring and padded rows are long enough), and
// only an output row's last partial block is stored byte by byte.
import PenumbraModel
import PenumbraCore

import Dispatch
#if arch(x86_64)
import _Builtin_intrinsics.intel
import CBlurKernels
#endif

extension VectorCode {
    /// The code of the RGBA blur's two row functions (CBlurKernels' for AVX2), decided once per
    /// process; `PENUMBRA_RGBA_BLUR=portable` picks the Swift functions.
    package static let rgbaBlur = fastest(unless: "PENUMBRA_RGBA_BLUR")
}

extension GaussianKernel {
    /// True when the kernel changes no value: radius 0, or every off-centre weight rounded to 0
    /// (the centre is then 2^16 and both passes return their input exactly).
    var isIdentity: Bool { radius == 0 || weights[radius] == GaussianKernel.weightSum }

    /// Blurs premultiplied RGBA8 pixels (`width * height * 4` bytes, rows without padding) in
    /// place: each channel exactly as the reference blur (Tests/PenumbraCPUTests/ReferencePlaneBlur.swift) blurs a plane.
    ///
    /// - Parameter threads: how many threads may share the rows; `nil` takes the project's
    ///   budget (`Parallelism.maxThreads`) for large images and 1 for small ones. The bytes do
    ///   not depend on it.
    package func blurRGBA(_ pixels: inout [UInt8], width: Int, height: Int, threads: Int? = nil) {
        blurRGBA(&pixels, width: width, height: height, threads: threads, rowCode: .rgbaBlur)
    }

    /// ``blurRGBA(_:width:height:threads:)`` with the row functions of `rowCode` (which the CPU
    /// must support): the tests' way to run each path.
    package func blurRGBA(_ pixels: inout [UInt8], width: Int, height: Int, threads: Int?, rowCode: VectorCode) {
        precondition(pixels.count == width * height * 4, "pixel count does not match the size")
        guard width > 0, height > 0 else { return }
        pixels.withUnsafeMutableBufferPointer { buffer in
            blurInterleaved(buffer.baseAddress!, rowStride: 4 * width, width: width, height: height,
                            channels: 4, threads: threads, rowCode: rowCode)
        }
    }

    /// Blurs, in place, a window of `width` x `height` pixels of `channels` interleaved U8 values
    /// each, rows `rowStride` bytes apart from `image`: each channel as
    /// the reference blur (Tests/PenumbraCPUTests/ReferencePlaneBlur.swift) blurs a plane, values outside the window 0. The bytes do
    /// not depend on `threads` (`nil`: the thread budget for large windows, else 1) nor on
    /// `rowCode` (which the CPU must support).
    package func blurInterleaved(_ image: UnsafeMutablePointer<UInt8>, rowStride: Int, width: Int, height: Int,
                                 channels: Int, threads: Int? = nil, rowCode: VectorCode = .rgbaBlur) {
        precondition(rowCode.isSupported, "this CPU does not run the \(rowCode) row functions")
        guard !isIdentity, width > 0, height > 0 else { return }
        let lanes = channels * width
        let work = lanes * height * (2 * radius + 1)
        let bands = max(1, min(threads ?? (work >= RGBABlurPasses.parallelThreshold ? Parallelism.maxThreads : 1),
                               height / max(1, 2 * radius), height))
        let (half, rest) = (Int16(weights[radius] / 2), Int16(weights[radius] - weights[radius] / 2))
        let vertical = VerticalTaps(weights)
        defer { vertical.deallocate() }
        let horizontalPairs = stride(from: radius + 1, through: 2 * radius, by: 2).map { i -> SIMD8<Int16> in
            let (a, b) = (Int16(weights[i]), i + 1 <= 2 * radius ? Int16(weights[i + 1]) : 0)
            return SIMD8(a, b, a, b, a, b, a, b)
        }
        horizontalPairs.withUnsafeBufferPointer { horizontalPairs in
            let passes = RGBABlurPasses(width: width, height: height, radius: radius, channels: channels,
                                        rowStride: rowStride, centrePair: SIMD8(half, rest, half, rest, half, rest, half, rest),
                                        horizontalPairs: horizontalPairs.baseAddress!, vertical: vertical, pixels: image,
                                        rowCode: rowCode, cancellation: RenderCancellation.current)
            if bands == 1 { passes.run(rows: 0..<height) { UnsafePointer(image + $0 * rowStride) }; return }
            // A band reads the r input rows on each side of it, which its neighbours overwrite:
            // those rows (r on each side of every boundary) are copied first, and each band
            // reads rows outside its own from the copy.
            let bounds = (0...bands).map { height * $0 / bands }
            var halo = [UInt8](repeating: 0, count: (bands - 1) * 2 * radius * lanes)
            halo.withUnsafeMutableBufferPointer { halo in
                for b in 1..<bands {
                    for (i, y) in (bounds[b] - radius..<bounds[b] + radius).enumerated() where y >= 0 && y < height {
                        (halo.baseAddress! + ((b - 1) * 2 * radius + i) * lanes).update(from: image + y * rowStride, count: lanes)
                    }
                }
                let shared = DisjointWrites((passes, UnsafePointer(halo.baseAddress!), image))
                // Each band writes only its own output rows and reads other bands' rows from the copy.
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    let (passes, halo, image) = shared.value
                    let lo = bounds[band], hi = bounds[band + 1]
                    passes.run(rows: lo..<hi) { y in
                        if y < lo { return halo + ((band - 1) * 2 * radius + y - lo + radius) * lanes }
                        if y >= hi { return halo + (band * 2 * radius + y - hi + radius) * lanes }
                        return UnsafePointer(image + y * rowStride)
                    }
                }
            }
        }
    }

    /// ``blurRGBA(_:width:height:threads:)`` on a bitmap's pixels.
    package func blurRGBA(_ bitmap: inout Bitmap, threads: Int? = nil) {
        let (width, height) = (bitmap.width, bitmap.height)
        blurRGBA(&bitmap.pixels, width: width, height: height, threads: threads)
    }
}

/// The two passes over raw pointers for one band of output rows.
struct RGBABlurPasses {
    /// Pixels per row, rows, the kernel's radius, and values per pixel (4 for RGBA, 1 for a plane).
    let width: Int, height: Int, radius: Int, channels: Int
    /// Bytes from one image row to the next.
    let rowStride: Int
    /// The centre weight in two halves below 2^15, over 4 lanes (the horizontal pass pairs the
    /// centre sample with itself).
    let centrePair: SIMD8<Int16>
    /// The horizontal pass's off-centre weights two at a time: (W[r + i], W[r + i + 1]) for
    /// i = 1, 3, 5, ..., over 4 lanes (W[2r + 1] = 0).
    let horizontalPairs: UnsafePointer<SIMD8<Int16>>
    /// The vertical pass's weight pairs (see ``VerticalTaps``).
    let vertical: VerticalTaps
    /// The image: read by the horizontal pass, written by the vertical one.
    let pixels: UnsafeMutablePointer<UInt8>
    /// Which code runs ``horizontalRow(_:into:padded:)`` and ``verticalRow(from:weights:into:)``.
    let rowCode: VectorCode
    /// Looked at before each row of either pass: once set, the band stops where it is (the
    /// image is then partly blurred, and the render it belongs to throws before reading it).
    let cancellation: RenderCancellation?

    /// Multiply-adds below which a second thread is not worth waking.
    static let parallelThreshold = 1 << 22

    /// Values per row (4 a pixel).
    var lanes: Int { channels * width }
    /// `lanes` rounded up to whole 16-lane blocks.
    var blockedLanes: Int { (lanes + 15) & ~15 }
    /// Values from one ring pair-row to the next: two rows of `blockedLanes`, rounded up to an odd
    /// number of 64-byte cache lines, so that the r + 1 pair rows the vertical pass reads at one
    /// column do not all fall in one L1 cache set.
    var pairStride: Int { (((2 * blockedLanes + 31) / 32) | 1) * 32 }

    /// Blurs output rows `rows` in place, reading input row y at `source(y)` (y within the image
    /// and within r rows of `rows`). Reading the band's own rows from the image is safe: output
    /// rows are written top to bottom, output row y once input rows up to y + r + 1 have been
    /// read, and input row y is first read for output row y - r - 1, before row y is written.
    func run(rows: Range<Int>, source: (Int) -> UnsafePointer<UInt8>) {
        let first = rows.lowerBound - radius  // horizontal row k is input row first + k
        let readable = max(0, first)..<min(height, rows.upperBound + radius)
        let capacity = radius + 2, stride = pairStride
        let ring = UnsafeMutablePointer<Int16>.allocate(capacity: capacity * stride)
        defer { ring.deallocate() }
        // The padded row: 4(r + 1) zeros, the row's lanes, then zeros up to the last block's last
        // tap (with r odd, the last pair's second tap is r + 1, of weight 0).
        let paddedCount = channels * (radius + 1) + blockedLanes + channels * (radius + 1)
        let padded = UnsafeMutablePointer<UInt16>.allocate(capacity: paddedCount)
        defer { padded.deallocate() }
        padded.initialize(repeating: 0, count: paddedCount)
        let pair = UnsafeMutablePointer<UInt16>.allocate(capacity: 2 * blockedLanes)
        defer { pair.deallocate() }
        // The pair rows of the output row's entries, for each parity (`count` apart).
        let count = vertical.count
        let pairRows = UnsafeMutablePointer<UnsafePointer<Int16>>.allocate(capacity: 2 * count)
        defer { pairRows.deallocate() }

        func slot(_ q: Int) -> UnsafeMutablePointer<Int16> { ring + (q % capacity) * stride }
        var filled = 0  // pair rows 0..<filled are in the ring
        func fill(through last: Int) {
            while filled <= last {
                if cancellation?.isCancelled == true { return }
                for half in 0..<2 {
                    let y = first + 2 * filled + half, row = pair + half * blockedLanes
                    if readable.contains(y) {
                        horizontalRow(source(y), into: row, padded: padded)
                    } else {
                        row.initialize(repeating: RGBABlurPasses.bias, count: blockedLanes)
                    }
                }
                interleave(pair, pair + blockedLanes, count: blockedLanes, into: slot(filled))
                filled += 1
            }
        }
        var y = rows.lowerBound
        while y < rows.upperBound {
            let k = y - rows.lowerBound  // output row y's first tap is horizontal row k
            fill(through: (k >> 1) + radius)
            if cancellation?.isCancelled == true { return }
            // With k even, rows y and y + 1 read the same pair rows (entries 0...r; only a split
            // centre's extra entry can differ): the AVX2 code computes both in one sweep. Writing
            // row y + 1 now is safe, as its input row was read into the ring for row y.
            let both = rowCode == .avx2 && k & 1 == 0 && y + 1 < rows.upperBound
            let parities = both ? 0...1 : (k & 1)...(k & 1)
            for parity in parities {
                for e in 0..<count { pairRows[parity * count + e] = UnsafePointer(slot((k >> 1) + vertical.offsets[parity][e])) }
            }
            #if arch(x86_64)
            if both {
                penumbra_blur_vertical2_avx2(pairRows, pairRows + count, int16s(vertical.weights[0]), int16s(vertical.weights[1]),
                                             radius + 1, count, pixels + y * rowStride, pixels + (y + 1) * rowStride, lanes)
                y += 2
                continue
            }
            #endif
            let parity = k & 1
            verticalRow(from: pairRows + parity * count, weights: vertical.weights[parity], into: pixels + y * rowStride)
            y += 1
        }
    }

    /// Weight pairs as the C functions take them.
    private func int16s(_ pairs: UnsafePointer<SIMD8<Int16>>) -> UnsafePointer<Int16> {
        UnsafeRawPointer(pairs).assumingMemoryBound(to: Int16.self)
    }

    /// h16 of a zero sample, as stored (h16 - 2^15, two's complement): ``bias``.
    static let bias: UInt16 = 0x8000

    /// h16 - 2^15 of one input row (`lanes` bytes) into `output` (`blockedLanes` values; those past
    /// `lanes` are unspecified), as UInt16 bit patterns of Int16.
    private func horizontalRow(_ row: UnsafePointer<UInt8>, into output: UnsafeMutablePointer<UInt16>,
                               padded: UnsafeMutablePointer<UInt16>) {
        #if arch(x86_64)
        if rowCode == .avx2 {
            withUnsafePointer(to: centrePair) { centrePair in
                penumbra_blur_horizontal_avx2(row, output, padded, lanes, channels, radius,
                                              UnsafeRawPointer(centrePair).assumingMemoryBound(to: Int16.self),
                                              UnsafeRawPointer(horizontalPairs).assumingMemoryBound(to: Int16.self))
            }
            return
        }
        #endif
        let centre = padded + channels * (radius + 1)
        var x = 0
        while x + 16 <= lanes {
            let bytes = UnsafeRawPointer(row + x).loadUnaligned(as: SIMD16<UInt8>.self)
            UnsafeMutableRawPointer(centre + x).storeBytes(of: SIMD16<UInt16>(truncatingIfNeeded: bytes),
                                                           as: SIMD16<UInt16>.self)
            x += 16
        }
        while x < lanes { centre[x] = UInt16(row[x]); x += 1 }
        // padded[4r + lanes ..< paddedCount] stays 0 from the initialisation: only the centre
        // part is ever written.
        x = 0
        let pairCount = (radius + 1) / 2, step = 2 * channels, back = -2 * channels
        while x < lanes {
            let middle = centre + x
            // The centre tap as a pair of itself, its weight split in two halves below 2^15.
            let c = load(middle), wc = centrePair
            var s0 = multiplyAddPairs(interleaveLow(c.lowHalf, c.lowHalf), wc)
            var s1 = multiplyAddPairs(interleaveHigh(c.lowHalf, c.lowHalf), wc)
            var s2 = multiplyAddPairs(interleaveLow(c.highHalf, c.highHalf), wc)
            var s3 = multiplyAddPairs(interleaveHigh(c.highHalf, c.highHalf), wc)
            // Tap pairs i and i + 1 (i = 1, 3, 5, ...: `channels` lanes a tap), two at a time.
            var nearLeft = middle - channels, nearRight = middle + channels
            var farLeft = middle - 2 * channels, farRight = middle + 2 * channels
            var weights = horizontalPairs
            for _ in 0..<pairCount {
                let a = load(nearLeft) &+ load(nearRight)
                let b = load(farLeft) &+ load(farRight)
                let w = weights.pointee
                s0 = s0 &+ multiplyAddPairs(interleaveLow(a.lowHalf, b.lowHalf), w)
                s1 = s1 &+ multiplyAddPairs(interleaveHigh(a.lowHalf, b.lowHalf), w)
                s2 = s2 &+ multiplyAddPairs(interleaveLow(a.highHalf, b.highHalf), w)
                s3 = s3 &+ multiplyAddPairs(interleaveHigh(a.highHalf, b.highHalf), w)
                nearLeft += back; nearRight += step; farLeft += back; farRight += step; weights += 1
            }
            let sum = SIMD16<UInt32>(truncatingIfNeeded: SIMD16<Int32>(lowHalf: SIMD8(lowHalf: s0, highHalf: s1),
                                                                        highHalf: SIMD8(lowHalf: s2, highHalf: s3)))
            store(SIMD16<UInt16>(truncatingIfNeeded: (sum &+ 128) &>> 8) ^ RGBABlurPasses.bias, at: output + x)
            x += 16
        }
    }

    /// One output row from the pair rows around it (`rows[e]` for `weights[e]`).
    private func verticalRow(from rows: UnsafePointer<UnsafePointer<Int16>>, weights: UnsafePointer<SIMD8<Int16>>,
                             into output: UnsafeMutablePointer<UInt8>) {
        let count = vertical.count
        #if arch(x86_64)
        if rowCode == .avx2 {
            penumbra_blur_vertical_avx2(rows, int16s(weights), count, output, lanes)
            return
        }
        #endif
        var x = 0
        while x < lanes {
            var s0 = SIMD4<Int32>(), s1 = SIMD4<Int32>(), s2 = SIMD4<Int32>(), s3 = SIMD4<Int32>()
            for e in 0..<count {
                let p = rows[e] + 2 * x, w = weights[e]
                s0 = s0 &+ multiplyAddPairs(loadPairs(p), w)
                s1 = s1 &+ multiplyAddPairs(loadPairs(p + 8), w)
                s2 = s2 &+ multiplyAddPairs(loadPairs(p + 16), w)
                s3 = s3 &+ multiplyAddPairs(loadPairs(p + 24), w)
            }
            // The sums are v - 2^31 (each stored h16 was biased by -2^15, the weights sum to 2^16).
            let sums = SIMD16<UInt32>(truncatingIfNeeded: SIMD16<Int32>(lowHalf: SIMD8(lowHalf: s0, highHalf: s1),
                                                                         highHalf: SIMD8(lowHalf: s2, highHalf: s3)))
            let bytes = SIMD16<UInt8>(truncatingIfNeeded: (sums &+ (1 << 31 | 1 << 23)) &>> 24)
            if x + 16 <= lanes {
                UnsafeMutableRawPointer(output + x).storeBytes(of: bytes, as: SIMD16<UInt8>.self)
            } else {
                for i in 0..<(lanes - x) { output[x + i] = bytes[i] }
            }
            x += 16
        }
    }
}

/// The vertical pass's taps as pairs of consecutive rows. Horizontal rows are stored two to a
/// pair row, interleaved lane by lane, so one 16-bit multiply-add of pairs (pmaddwd) applies two
/// taps to four lanes. Output row y's 2r + 1 taps start at horizontal row k; when k is even they
/// are the pairs (W0, W1), (W2, W3), ..., (W2r, 0) of pair rows k/2 ..., when odd (0, W0),
/// (W1, W2), ... of pair rows (k - 1)/2 ...: r + 1 pairs either way. Both factors of a pair
/// product must be Int16: the stored values are h16 - 2^15, and a centre weight above 2^15 - 1
/// is split into 2^15 - 1 in its pair plus the rest in one more entry on the same pair row.
/// Every pair sum is below 2^31 in magnitude (two weights below 2^15), so no multiply-add
/// saturates, and the wrapping total is exactly v - 2^31.
struct VerticalTaps {
    /// Entries per output row: r + 1, or r + 2 with a split centre.
    let count: Int
    /// For parity 0 and 1, the pair row of each entry, relative to the first.
    let offsets: [[Int]]
    /// For parity 0 and 1, each entry's two weights repeated over 4 lanes.
    let weights: [UnsafePointer<SIMD8<Int16>>]
    private let storage: UnsafeMutablePointer<SIMD8<Int16>>

    init(_ w: [UInt32]) {
        let r = (w.count - 1) / 2, limit: UInt32 = 0x7FFF
        let split = w[r] > limit
        count = r + 1 + (split ? 1 : 0)
        storage = .allocate(capacity: 2 * count)
        var offsets: [[Int]] = []
        for parity in 0..<2 {
            // Tap j (row k - parity + j) has weight w[j - parity], 0 outside.
            func weight(_ j: Int) -> UInt32 { j - parity >= 0 && j - parity <= 2 * r ? min(w[j - parity], limit) : 0 }
            for e in 0...r {
                storage[parity * count + e] = SIMD8(Int16(weight(2 * e)), Int16(weight(2 * e + 1)), Int16(weight(2 * e)), Int16(weight(2 * e + 1)),
                                                    Int16(weight(2 * e)), Int16(weight(2 * e + 1)), Int16(weight(2 * e)), Int16(weight(2 * e + 1)))
            }
            if split {
                let j = r + parity, rest = Int16(w[r] - limit)
                let pair: SIMD8<Int16> = j & 1 == 0 ? SIMD8(rest, 0, rest, 0, rest, 0, rest, 0) : SIMD8(0, rest, 0, rest, 0, rest, 0, rest)
                storage[parity * count + r + 1] = pair
            }
            offsets.append(Array(0...r) + (split ? [(r + parity) >> 1] : []))
        }
        self.offsets = offsets
        weights = [UnsafePointer(storage), UnsafePointer(storage + count)]
    }

    func deallocate() { storage.deallocate() }
}

@inline(__always)
private func loadPairs(_ pointer: UnsafePointer<Int16>) -> SIMD8<Int16> {
    UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Int16>.self)
}

/// `a[2i] * b[2i] + a[2i + 1] * b[2i + 1]` for i in 0..<4, in Int32 (pmaddwd; the one input that
/// would overflow, all four factors -2^15, never occurs here).
@inline(__always)
package func multiplyAddPairs(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD4<Int32> {
    #if arch(x86_64)
    unsafeBitCast(_mm_madd_epi16(unsafeBitCast(a, to: __m128i.self), unsafeBitCast(b, to: __m128i.self)), to: SIMD4<Int32>.self)
    #else
    multiplyAddPairsPortable(a, b)
    #endif
}

/// ``multiplyAddPairs(_:_:)`` in plain SIMD arithmetic.
@inline(__always)
package func multiplyAddPairsPortable(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD4<Int32> {
    SIMD4<Int32>(truncatingIfNeeded: a.evenHalf) &* SIMD4<Int32>(truncatingIfNeeded: b.evenHalf)
        &+ SIMD4<Int32>(truncatingIfNeeded: a.oddHalf) &* SIMD4<Int32>(truncatingIfNeeded: b.oddHalf)
}

/// (a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3]) as Int16 bit patterns.
@inline(__always)
private func interleaveLow(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<Int16> {
    #if arch(x86_64)
    unsafeBitCast(_mm_unpacklo_epi16(unsafeBitCast(a, to: __m128i.self), unsafeBitCast(b, to: __m128i.self)), to: SIMD8<Int16>.self)
    #else
    SIMD8<Int16>(truncatingIfNeeded: SIMD8(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3]))
    #endif
}

/// (a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7]) as Int16 bit patterns.
@inline(__always)
private func interleaveHigh(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<Int16> {
    #if arch(x86_64)
    unsafeBitCast(_mm_unpackhi_epi16(unsafeBitCast(a, to: __m128i.self), unsafeBitCast(b, to: __m128i.self)), to: SIMD8<Int16>.self)
    #else
    SIMD8<Int16>(truncatingIfNeeded: SIMD8(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7]))
    #endif
}

/// `output[2i] = even[i], output[2i + 1] = odd[i]` for i in 0..<count (a multiple of 16).
private func interleave(_ even: UnsafePointer<UInt16>, _ odd: UnsafePointer<UInt16>, count: Int,
                        into output: UnsafeMutablePointer<Int16>) {
    var i = 0
    while i < count {
        let a = UnsafeRawPointer(even + i).loadUnaligned(as: SIMD8<UInt16>.self)
        let b = UnsafeRawPointer(odd + i).loadUnaligned(as: SIMD8<UInt16>.self)
        let low = interleaveLow(a, b), high = interleaveHigh(a, b)
        UnsafeMutableRawPointer(output + 2 * i).storeBytes(of: low, as: SIMD8<Int16>.self)
        UnsafeMutableRawPointer(output + 2 * i + 8).storeBytes(of: high, as: SIMD8<Int16>.self)
        i += 8
    }
}

@inline(__always)
private func load(_ pointer: UnsafePointer<UInt16>) -> SIMD16<UInt16> {
    UnsafeRawPointer(pointer).loadUnaligned(as: SIMD16<UInt16>.self)
}

@inline(__always)
private func store(_ value: SIMD16<UInt16>, at pointer: UnsafeMutablePointer<UInt16>) {
    UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: SIMD16<UInt16>.self)
}
