// Rasterizer: exact-area anti-aliased coverage by signed-area accumulation
// (the scheme of libart, stb_truetype 2 and font-rs).
//
// Every edge adds, to each cell it crosses, the signed area between itself
// and the cell's right side (times its direction, +1 downward): the prefix
// sum along a row is then, at each pixel, the integral of the winding number
// over that pixel: its exact covered area for any non-self-overlapping path.
// Nonzero coverage is min(1, |A|), even-odd folds A into [0, 1]. Where edges
// of different pieces of one path cross inside a pixel the sum can differ
// from the exact area; SCENE_FORMAT.md allows exactly this.
//
// Edges are clipped to the region first, in Double, and their ends rounded
// to 1/256 pixel (24.8 fixed point: EdgeClipper in CoverageEdges.swift,
// which also gives the GPU renderer the same edges); everything after is
// integer arithmetic (docs/ARITHMETIC.md, "Coverage"), as FreeType's and
// Blend2D's cell rasterizers do: an edge is cut at row
// and column boundaries by exact floor divisions (stepped, not divided
// anew: from one boundary to the next the numerator grows by a constant, so
// quotient and remainder grow by that constant's, which gives the floor of
// every boundary with one division per edge), each piece adds its cover
// (dy, 1/256 pixel) and area (dy x (fx0 + fx1)) to Int32 cells as two
// addends, and the prefix sum of a row is the coverage in units of 2^-17
// pixel, quantised to U8 once. Integer sums do not depend on the order of
// the edges, so any evaluation order gives these values: the GPU's compute
// program (accumulate.comp.glsl) accumulates the same cells with atomics.
//
// Each resolved row is handed to a consumer as a CoverageRow (constant and
// explicit spans: CoverageRow.swift): a mask stores it, and the CPU renderer
// composites it at once (ShapeBands, resolved a range of bands per core).
// All of this is the CPU renderer's: the planner (PenumbraCore) knows only
// regions and edges, and asks for masks and bands through CPURasterizer.
//
// Speed without changing a value: the cells live in a reused, always-zero
// AccumulationScratch (no allocation or zeroing per op), a contour inside the
// region is rounded once per point without clipping, and each edge marks the
// blocks of 8 cells it touches. The resolve visits only marked blocks: between
// them the prefix sum is constant, so the coverage is too, and the mask
// (CoverageMask, rows of spans) stores such a run as one constant span, or
// nothing when it is 0; a whole block's prefix sums and coverage are computed
// four lanes at a time, its 8 values packed in one 64-bit word, whose runs
// equal to the coverage before and after it are found by bit counts. A
// stroked circle thus costs its edges, not its bounding box. A region taller
// than 32 rows is accumulated and resolved a band of 32 rows at a time
// (BandedEdges.swift), so its cells stay in the core's cache: a 1024-row ring
// touched 4 MB of cells in one pass, a band of it 131 KB. Every value is the
// one of the original dense resolve (wrapping integer sums give the same
// values in any order): the results are bit-identical, which
// RasterizerIdentityTests checks against a copy of it.

import PenumbraModel
import PenumbraCore

extension Rasterizer {
    /// Coverage of `shape` over `region` (device pixels); every value is in 0...1.
    ///
    /// The cells are accumulated and resolved a band of `Accumulator.bandHeight` rows at a time,
    /// so they stay in the core's cache whatever the region's size: the edges are rounded once
    /// into a list, sorted by the band of their top row, and each band adds the rows of the edges
    /// that reach it. An edge's rows are the same pieces whichever band adds them, so every cell
    /// gets the same addends as in one pass over the whole region.
    package static func coverage(of shape: DeviceShape, in region: PixelRect) -> CoverageMask {
        guard !region.isEmpty else { return CoverageMask(region: region, values: []) }
        return AccumulationScratch.withScratch { scratch -> CoverageMask in
            var builder = CoverageMask.Builder(region: region)
            if region.height <= Accumulator.bandHeight {
                var acc = Accumulator(width: region.width, rows: region.height, scratch: scratch)
                EdgeClipper.forEachEdge(of: shape, in: region) { acc.addEdge($0, $1, $2, $3) }
                var row = CoverageRow(y: region.y, originX: region.x, scratch: scratch, width: region.width)
                acc.resolveBand(rule: shape.rule, row: &row) { builder.append($0); return true }
                return builder.finish()
            }
            let bands = (region.height + Accumulator.bandHeight - 1) / Accumulator.bandHeight
            scratch.edges.sortByBand(of: shape, in: region, bands: bands)
            let sorted = scratch.edges
            _ = sorted.resolve(bands: 0..<bands, region: region, rule: shape.rule, scratch: scratch) { builder.append($0); return true }
            return builder.finish()
        }
    }
}

