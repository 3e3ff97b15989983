// fixed64: 64-bit two's complement integers as uvec2 (x = low word, y = high
// word), for the Q24 positions of ImageSamplingPlan. Each operation is the
// wrapping Int64 operation of Swift (&+, &*), exactly: GLSL ES 3.1 gives the
// carries and the 64-bit products of 32-bit words (uaddCarry, umulExtended).

uvec2 add64(uvec2 a, uvec2 b) { uint carry; uint lo = uaddCarry(a.x, b.x, carry); return uvec2(lo, a.y + b.y + carry); }
uvec2 sub64(uvec2 a, uvec2 b) { uint borrow; uint lo = usubBorrow(a.x, b.x, borrow); return uvec2(lo, a.y - b.y - borrow); }
uvec2 neg64(uvec2 a) { return add64(uvec2(~a.x, ~a.y), uvec2(1u, 0u)); }
uvec2 mul64u(uvec2 a, uint b) { uint hi, lo; umulExtended(a.x, b, hi, lo); return uvec2(lo, a.y * b + hi); }
// a &* Int64(b): for b < 0, -(a &* |b|) (|b| < 2^31 for a pixel coordinate).
uvec2 mul64(uvec2 a, int b) { return b >= 0 ? mul64u(a, uint(b)) : neg64(mul64u(a, uint(-b))); }
bool negative64(uvec2 a) { return int(a.y) < 0; }
// Signed a < b.
bool less64(uvec2 a, uvec2 b) { return int(a.y) < int(b.y) || (a.y == b.y && a.x < b.x); }
// Unsigned a < b.
bool lessU64(uvec2 a, uvec2 b) { return a.y < b.y || (a.y == b.y && a.x < b.x); }

// base + stepX x + stepY y (FixedAffine.at).
uvec2 affineAt(uvec2 base, uvec2 stepX, uvec2 stepY, ivec2 p) { return add64(add64(base, mul64(stepX, p.x)), mul64(stepY, p.y)); }

// u mod m for m > 0, floor semantics (FixedImageAxis.modulo), by binary long division from
// u's highest set bit (the zero bits above it change nothing). The trip count depends on the
// data, so a shader compiler cannot unroll it into a 64-step straight line (llvmpipe's JIT
// took minutes over that).
uvec2 modU64(uvec2 u, uvec2 m) {
    uvec2 r = uvec2(0u);
    int top = u.y != 0u ? 32 + findMSB(u.y) : findMSB(u.x);
    for (int i = top; i >= 0; i--) {
        uint bit = i >= 32 ? (u.y >> uint(i - 32)) & 1u : (u.x >> uint(i)) & 1u;
        r = uvec2((r.x << 1) | bit, (r.y << 1) | (r.x >> 31));
        if (!lessU64(r, m)) r = sub64(r, m);
    }
    return r;
}
uvec2 modulo64(uvec2 u, uvec2 m) {
    bool negative = negative64(u);
    uvec2 r = modU64(negative ? neg64(u) : u, m);   // one division loop per call
    return (!negative || (r.x == 0u && r.y == 0u)) ? r : sub64(m, r);
}

// floor(q / 2^24) clamped to +-2^30, and the 8-bit weight (q >> 16) & 255 (FixedImageAxis.pair).
int floorQ24(uvec2 q) {
    int hi = int(q.y);
    if (hi >= (1 << 22)) return 1 << 30;
    if (hi < -(1 << 22)) return -(1 << 30);
    return (hi << 8) | int(q.x >> 24);
}
int weightQ24(uvec2 q) { return int((q.x >> 16) & 255u); }

// The rest serves the radial gradient (RadialGradientPlan.swift) and mip levels.

// Int64(a) * Int64(b), exact.
uvec2 imul64(int a, int b) { int hi, lo; imulExtended(a, b, hi, lo); return uvec2(uint(lo), uint(hi)); }
uvec2 int64(int a) { return uvec2(uint(a), a < 0 ? 0xFFFFFFFFu : 0u); }
// Swift's a &* b on Int64 (the low 64 bits of the product, whatever the signs).
uvec2 mul64x64(uvec2 a, uvec2 b) {
    uint hi, lo; umulExtended(a.x, b.x, hi, lo);
    return uvec2(lo, hi + a.x * b.y + a.y * b.x);
}
// a >> n for n in 0...63, extending the sign (Swift's >> on Int64).
uvec2 shr64(uvec2 a, int n) {
    if (n == 0) return a;
    if (n < 32) return uvec2((a.x >> uint(n)) | (a.y << uint(32 - n)), uint(int(a.y) >> n));
    return uvec2(uint(int(a.y) >> (n - 32)), uint(int(a.y) >> 31));
}
// a << n for n in 0...31.
uvec2 shl64(uvec2 a, int n) { return n == 0 ? a : uvec2(a.x << uint(n), (a.y << uint(n)) | (a.x >> uint(32 - n))); }
uvec2 abs64(uvec2 a) { return negative64(a) ? neg64(a) : a; }
// The number of significant bits of an unsigned 64-bit value (0 for 0).
int bitWidth64(uvec2 a) { return a.y != 0u ? 33 + findMSB(a.y) : (a.x != 0u ? 1 + findMSB(a.x) : 0); }

// floor(u / m) for m > 0, by binary long division from u's highest set bit (as modU64).
uvec2 divU64(uvec2 u, uvec2 m) {
    uvec2 q = uvec2(0u), r = uvec2(0u);
    for (int i = bitWidth64(u) - 1; i >= 0; i--) {
        uint bit = i >= 32 ? (u.y >> uint(i - 32)) & 1u : (u.x >> uint(i)) & 1u;
        r = uvec2((r.x << 1) | bit, (r.y << 1) | (r.x >> 31));
        q = uvec2(q.x << 1, (q.y << 1) | (q.x >> 31));
        if (!lessU64(r, m)) { r = sub64(r, m); q.x |= 1u; }
    }
    return q;
}
// n / d truncated towards zero (Swift's / on Int64), d != 0.
uvec2 quotient64(uvec2 n, uvec2 d) {
    uvec2 q = divU64(abs64(n), abs64(d));
    return negative64(n) != negative64(d) ? neg64(q) : q;
}

// floor(sqrt(n)) for n < 2^63: the root fits 32 bits; each bit from the top is kept when the
// square of the root so far stays within n (exact; RadialGradientPlan.squareRoot).
uint squareRoot64(uvec2 n) {
    uint root = 0u;
    for (int i = (bitWidth64(n) + 1) / 2 - 1; i >= 0; i--) {
        uint candidate = root | (1u << uint(i));
        uint hi, lo; umulExtended(candidate, candidate, hi, lo);
        if (!lessU64(n, uvec2(lo, hi))) root = candidate;
    }
    return root;
}
