// resolve: one row of cells (of the band) per invocation, prefix-summed into U8 coverage
// under the fill rule exactly as the CPU's Accumulator resolves them
// (Rasterizer.swift; docs/ARITHMETIC.md, "Coverage"): the running sum is
// the covered area in units of 2^-17 pixel, folded by the rule and rounded
// half up to U8. Each coverage value is stored in an R32UI image on the
// region's grid, which the composite and caster passes read as a mask; every
// cell read is cleared, so the cells are zero again for the next op.
//! include header.glsl
//! include coveragecells.glsl

layout(local_size_x = 64) in;
layout(r32ui, binding = IMAGE_COVERAGE) writeonly uniform highp uimage2D uCoverageOut;

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
    int bandRow = int(gl_GlobalInvocationID.x);
    if (bandRow >= uCoverageBand.y) return;
    int row = uCoverageBand.x + bandRow;
    int base = bandRow * uCoverageSize.z;
    int sum = 0;
    uint c = 0u;
    for (int x = 0; x < uCoverageSize.x; x++) {
        int cell = cells[base + x];
        if (cell != 0) {
            sum += cell;
            c = coverageOf(sum);
            cells[base + x] = 0;
        }
        imageStore(uCoverageOut, ivec2(x, row), uvec4(c, 0u, 0u, 0u));
    }
    cells[base + uCoverageSize.x] = 0;
    cells[base + uCoverageSize.x + 1] = 0;
}
