// BandedEdges: a shape's rounded edges sorted by the band of rows where each
// begins, for the rasterizer's band-at-a-time accumulation (Accumulator.swift).
//
// A region taller than one band is accumulated and resolved band by band so
// that its cells stay in cache; each band needs the edges that reach it. The
// edges are rounded once (EdgeClipper.forEachEdge, the values both renderers
// share), stored top to bottom, and placed by a counting sort on the band of
// their top row: a band then takes the edges starting in it, and keeps those
// from bands above that reach it (Rasterizer.coverage). A large shape's
// contours are rounded on several cores, in runs of consecutive contours whose
// lists are then placed band by band in run order: the one-thread order.

import Dispatch
import PenumbraModel
import PenumbraCore

/// An edge in 24.8 fixed point, region coordinates, stored top to bottom (`sy < bottom`) with
/// its direction: +1 when the shape's edge runs downward, -1 upward.
struct FixedEdge {
    let sx: Int32, sy: Int32, ex: Int32
    /// The lower end's y (24.8).
    let bottom: Int32
    let direction: Int32

    @inline(__always)
    init(sx: Int, sy: Int, ex: Int, ey: Int, direction: Int32) {
        self.sx = Int32(truncatingIfNeeded: sx); self.sy = Int32(truncatingIfNeeded: sy)
        self.ex = Int32(truncatingIfNeeded: ex); bottom = Int32(truncatingIfNeeded: ey)
        self.direction = direction
    }

    /// The edge from (x0, y0) to (x1, y1), stored top to bottom (y0 != y1).
    @inline(__always)
    init(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
        if y0 < y1 { self.init(sx: x0, sy: y0, ex: x1, ey: y1, direction: 1) }
        else { self.init(sx: x1, sy: y1, ex: x0, ey: y0, direction: -1) }
    }

    /// The band of `Accumulator.bandHeight` rows holding the edge's top (its y is at least 0):
    /// a shift. (Divided by the band's height in 1/256 pixel, a product of constants from two
    /// modules, it was an integer division per edge, twice in each sort.)
    @inline(__always)
    var band: Int { Int(sy) &>> (Accumulator.bandShift &+ Accumulator.subpixelShift) }
}

/// A shape's edges grouped by the band of their top row, in buffers reused from call to call.
struct BandedEdges {
    /// The edges, band by band; band b's are `edges[bandStarts[b]..<bandStarts[b + 1]]`.
    private(set) var edges: [FixedEdge] = []
    private(set) var bandStarts: [Int] = []
    private var unsorted: [FixedEdge] = []

    /// Frees the buffer the sort worked from (a list kept rather than reused).
    mutating func releaseUnsorted() { unsorted = [] }

    /// How many edges the buffers hold room for.
    var capacity: Int { max(edges.capacity, unsorted.capacity) }

    /// Rounds the edges of `shape` over `region` (as `EdgeClipper.forEachEdge`), leaves out the
    /// horizontal ones, and groups them into `bands` bands of `Accumulator.bandHeight` rows.
    mutating func sortByBand(of shape: DeviceShape, in region: PixelRect, bands: Int) {
        unsorted.removeAll(keepingCapacity: true)
        EdgeClipper.forEachEdge(of: shape, in: region) { x0, y0, x1, y1 in
            if y0 != y1 { unsorted.append(FixedEdge(x0, y0, x1, y1)) }
        }
        bandStarts.removeAll(keepingCapacity: true)
        bandStarts.append(contentsOf: repeatElement(0, count: bands + 1))
        for edge in unsorted { bandStarts[edge.band + 1] += 1 }
        for b in 0..<bands { bandStarts[b + 1] += bandStarts[b] }
        // Place each edge at its band's next free slot; the slots' starting points are the band
        // starts, so after the pass `next[b]` is band b's end.
        var next = bandStarts
        edges.removeAll(keepingCapacity: true)
        edges.append(contentsOf: unsorted)  // sized; every slot is overwritten below
        edges.withUnsafeMutableBufferPointer { out in
            for edge in unsorted {
                let b = edge.band
                out[next[b]] = edge
                next[b] += 1
            }
        }
    }
}

extension BandedEdges {
    /// Points below which a shape's edges are rounded on one thread (about 0.1 ms of work).
    static let pointsPerThread = 4096

    /// Rounds and groups the edges of `shape` as `sortByBand(of:in:bands:)` does, on up to
    /// `threads` threads when the shape has enough points: its contours are cut into runs of
    /// consecutive contours with about as many points each, every run's edges are rounded into
    /// a list of its own with its count per band, and the lists are placed band by band in run
    /// order. Every band then holds the one-thread sort's edges in its order.
    mutating func sortByBand(of shape: DeviceShape, in region: PixelRect, bands: Int, threads: Int) {
        let runs = BandedEdges.runs(of: shape, threads: threads)
        guard runs.count > 1 else { return sortByBand(of: shape, in: region, bands: bands) }
        var parts = [[FixedEdge]](repeating: [], count: runs.count)
        var counts = [[Int]](repeating: [], count: runs.count)
        parts.withUnsafeMutableBufferPointer { partsBuffer in
            counts.withUnsafeMutableBufferPointer { countsBuffer in
                // Run r writes only parts[r] and counts[r], and every run ends before this returns.
                let lists = DisjointWrites(partsBuffer.baseAddress!), perBand = DisjointWrites(countsBuffer.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: runs.count) { r in
                    // Room for an edge per point, the usual count (a clipped contour may give more),
                    // so the list rarely grows; the counts are written through a pointer.
                    var list: [FixedEdge] = []
                    list.reserveCapacity(shape.contours[runs[r]].reduce(0) { $0 + $1.count })
                    var count = [Int](repeating: 0, count: bands)
                    count.withUnsafeMutableBufferPointer { count in
                        let bandCounts = count.baseAddress!
                        EdgeClipper.forEachEdge(of: shape, contours: runs[r], in: region) { x0, y0, x1, y1 in
                            guard y0 != y1 else { return }
                            let edge = FixedEdge(x0, y0, x1, y1)
                            list.append(edge)
                            bandCounts[edge.band] &+= 1
                        }
                    }
                    lists.value[r] = list
                    perBand.value[r] = count
                }
            }
        }
        bandStarts.removeAll(keepingCapacity: true)
        bandStarts.append(0)
        for b in 0..<bands { bandStarts.append(bandStarts[b] + counts.reduce(0) { $0 + $1[b] }) }
        var next = Array(bandStarts.dropLast())
        let total = bandStarts[bands]
        edges = [FixedEdge](unsafeUninitializedCapacity: total) { out, initialized in
            for part in parts {
                for edge in part {
                    let b = edge.band
                    (out.baseAddress! + next[b]).initialize(to: edge)
                    next[b] += 1
                }
            }
            initialized = total
        }
    }

