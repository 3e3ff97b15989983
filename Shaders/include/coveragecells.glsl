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
// Per op, three ivec4s (GPUCoverage's CoverageOp mirrors them):
//   [0] first point, first cell, cell row stride (width + 2), width
//   [1] first atlas row (its first row of work groups in resolve), height, even-odd (1) or
//       nonzero (0), tiles per row of its tile list (0: none)
//   [2] first tile flag, its list header's word, its list's first tile word, 0
layout(std430, binding = STORAGE_OPS) readonly buffer CoverageOps { ivec4 ops[]; };

// The last op whose descriptor entry `entry`, lane `lane`, is <= value (they ascend).
int findOp(int entry, int lane, int value) {
    int lo = 0, hi = uCoverageInfo.x - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) >> 1;
        if (ops[3 * mid + entry][lane] <= value) lo = mid; else hi = mid - 1;
    }
    return lo;
}
