// CoverageTiles: which tiles of a coverage mask hold any non-zero coverage,
// so that a pass can shade only those instead of the whole bounding box.
//
// Why it leaves the pixels unchanged: the composite discards every pixel of
// zero coverage (it keeps its destination), and the caster writes exactly
// +0 where coverage is zero into a plane cleared to +0; skipping those pixels
// gives the same bytes. A blur output is +0 when every tap it reads is +0, so
// the tiles a blur pass must shade are the input's tiles grown by the kernel
// radius along the pass's axis (`dilated`). Tiles are 16 x 16 pixels on a
// grid anchored at the mask's region; runs of occupied tiles in a tile row
// become one rectangle. A tile is occupied when any span of the mask meets it
// (a span may hold a few zeros: they only shade a tile in vain, never skip one).
import PenumbraCore

/// Occupied tiles over a rectangle of the device grid.
struct CoverageTiles {
    static let size = 16
    /// The rectangle the grid covers (its top-left pixel anchors the grid).
    let bounds: PixelRect
    let columns: Int, rows: Int
    private(set) var occupied: [Bool]

    /// The tiles of `mask` that any of its spans meets.
    init(_ mask: CoverageMask) {
        let r = mask.region, s = CoverageTiles.size
        bounds = r
        columns = (r.width + s - 1) / s; rows = (r.height + s - 1) / s
        occupied = [Bool](repeating: false, count: columns * rows)
        guard !r.isEmpty else { return }
        let columns = self.columns
        occupied.withUnsafeMutableBufferPointer { occupied in
            for y in r.y..<r.maxY {
                let tileRow = ((y - r.y) / s) * columns
                mask.forEachSpan(inRow: y, from: r.x, to: r.maxX) { x, count, _, _ in
                    for column in ((x - r.x) / s)...((x + count - 1 - r.x) / s) { occupied[tileRow + column] = true }
                }
            }
        }
    }

    private init(bounds: PixelRect, columns: Int, rows: Int, occupied: [Bool]) {
        self.bounds = bounds; self.columns = columns; self.rows = rows; self.occupied = occupied
    }

    /// The share of tiles occupied (1 for an empty grid).
    var fraction: Double {
        occupied.isEmpty ? 1 : Double(occupied.lazy.filter { $0 }.count) / Double(occupied.count)
    }

    /// These tiles grown by `dx` pixels left and right and `dy` up and down, on a grid over
    /// `bounds` grown by the same (so nothing grown falls off the grid).
    func dilated(dx: Int, dy: Int) -> CoverageTiles {
        let s = CoverageTiles.size
        let tx = (dx + s - 1) / s, ty = (dy + s - 1) / s
        // The grown grid starts tx, ty tiles before this one, so tiles keep their alignment.
        let grown = PixelRect(x: bounds.x - tx * s, y: bounds.y - ty * s, width: bounds.width + 2 * tx * s,
                              height: bounds.height + 2 * ty * s)
        let columns = self.columns + 2 * tx, rows = self.rows + 2 * ty
        var out = [Bool](repeating: false, count: columns * rows)
        for row in 0..<self.rows {
            for column in 0..<self.columns where occupied[row * self.columns + column] {
                for y in row...(row + 2 * ty) {
                    for x in column...(column + 2 * tx) { out[y * columns + x] = true }
                }
            }
        }
        return CoverageTiles(bounds: grown, columns: columns, rows: rows, occupied: out)
    }

    /// Rectangles (device grid) covering the occupied tiles within `limit`: one per run of
    /// occupied tiles in a tile row, clipped to `limit`.
    func rects(within limit: PixelRect) -> [PixelRect] {
        let s = CoverageTiles.size
        var out: [PixelRect] = []
        for row in 0..<rows {
            var column = 0
            while column < columns {
                guard occupied[row * columns + column] else { column += 1; continue }
                let first = column
                while column < columns && occupied[row * columns + column] { column += 1 }
                let rect = PixelRect(x: bounds.x + first * s, y: bounds.y + row * s, width: (column - first) * s, height: s)
                    .intersection(limit)
                if !rect.isEmpty { out.append(rect) }
            }
        }
        return out
    }
}