    /// `shape`'s contours cut into at most `threads` runs of consecutive contours, about as many
    /// points each and at least `pointsPerThread` (one run for a small shape).
    static func runs(of shape: DeviceShape, threads: Int) -> [Range<Int>] {
        let points = shape.contours.reduce(0) { $0 + $1.count }
        let count = max(1, min(threads, points / pointsPerThread, shape.contours.count))
        guard count > 1 else { return [shape.contours.indices] }
        var runs: [Range<Int>] = [], start = 0, seen = 0
        for (i, contour) in shape.contours.enumerated() {
            seen += contour.count
            // Cut after the contour that reaches the next run's share of the points.
            if runs.count < count - 1, seen * count >= points * (runs.count + 1) {
                runs.append(start..<(i + 1)); start = i + 1
            }
        }
        if start < shape.contours.count { runs.append(start..<shape.contours.count) }
        return runs
    }

    /// Accumulates and resolves bands `bands` of `region` (whose edges these are, sorted for
    /// `region.height` rows) top to bottom, handing each row to `body` in order, with `scratch`'s
    /// cells (zero on entry and on return). The edges of bands above the first that reach it are
    /// found first, so any range of bands can be resolved on its own, on any thread, with the
    /// values of a walk from the top. Stops, and returns false, when `body` returns false.
    func resolve(bands: Range<Int>, region: PixelRect, rule: FillRule, scratch: AccumulationScratch,
                 _ body: (CoverageRow) -> Bool) -> Bool {
        guard !bands.isEmpty else { return true }
        let bandUnits = Accumulator.bandHeight << Accumulator.subpixelShift
        var acc = Accumulator(width: region.width, rows: min(region.height, Accumulator.bandHeight), scratch: scratch)
        var row = CoverageRow(y: region.y, originX: region.x, scratch: scratch, width: region.width)
        // The scratch's list, reused from call to call (this call is then its only owner).
        var active = scratch.activeEdges
        scratch.activeEdges = []
        active.removeAll(keepingCapacity: true)
        defer { scratch.activeEdges = active }
        let firstTop = bands.lowerBound * bandUnits
        for i in 0..<bandStarts[bands.lowerBound] where Int(edges[i].bottom) > firstTop { active.append(edges[i]) }
        for band in bands {
            acc.moveToBand(band, regionHeight: region.height)
            let next = (acc.top &+ acc.bandRows) &<< Accumulator.subpixelShift  // the band's bottom, 24.8
            // Edges from bands above that reach this one, then those starting in it; each is
            // kept while it reaches the next band.
            var kept = 0
            for i in active.indices {
                let edge = active[i]
                acc.addEdge(edge)
                if Int(edge.bottom) > next { active[kept] = edge; kept &+= 1 }
            }
            active.removeLast(active.count &- kept)
            for i in bandStarts[band]..<bandStarts[band &+ 1] {
                let edge = edges[i]
                acc.addEdge(edge)
                if Int(edge.bottom) > next { active.append(edge) }
            }
            row.reset(y: region.y &+ acc.top)
            guard acc.resolveBand(rule: rule, row: &row, body) else {
                // The bands below were never added to: only this band's cells needed clearing.
                return false
            }
        }
        return true
    }
}

/// A shape's coverage over a region in the form a renderer resolves itself, band by band and
/// on any thread: its edges clipped, rounded (EdgeClipper, the values of every other form) and
/// sorted by band. The CPU renderer composites its rows as they are resolved (no mask).
package struct ShapeBands: Sendable {
    /// The pixels the edges were clipped to.
    package let region: PixelRect
    package let rule: FillRule
    private let sorted: BandedEdges
    /// How many bands of `Accumulator.bandHeight` rows the region has.
    package let bandCount: Int

    /// The bands of `shape` over `region` (non-empty).
    package init(shape: DeviceShape, region: PixelRect) {
        self.region = region; rule = shape.rule
        bandCount = (region.height + Accumulator.bandHeight - 1) / Accumulator.bandHeight
        var sorted = BandedEdges()
        sorted.sortByBand(of: shape, in: region, bands: bandCount, threads: Parallelism.maxThreads)
        sorted.releaseUnsorted()
        self.sorted = sorted
    }

    /// Resolves bands `bands` (within `0..<bandCount`) top to bottom, handing each row to `body`
    /// (its buffers live only for the call); stops when `body` returns false. Rows of different
    /// band ranges can be resolved concurrently.
    package func resolve(bands: Range<Int>, _ body: (CoverageRow) -> Bool) {
        AccumulationScratch.withScratch { scratch in
            _ = sorted.resolve(bands: bands, region: region, rule: rule, scratch: scratch, body)
        }
    }
}
