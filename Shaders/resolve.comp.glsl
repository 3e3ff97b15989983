// resolve: one row of cells per work group (its op found by a binary search
// over the ops' first atlas rows), prefix-summed into
// U8 coverage under the fill rule exactly as the CPU's Accumulator resolves
// them (PenumbraCPU/Coverage/Accumulator.swift; docs/ARITHMETIC.md, "Coverage"): the running sum
// is the covered area in units of 2^-17 pixel, folded by the rule and
// rounded half up to U8. The row is split into one run of cells per
// invocation; each invocation sums its run, the group scans the run totals
// in shared memory, then each invocation walks its run again from its
// prefix. Int32 sums wrap, and wrapping addition is associative, so every
// prefix equals the CPU's left-to-right sum bit for bit. Each coverage value
// is stored in an R32UI image, four pixels a texel (a byte each), the
// batch's atlas (each op's rows below the previous op's, on its region's
// grid), which the composite and
// caster passes read as a mask; every cell read is cleared, so the cells
// are zero again for the next op.
//
// With a tile list asked for, the row also lists the 16 x 16 tiles of the
// region (grid at its top-left pixel) where its coverage is not 0: the first
// invocation to swap the op's stamp into a tile's flag appends the tile to
// the list and counts it in the list's header, which the composite then
// takes as its indirect dispatch (one work group per listed tile). Stamps
// differ per op, so the flags never need clearing.
//! include header.glsl
//! include coveragecells.glsl

layout(local_size_x = RESOLVE_GROUP) in;
layout(r32ui, binding = IMAGE_COVERAGE) writeonly uniform highp uimage2D uCoverageOut;

shared int runTotals[RESOLVE_GROUP];
//! include tilelist.glsl

const uint FULL_AREA = 1u << 17;

uint coverageOf(int sum, bool evenOdd) {
    uint v = sum < 0 ? uint(-sum) : uint(sum);   // the magnitude (2^31 for INT_MIN, as the CPU's)
    if (evenOdd) {
        v &= 2u * FULL_AREA - 1u;
        if (v > FULL_AREA) v = 2u * FULL_AREA - v;
    } else if (v > FULL_AREA) {
        v = FULL_AREA;
    }
    return (v * 255u + FULL_AREA / 2u) >> 17;
}

void main() {
    int work = int(gl_WorkGroupID.x);
    CoverageOp op = ops[findOp(true, work)];
    int row = work - op.firstRow + uCoverageBand.x;   // the op's row
    int base = op.firstCell + (work - op.firstRow) * op.rowStride;
    int width = op.width;
    ivec2 atlas = ivec2(0, op.firstRow);
    int lane = int(gl_LocalInvocationID.x);
    // Runs of a multiple of four cells, so that each invocation stores whole texels.
    int run = ((width + RESOLVE_GROUP - 1) / RESOLVE_GROUP + 3) & ~3;
    int first = min(width, lane * run), end = min(width, first + run);
    int total = 0;
    for (int x = first; x < end; x++) total += cells[base + x];
    runTotals[lane] = total;
    barrier();
    // Inclusive scan of the run totals (Hillis-Steele: log2 steps over shared memory).
    for (int step = 1; step < RESOLVE_GROUP; step <<= 1) {
        int add = lane >= step ? runTotals[lane - step] : 0;
        barrier();
        runTotals[lane] += add;
        barrier();
    }
    int sum = runTotals[lane] - total;   // the sum of every cell before this run
    int tilesPerRow = op.tilesPerRow, lastTile = -1;
    uint word = 0u;
    for (int x = first; x < end; x++) {
        int cell = cells[base + x];
        if (cell != 0) {
            sum += cell;
            cells[base + x] = 0;
        }
        uint c = coverageOf(sum, op.evenOdd != 0);
        word |= c << (8 * (x & 3));
        if ((x & 3) == 3 || x == end - 1) {
            imageStore(uCoverageOut, atlas + ivec2(x >> 2, row), uvec4(word, 0u, 0u, 0u));
            word = 0u;
        }
        if (tilesPerRow > 0 && c != 0u) {
            int tile = (row / TILE_SIZE) * tilesPerRow + x / TILE_SIZE;
            if (tile != lastTile) {
                lastTile = tile;
                if (atomicExchange(tileFlags[op.firstTileFlag + tile], uCoverageInfo.z) != uCoverageInfo.z) {
                    tileWords[op.firstTileWord + int(atomicAdd(tileWords[op.listHeader], 1u))] = uint(tile);
                }
            }
        }
    }
    if (lane == 0) {
        cells[base + width] = 0;
        cells[base + width + 1] = 0;
    }
}
