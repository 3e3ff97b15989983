// resolve: one row of cells (of the band) per work group, prefix-summed into
// U8 coverage under the fill rule exactly as the CPU's Accumulator resolves
// them (Rasterizer.swift; docs/ARITHMETIC.md, "Coverage"): the running sum
// is the covered area in units of 2^-17 pixel, folded by the rule and
// rounded half up to U8. The row is split into one run of cells per
// invocation; each invocation sums its run, the group scans the run totals
// in shared memory, then each invocation walks its run again from its
// prefix. Int32 sums wrap, and wrapping addition is associative, so every
// prefix equals the CPU's left-to-right sum bit for bit. Each coverage value
// is stored in an R32UI image on the region's grid, which the composite and
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

#define RESOLVE_GROUP 128
layout(local_size_x = RESOLVE_GROUP) in;
layout(r32ui, binding = IMAGE_COVERAGE) writeonly uniform highp uimage2D uCoverageOut;

shared int runTotals[RESOLVE_GROUP];
//! include tilelist.glsl

const uint FULL_AREA = 1u << 17;

uint coverageOf(int sum) {
    uint v = sum < 0 ? uint(-sum) : uint(sum);   // the magnitude (2^31 for INT_MIN, as the CPU's)
    if (uCoverageRule.x != 0) {
        v &= 2u * FULL_AREA - 1u;
        if (v > FULL_AREA) v = 2u * FULL_AREA - v;
    } else if (v > FULL_AREA) {
        v = FULL_AREA;
    }
    return (v * 255u + FULL_AREA / 2u) >> 17;
}

void main() {
    int bandRow = int(gl_WorkGroupID.x);
    int row = uCoverageBand.x + bandRow;
    int base = bandRow * uCoverageSize.z;
    int width = uCoverageSize.x;
    int lane = int(gl_LocalInvocationID.x);
    int run = (width + RESOLVE_GROUP - 1) / RESOLVE_GROUP;
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
    int tilesPerRow = uCoverageRule.y, lastTile = -1;
    for (int x = first; x < end; x++) {
        int cell = cells[base + x];
        if (cell != 0) {
            sum += cell;
            cells[base + x] = 0;
        }
        uint c = coverageOf(sum);
        imageStore(uCoverageOut, ivec2(x, row), uvec4(c, 0u, 0u, 0u));
        if (tilesPerRow > 0 && c != 0u) {
            int tile = (row >> 4) * tilesPerRow + (x >> 4);
            if (tile != lastTile) {
                lastTile = tile;
                if (atomicExchange(tileFlags[tile], uCoverageRule.z) != uCoverageRule.z) {
                    tiles[atomicAdd(tileGroups[0], 1u)] = uint(tile);
                }
            }
        }
    }
    if (lane == 0) {
        cells[base + width] = 0;
        cells[base + width + 1] = 0;
    }
}
