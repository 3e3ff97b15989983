// coveragecells: what the two coverage programs share (accumulate.comp,
// resolve.comp) for a batch of ops' coverage computed together: their
// constants (CoverageBlock in UniformBlocks.swift mirrors it), the cells
// (per op, one Int32 per pixel of its rows in this pass plus two per row,
// from the op's first cell; always zero between passes: the resolve pass
// clears each cell it reads) and the ops' descriptors.
layout(std140, binding = BLOCK_COVERAGE) uniform CoverageBlock {
    ivec4 uCoverageInfo;   // x: ops in the batch, y: points of all their edges, z: the batch's tile stamp
    ivec4 uCoverageBand;   // the rows of each op this pass covers: first, count (a batch: 0 and all)
};
layout(std430, binding = STORAGE_CELLS) buffer Cells { int cells[]; };
// One op's descriptor: GPUCoverage's CoverageOp mirrors it field for field (std430: twelve
// ints, 48 bytes), and CoverageOpLayoutTests checks every offset against the linked programs.
struct CoverageOp {
    int firstPoint;      // its first point among the batch's edge words
    int firstCell;       // its first cell
    int rowStride;       // cells per row: width + 2
    int width;
    int firstRow;        // its first atlas row (and its first work group in resolve)
    int height;
    int evenOdd;         // 1: the even-odd rule, 0: nonzero
    int tilesPerRow;     // of its tile list (0: it lists no tiles)
    int firstTileFlag;   // its first word among the tile flags
    int listHeader;      // the word of its tile list's header
    int firstTileWord;   // the first word of its tile list
    int unused;
};
layout(std430, binding = STORAGE_OPS) readonly buffer CoverageOps { CoverageOp ops[]; };

// The last op whose first point (byRow false) or first atlas row (byRow true) is <= value
// (both ascend with the op's index).
int findOp(bool byRow, int value) {
    int lo = 0, hi = uCoverageInfo.x - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) >> 1;
        int key = byRow ? ops[mid].firstRow : ops[mid].firstPoint;
        if (key <= value) lo = mid; else hi = mid - 1;
    }
    return lo;
}
