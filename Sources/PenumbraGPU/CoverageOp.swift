// CoverageOp: one op's descriptor in a coverage batch, as accumulate.comp and
// resolve.comp read it (coveragecells.glsl's `struct CoverageOp`, std430:
// twelve ints, 48 bytes, no padding between them). The struct is uploaded as
// it lies in memory, so its fields' order and offsets are the shader's;
// CoverageOpLayoutTests asks the linked programs for each member's offset and
// the array's stride and compares them with MemoryLayout's.

/// One op of a coverage batch, mirrored field for field by coveragecells.glsl.
struct CoverageOp: Equatable {
    /// Its first point among the batch's edge words.
    var firstPoint: Int32
    /// Its first cell.
    var firstCell: Int32
    /// Cells per row: its width plus 2.
    var rowStride: Int32
    var width: Int32
    /// Its first row in the coverage atlas (and its first work group in resolve).
    var firstRow: Int32
    var height: Int32
    /// 1 for the even-odd rule, 0 for nonzero.
    var evenOdd: Int32
    /// Tiles per row of its tile list; 0 when it lists none.
    var tilesPerRow: Int32
    /// Its first word among the tile flags.
    var firstTileFlag: Int32
    /// The word of its tile list's header.
    var listHeader: Int32
    /// The first word of its tile list.
    var firstTileWord: Int32
    var unused: Int32 = 0

    /// The GLSL member names and the Swift offsets they must have.
    static let fields: [(name: String, offset: Int)] = [
        ("firstPoint", MemoryLayout<CoverageOp>.offset(of: \.firstPoint)!),
        ("firstCell", MemoryLayout<CoverageOp>.offset(of: \.firstCell)!),
        ("rowStride", MemoryLayout<CoverageOp>.offset(of: \.rowStride)!),
        ("width", MemoryLayout<CoverageOp>.offset(of: \.width)!),
        ("firstRow", MemoryLayout<CoverageOp>.offset(of: \.firstRow)!),
        ("height", MemoryLayout<CoverageOp>.offset(of: \.height)!),
        ("evenOdd", MemoryLayout<CoverageOp>.offset(of: \.evenOdd)!),
        ("tilesPerRow", MemoryLayout<CoverageOp>.offset(of: \.tilesPerRow)!),
        ("firstTileFlag", MemoryLayout<CoverageOp>.offset(of: \.firstTileFlag)!),
        ("listHeader", MemoryLayout<CoverageOp>.offset(of: \.listHeader)!),
        ("firstTileWord", MemoryLayout<CoverageOp>.offset(of: \.firstTileWord)!),
        ("unused", MemoryLayout<CoverageOp>.offset(of: \.unused)!),
    ]
}
