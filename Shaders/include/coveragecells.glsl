// coveragecells: what the two coverage programs share (accumulate.comp,
// resolve.comp): their constants (CoverageBlock in UniformBlocks.swift
// mirrors it) and the cells, one Int32 per pixel of the region plus two per
// row (cells[row * stride + column]), always zero between ops: the resolve
// pass clears each cell it reads.
layout(std140, binding = BLOCK_COVERAGE) uniform CoverageBlock {
    ivec4 uCoverageSize;   // region width, height, cell row stride (width + 2), edge count
    ivec4 uCoverageRule;   // x: 1 for even-odd, 0 for nonzero; y: tiles per row of the tile list (0: no list); z: the op's stamp
    ivec4 uCoverageBand;   // the band's first row and row count
};
layout(std430, binding = STORAGE_CELLS) buffer Cells { int cells[]; };