/// The signed-area accumulation buffer of one band of rows: `width + 2` cells per pixel row, and
/// one bit per touched block of cells, in a borrowed scratch whose cells and bits are zero on
/// entry and again after each `resolveBand`.
struct Accumulator {
    let width: Int
    let stride: Int
    let cells: UnsafeMutablePointer<Int32>
    /// Per row, `wordsPerRow` words of bits, one per block of `blockShift`-aligned cells.
    let touched: UnsafeMutablePointer<UInt64>
    let wordsPerRow: Int
    /// The band: its first row (region rows) and its number of rows; cell row 0 is row `top`.
    private(set) var top = 0
    private(set) var bandRows: Int
    static let blockShift = AccumulationScratch.blockShift
    /// 1 in each byte of a word: a byte times it is that byte in every lane.
    static let byteLanes: UInt64 = 0x0101_0101_0101_0101
    /// Rows per band: 32 rows of a 1024-pixel region are 131 KB of cells, within a core's L2.
    static let bandHeight = 1 << bandShift
    static let bandShift = 5

    /// An accumulator for bands of up to `rows` rows, at first the band of rows `0..<rows`.
    init(width: Int, rows: Int, scratch: AccumulationScratch) {
        self.width = width; bandRows = rows; stride = width + 2
        let blocks = (stride + AccumulationScratch.blockWidth - 1) >> Accumulator.blockShift
        wordsPerRow = (blocks + 63) >> 6
        scratch.reserve(cells: stride * rows, words: wordsPerRow * rows)
        cells = scratch.cells
        touched = scratch.touchedBlocks
    }

    /// Makes the accumulator the `band`-th band of `bandHeight` rows of a region `regionHeight`
    /// rows high (the last band may be shorter).
    mutating func moveToBand(_ band: Int, regionHeight: Int) {
        top = band * Accumulator.bandHeight
        bandRows = min(Accumulator.bandHeight, regionHeight - top)
    }

    /// Marks the blocks holding cells `first...last` of `row` as touched (first <= last).
    @inline(__always)
    private func markTouched(row: Int, first: Int, last: Int) {
        let words = touched + row &* wordsPerRow
        let b0 = first &>> Accumulator.blockShift, b1 = last &>> Accumulator.blockShift
        let w0 = b0 &>> 6, w1 = b1 &>> 6
        // Bits b0 through b1: all of them in one word when they share it (the usual case).
        let low = UInt64.max &<< UInt64(b0 & 63), high = UInt64.max &>> UInt64(63 &- (b1 & 63))
        if w0 == w1 { words[w0] |= low & high; return }
        words[w0] |= low
        var w = w0 &+ 1
        while w < w1 { words[w] = .max; w &+= 1 }
        words[w1] |= high
    }

    /// Subpixel bits of the fixed-point edges (EdgeClipper's): 1/256 pixel.
    static let subpixelShift = EdgeClipper.subpixelShift
    static let subpixels = EdgeClipper.subpixels
    /// A whole pixel in the cells' units: cover 256 times twice the mean x offset 256.
    static let fullArea: Int32 = 1 << (2 * subpixelShift + 1)

    /// `floor(a * b / c)` for a, b >= 0 and c > 0 (products within 64 bits).
    @inline(__always)
    private static func scaled(_ a: Int, _ b: Int, _ c: Int) -> Int { a * b / c }

