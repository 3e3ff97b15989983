// BandedEdges: a shape's rounded edges sorted by the band of rows where each
// begins, for the rasterizer's band-at-a-time accumulation (Rasterizer.swift).
//
// A region taller than one band is accumulated and resolved band by band so
// that its cells stay in cache; each band needs the edges that reach it. The
// edges are rounded once (EdgeClipper.forEachEdge, the values both renderers
// share), stored top to bottom, and placed by a counting sort on the band of
// their top row: a band then takes the edges starting in it, and keeps those
// from bands above that reach it (Rasterizer.coverage).

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
}

/// A shape's edges grouped by the band of their top row, in buffers reused from call to call.
struct BandedEdges {
    /// The edges, band by band; band b's are `edges[bandStarts[b]..<bandStarts[b + 1]]`.
    private(set) var edges: [FixedEdge] = []
    private(set) var bandStarts: [Int] = []
    private var unsorted: [FixedEdge] = []

    /// How many edges the buffers hold room for.
    var capacity: Int { max(edges.capacity, unsorted.capacity) }

    /// Rounds the edges of `shape` over `region` (as `EdgeClipper.forEachEdge`), leaves out the
    /// horizontal ones, and groups them into `bands` bands of `Accumulator.bandHeight` rows.
    mutating func sortByBand(of shape: DeviceShape, in region: PixelRect, bands: Int) {
        unsorted.removeAll(keepingCapacity: true)
        EdgeClipper.forEachEdge(of: shape, in: region) { x0, y0, x1, y1 in
            if y0 != y1 { unsorted.append(FixedEdge(x0, y0, x1, y1)) }
        }
        let bandUnits = Accumulator.bandHeight << Accumulator.subpixelShift
        bandStarts.removeAll(keepingCapacity: true)
        bandStarts.append(contentsOf: repeatElement(0, count: bands + 1))
        for edge in unsorted { bandStarts[Int(edge.sy) / bandUnits + 1] += 1 }
        for b in 0..<bands { bandStarts[b + 1] += bandStarts[b] }
        // Place each edge at its band's next free slot; the slots' starting points are the band
        // starts, so after the pass `next[b]` is band b's end.
        var next = bandStarts
        edges.removeAll(keepingCapacity: true)
        edges.append(contentsOf: unsorted)  // sized; every slot is overwritten below
        edges.withUnsafeMutableBufferPointer { out in
            for edge in unsorted {
                let b = Int(edge.sy) / bandUnits
                out[next[b]] = edge
                next[b] += 1
            }
        }
    }
}
