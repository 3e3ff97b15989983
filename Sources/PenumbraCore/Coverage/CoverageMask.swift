// CoverageMask: per-pixel coverage in 0...1 over a rectangle of pixels,
// zero outside it. Coverage stays in Float from the rasterizer to the
// composite, so nothing is quantised before the single rounding of the spec.


/// Coverage values over `region` (row-major); pixels outside the region have coverage 0.
public struct CoverageMask: Sendable {
    public var region: PixelRect
    public var values: [Float]

    public init(region: PixelRect, values: [Float]) {
        precondition(values.count == region.area)
        self.region = region; self.values = values
    }
    /// A mask with the same coverage everywhere in `region`.
    public init(region: PixelRect, constant: Float) {
        self.region = region; values = [Float](repeating: constant, count: region.area)
    }

    /// Coverage at a pixel (0 outside the region).
    public subscript(x: Int, y: Int) -> Float {
        guard x >= region.x, y >= region.y, x < region.maxX, y < region.maxY else { return 0 }
        return values[(y - region.y) * region.width + (x - region.x)]
    }

    /// Multiplies `row[i]` by the coverage at (x0 + i, y), which is 0 outside the region: how
    /// renderers combine geometry and clip a row at a time.
    public func multiplyRow(y: Int, x0: Int, into row: UnsafeMutableBufferPointer<Float>) {
        let r = region, width = row.count
        guard y >= r.y, y < r.maxY else { for i in 0..<width { row[i] = 0 }; return }
        values.withUnsafeBufferPointer { v in
            let base = (y - r.y) * r.width - r.x
            for i in 0..<width {
                let x = x0 + i
                row[i] = (x >= r.x && x < r.maxX) ? row[i] * v[base + x] : 0
            }
        }
    }

    /// The sum of all coverage: the covered area in square pixels.
    public var totalCoverage: Double { values.reduce(0.0) { $0 + Double($1) } }

    /// This mask times another (the other is read as 0 outside its region); the result keeps
    /// this mask's region.
    public func multiplied(by other: CoverageMask) -> CoverageMask {
        var out = self
        let overlap = region.intersection(other.region)
        out.values.withUnsafeMutableBufferPointer { dst in
            other.values.withUnsafeBufferPointer { src in
                for y in region.y..<region.maxY {
                    let row = (y - region.y) * region.width
                    if y < overlap.y || y >= overlap.maxY {
                        for i in 0..<region.width { dst[row + i] = 0 }
                        continue
                    }
                    let orow = (y - other.region.y) * other.region.width - other.region.x
                    for x in region.x..<region.maxX {
                        let i = row + x - region.x
                        dst[i] = (x >= overlap.x && x < overlap.maxX) ? dst[i] * src[orow + x] : 0
                    }
                }
            }
        }
        return out
    }
}