    /// Adds an edge in 24.8 fixed point with 0 <= x <= width * 256 and 0 <= y <= height * 256:
    /// cut at each row boundary (x there from an exact floor division), then each row's piece at
    /// each column boundary (y likewise), each cell piece adding `cover * (512 - fx0 - fx1)` to
    /// its cell and `cover * (fx0 + fx1)` to the next (fx: the piece's ends within the cell).
    /// Wrapping operators throughout: every value is bounded by the ranges above (products of
    /// the row cuts within 2^46, cell sums within 2^18 times 256), so none can overflow.
    mutating func addEdge(_ px0: Int, _ py0: Int, _ px1: Int, _ py1: Int) {
        guard py0 != py1 else { return }
        addEdge(FixedEdge(px0, py0, px1, py1))
    }

    /// Adds the rows of `edge` within the band. A row's piece does not depend on the band: x at a
    /// row boundary is the exact floor division from the edge's top, wherever the walk starts.
    mutating func addEdge(_ edge: FixedEdge) {
        let shift = Accumulator.subpixelShift
        let (sx, sy, ex, ey, dir) = (Int(edge.sx), Int(edge.sy), Int(edge.ex), Int(edge.bottom), edge.direction)
        let edgeFirst = sy &>> shift, edgeLast = (ey &- 1) &>> shift
        let bandLast = top &+ bandRows &- 1
        let firstRow = max(edgeFirst, top), lastRow = min(edgeLast, bandLast)
        guard firstRow <= lastRow else { return }
        if edgeFirst == edgeLast {
            let rowTop = firstRow &<< shift
            addRowPiece(firstRow &- top, sx, sy &- rowTop, ex, ey &- rowTop, dir)
            return
        }
        let dx = UInt(bitPattern: ex > sx ? ex &- sx : sx &- ex), dy = UInt(bitPattern: ey &- sy)
        let rightward = ex >= sx
        // x where the edge crosses each row boundary above its end is
        // sx +- floor(dx (y - sy) / dy); y steps by a whole row from one boundary to the next, so
        // the quotient and remainder step by those of dx * 256 (one division for the edge, not
        // one per row), the same values exactly.
        var row = firstRow
        var y = row == edgeFirst ? sy : row &<< shift
        var px = sx
        var quotient: UInt = 0, remainder: UInt = 0
        let stepQuotient = (dx &<< UInt(shift)) / dy, stepRemainder = (dx &<< UInt(shift)) % dy
        // The boundary below the first row (when the edge goes on past it): the walk's start.
        let firstBoundary = (row &+ 1) &<< shift
        if row < edgeLast {
            let n = dx &* UInt(bitPattern: firstBoundary &- sy)
            (quotient, remainder) = (n / dy, n % dy)
        }
        if row != edgeFirst {
            // The edge's x at the band's top: one boundary above the first step.
            let n = dx &* UInt(bitPattern: y &- sy)
            let step = Int(bitPattern: n / dy)
            px = rightward ? sx &+ step : sx &- step
        }
        while row <= lastRow {
            let rowTop = row &<< shift
            let bottom: Int, nextX: Int
            if row == edgeLast {
                (bottom, nextX) = (ey, ex)
            } else {
                bottom = rowTop &+ (1 &<< shift)
                let step = Int(bitPattern: quotient)
                nextX = rightward ? sx &+ step : sx &- step
                quotient &+= stepQuotient; remainder &+= stepRemainder
                if remainder >= dy { quotient &+= 1; remainder &-= dy }
            }
            addRowPiece(row &- top, px, y &- rowTop, nextX, bottom &- rowTop, dir)
            px = nextX; y = bottom; row &+= 1
        }
    }

