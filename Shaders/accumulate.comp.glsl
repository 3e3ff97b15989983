// accumulate: the coverage cells of a batch of ops' edges, one invocation per
// edge (per point of the uploaded chains, below; its op found by a binary
// search over the ops' first points),
// in the integer arithmetic of docs/ARITHMETIC.md ("Coverage") and of the
// CPU's Accumulator (PenumbraCPU/Coverage/Accumulator.swift), step for step: an edge in 24.8 fixed
// point is cut at each row boundary (x there by an exact floor division),
// each row's piece at each column boundary, and each cell piece adds
// cover x (512 - fx0 - fx1) to its cell and cover x (fx0 + fx1) to the next.
// Integer atomics make the sums independent of the order in which
// invocations run, so the cells equal the CPU's exactly.
//
// Regions taller than the cell buffer are done in bands of rows: each edge
// walks its rows from the first and adds only those of the band.
//
// The CPU computes floor(dx x (bottom - sy) / dy) per row in 64 bits; here
// the same quotients come from one 32-bit division for the first row
// boundary and an exact quotient-and-remainder step of 256 rows' worth per
// row after it (dx <= 2^22 for regions up to 16384 pixels wide, so every
// product fits 32 unsigned bits). Cell pieces use the CPU's formula as is:
// height (<= 256) x span (<= 2^22) fits too.
//! include header.glsl
//! include coveragecells.glsl

layout(local_size_x = ACCUMULATE_GROUP) in;
// The edges as chains of points, two points to three words (PenumbraCore's CoverageEdges): point k
// holds bits 48k to 48k + 47, x in the low 24 bits and y in the next 24; x's bit 23 marks the
// first point of a chain. Point k and point k + 1 are an edge unless k + 1 starts a chain.
layout(std430, binding = STORAGE_EDGES) readonly buffer Edges { uint words[]; };

// Point k: (x, y, starts a chain).
ivec3 chainPoint(int k) {
    int w = 3 * (k >> 1);
    uint x, y;
    if ((k & 1) == 0) {
        x = words[w] & 0xFFFFFFu;
        y = (words[w] >> 24) | ((words[w + 1] & 0xFFFFu) << 8);
    } else {
        x = (words[w + 1] >> 16) | ((words[w + 2] & 0xFFu) << 16);
        y = words[w + 2] >> 8;
    }
    return ivec3(int(x & 0x7FFFFFu), int(y), int(x >> 23));
}

void addCell(int index, int value) {
    if (value != 0) atomicAdd(cells[index], value);
}

// One row's piece from (xa, ya) down to (xb, yb), ya < yb in 0...256 (row-relative), into
// the row of cells from `base`.
void addRowPiece(int base, int xa, int ya, int xb, int yb, int dir) {
    int height = yb - ya;
    if (xa == xb) {
        int cell = xa >> 8;
        int cover = height * dir, sum = 2 * (xa - (cell << 8));
        addCell(base + cell, cover * (512 - sum));
        addCell(base + cell + 1, cover * sum);
        return;
    }
    int left = min(xa, xb), right = max(xa, xb);
    uint span = uint(right - left);
    int first = left >> 8, last = (right - 1) >> 8;
    int covered = 0;
    for (int cell = first; cell <= last; cell++) {
        int cellLeft = cell << 8;
        int from = max(left, cellLeft), to = min(right, cellLeft + 256);
        int reached = to == right ? height : int(uint(height) * uint(to - left) / span);
        int cover = (reached - covered) * dir, sum = from + to - 2 * cellLeft;
        addCell(base + cell, cover * (512 - sum));
        addCell(base + cell + 1, cover * sum);
        covered = reached;
    }
}

void main() {
    int index = int(gl_GlobalInvocationID.x);
    if (index + 1 >= uCoverageInfo.y) return;
    ivec3 from = chainPoint(index), to = chainPoint(index + 1);
    if (to.z != 0) return;   // every op's points start a chain, so no edge joins two ops
    CoverageOp op = ops[findOp(false, index)];
    ivec4 e = ivec4(from.xy, to.xy);
    if (e.y == e.w) return;
    int dir = e.y < e.w ? 1 : -1;
    ivec4 s = e.y < e.w ? e : e.zwxy;   // (sx, sy, ex, ey), downward
    uint dx = uint(abs(s.z - s.x)), dy = uint(s.w - s.y);
    int stepX = s.z >= s.x ? 1 : -1;
    int firstRow = s.y >> 8, lastRow = (s.w - 1) >> 8;
    // q = floor(dx (bottom - sy) / dy) and its remainder r, for bottom = the row's lower boundary.
    uint reach = uint(((firstRow + 1) << 8) - s.y);
    uint q = dx * reach / dy, r = dx * reach % dy;
    uint stepQ = dx * 256u / dy, stepR = dx * 256u % dy;
    int x = s.x, y = s.y;
    int bandEnd = uCoverageBand.x + uCoverageBand.y;
    for (int row = firstRow; row <= lastRow && row < bandEnd; row++) {
        int bottom = min(s.w, (row + 1) << 8);
        int nextX = bottom == s.w ? s.z : s.x + stepX * int(q);
        if (row >= uCoverageBand.x) {
            addRowPiece(op.firstCell + (row - uCoverageBand.x) * op.rowStride, x, y - (row << 8), nextX, bottom - (row << 8), dir);
        }
        x = nextX; y = bottom;
        q += stepQ; r += stepR;
        if (r >= dy) { r -= dy; q += 1u; }
    }
}