    /// One row's piece of an edge, from (xa, ya) down to (xb, yb) with ya < yb in 0...256.
    @inline(__always)
    private mutating func addRowPiece(_ row: Int, _ xa: Int, _ ya: Int, _ xb: Int, _ yb: Int, _ dir: Int32) {
        let shift = Accumulator.subpixelShift, one = 1 << shift
        let a = cells + row &* stride
        let height = yb &- ya
        let (left, right) = xa < xb ? (xa, xb) : (xb, xa)
        let first = left &>> shift
        // Within one cell (a vertical piece among them): the whole height, no division.
        if right &- (first &<< shift) <= one {
            markTouched(row: row, first: first, last: first &+ 1)
            let cover = Int32(truncatingIfNeeded: height) &* dir
            let sum = Int32(truncatingIfNeeded: left &+ right &- 2 &* (first &<< shift))
            a[first] &+= cover &* (Int32(2 * one) &- sum)
            a[first &+ 1] &+= cover &* sum
            return
        }
        // Left to right; t(x) = floor(height (x - left) / (right - left)) is the cover from the left
        // end to x, exact at both ends, so the cells' covers add up to the piece's height.
        let span = UInt(bitPattern: right &- left), h = UInt(bitPattern: height)
        let last = (right &- 1) &>> shift
        markTouched(row: row, first: first, last: last &+ 1)
        // floor(h (to - left) / span) at each cell's right side, stepped as the row crossings are
        // (the quotient and remainder of h * 256 added per cell).
        let firstRight = (first &+ 1) &<< shift
        let n = h &* UInt(bitPattern: firstRight &- left)
        var quotient = n / span, remainder = n % span
        let stepQuotient = (h &<< UInt(shift)) / span, stepRemainder = (h &<< UInt(shift)) % span
        var covered = 0, from = left, cell = first
        while cell <= last {
            let cellRight = (cell &+ 1) &<< shift
            let to = cellRight < right ? cellRight : right
            let reached = to == right ? height : Int(bitPattern: quotient)
            quotient &+= stepQuotient; remainder &+= stepRemainder
            if remainder >= span { quotient &+= 1; remainder &-= span }
            let cover = Int32(truncatingIfNeeded: reached &- covered) &* dir
            let sum = Int32(truncatingIfNeeded: from &+ to &- 2 &* (cell &<< shift))
            a[cell] &+= cover &* (Int32(2 * one) &- sum)
            a[cell &+ 1] &+= cover &* sum
            covered = reached; from = to; cell &+= 1
        }
    }

    /// The running sums of four lanes: lane i is lanes 0 through i added (wrapping).
    @inline(__always)
    static func prefixSums(_ x: SIMD4<Int32>) -> SIMD4<Int32> {
        let one = x &+ SIMD4(0, x[0], x[1], x[2])
        return one &+ SIMD4(0, 0, one[0], one[1])
    }

    /// The coverage of four prefix sums (areas in units of 2^-17 pixel): the magnitude folded by
    /// the rule (nonzero: at most 2^17; even-odd: modulo 2^18, folded above 2^17), times 255,
    /// rounded half up to U8 (each lane in 0...255).
    @inline(__always)
    static func coverage(_ sums: SIMD4<Int32>, evenOdd: Bool) -> SIMD4<UInt32> {
        let full = UInt32(Accumulator.fullArea)
        let sign = sums &>> 31
        var v = SIMD4<UInt32>(truncatingIfNeeded: (sums ^ sign) &- sign)  // |sum|, as `magnitude`
        if evenOdd {
            v &= 2 * full - 1
            v.replace(with: SIMD4(repeating: 2 * full) &- v, where: v .> full)
        } else {
            v.replace(with: full, where: v .> full)
        }
        return ((v &<< 8) &- v &+ full / 2) &>> UInt32(2 * Accumulator.subpixelShift + 1)
    }

    /// Prefix-sums each row of the band into coverage under the fill rule, handing each row to
    /// `body` in `row` (whose region is as wide as this accumulator; `row.y` is set to each
    /// row's device y from its value at the band's first row), zeroing every touched block's
    /// cells and bits (the scratch's invariant). A touched block inside the row becomes an
    /// explicit span, less its leading values equal to the coverage before it and its trailing
    /// values equal to the coverage after it; those join the constant runs between blocks,
    /// which become constant spans when they are not zero. Cells at or past `width` are
    /// cleared but never summed. When `body` returns false the rest of the band is cleared
    /// without being resolved, and false is returned.
    @discardableResult
    func resolveBand(rule: FillRule, row out: inout CoverageRow, _ body: (CoverageRow) -> Bool) -> Bool {
        let evenOdd = rule == .evenOdd
        let (width, stride, blockWidth) = (self.width, self.stride, AccumulationScratch.blockWidth)
        let firstY = out.y
        for row in 0..<bandRows {
            let a = cells + row * stride, words = touched + row * wordsPerRow
            out.reset(y: firstY + row)
            var sum: Int32 = 0, c: UInt8 = 0
            var next = 0  // the first column not yet in a span; coverage is c from there on
            // A block from `start`, its values in the row's slot when `first < last`:
            // values `first..<last` become an explicit span; the values before them equal the
            // coverage before the block (`before`) and extend the run before it, the values
            // after them equal the coverage after it (`c`) and start the run after it.
            @inline(__always) func endBlock(_ start: Int, _ first: Int, _ last: Int, _ before: UInt8) {
                guard first < last || before != c else { return }
                if start &+ first > next && before != 0 {
                    out.addConstantSpan(column: next, count: start &+ first &- next, value: before)
                }
                if first < last { out.addExplicitSpan(column: start &+ first, count: last &- first) }
                next = start &+ last
            }
            for w in 0..<wordsPerRow {
                var bits = words[w]
                words[w] = 0
                while bits != 0 {
                    let start = (w << 6 | bits.trailingZeroBitCount) << Accumulator.blockShift
                    bits &= bits - 1
                    let before = c
                    if start &+ blockWidth <= width {
                        // A whole block inside the row: the prefix sums of two lanes of four
                        // (wrapping sums, so any order of additions gives the left-to-right
                        // values), their coverage, packed as the bytes of one word (the first value
                        // lowest), whose runs equal to `before` and to `c` are found by bit counts.
                        let cells = UnsafeMutableRawPointer(a + start)
                        let low = Accumulator.prefixSums(cells.loadUnaligned(as: SIMD4<Int32>.self)) &+ SIMD4(repeating: sum)
                        let high = Accumulator.prefixSums(cells.loadUnaligned(fromByteOffset: 16, as: SIMD4<Int32>.self))
                            &+ SIMD4(repeating: low[3])
                        cells.storeBytes(of: SIMD4<Int32>(), as: SIMD4<Int32>.self)
                        cells.storeBytes(of: SIMD4<Int32>(), toByteOffset: 16, as: SIMD4<Int32>.self)
                        sum = high[3]
                        let bytes = SIMD8<UInt8>(truncatingIfNeeded: SIMD8<UInt32>(
                            lowHalf: Accumulator.coverage(low, evenOdd: evenOdd), highHalf: Accumulator.coverage(high, evenOdd: evenOdd)))
                        let values = UInt64(littleEndian: unsafeBitCast(bytes, to: UInt64.self))
                        c = UInt8(truncatingIfNeeded: values &>> 56)
                        let first = (values ^ (UInt64(before) &* Accumulator.byteLanes)).trailingZeroBitCount &>> 3
                        let last = max(first, blockWidth &- (values ^ (UInt64(c) &* Accumulator.byteLanes)).leadingZeroBitCount &>> 3)
                        if first < last {
                            UnsafeMutableRawPointer(out.valueSlot(column: start)).storeBytes(of: values.littleEndian, as: UInt64.self)
                        }
                        endBlock(start, first, last, before)
                        continue
                    }
                    // The row's last, partial block: one cell at a time.
                    let end = min(start + blockWidth, width)
                    if start < width {
                        let block = out.valueSlot(column: start)
                        for x in start..<end {
                            sum &+= a[x]
                            a[x] = 0
                            c = UInt8(truncatingIfNeeded: Accumulator.coverage(SIMD4(repeating: sum), evenOdd: evenOdd)[0])
                            block[x - start] = c
                        }
                        var first = 0, last = end - start
                        while first < last && block[first] == before { first += 1 }
                        while last > first && block[last - 1] == c { last -= 1 }
                        endBlock(start, first, last, before)
                    }
                    let clearFrom = max(start, width), clearTo = min(start + blockWidth, stride)
                    if clearFrom < clearTo { (a + clearFrom).update(repeating: 0, count: clearTo - clearFrom) }
                }
            }
            if next < width && c != 0 { out.addConstantSpan(column: next, count: width - next, value: c) }
            if !body(out) {
                clear(fromRow: row + 1)
                return false
            }
        }
        return true
    }

    /// Zeroes the cells and bits of rows `fromRow..<bandRows` (an abandoned band's rest).
    private func clear(fromRow: Int) {
        guard fromRow < bandRows else { return }
        (cells + fromRow * stride).update(repeating: 0, count: (bandRows - fromRow) * stride)
        (touched + fromRow * wordsPerRow).update(repeating: 0, count: (bandRows - fromRow) * wordsPerRow)
    }
}
