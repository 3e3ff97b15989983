// colorfilter: the colour filters of SCENE_FORMAT.md's table (colorControls
// to vignette), the twin of PenumbraCore's ColorFilterKernel.swift formula for
// formula: the premultiplied U8 pixel un-premultiplied to Q12, the op on
// 64-bit integers (uvec2, fixed64.glsl: every product and sum is Swift's
// Int64 one, every roundQ12 the same (x + 2048) >> 12 with the sign
// extended), the result clamped to 0...4096 and premultiplied back with
// (C a + 2048) >> 12. COLOR_OP picks the op (ColorFilterKernel.portable's
// numbering); uColorParams (filterblock.glsl) holds its Q12 parameters as 64-bit words and
// uGammaTable gammaAdjust's 4097 values, four to an RGBA32F texel, 64 texels a row.
#ifndef COLOR_OP
#define COLOR_OP 0
#endif
layout(binding = UNIT_GAMMA_TABLE) uniform sampler2D uGammaTable;

uvec2 roundQ12x64(uvec2 x) { return shr64(add64(x, uvec2(2048u, 0u)), 12); }
uvec2 mulQ12x64(uvec2 a, uvec2 b) { return roundQ12x64(mul64x64(a, b)); }
// min(hi, max(lo, x)) as an int, for bounds that fit 32 bits.
int clampToInt(uvec2 x, int lo, int hi) {
    if (less64(x, int64(lo))) return lo;
    if (less64(int64(hi), x)) return hi;
    return int(x.x);
}
int lumaQ12(int r, int g, int b) { return (13933 * r + 46871 * g + 4732 * b + 32768) >> 16; }
uvec2 P(int i) { return uColorParams[i].xy; }
int gammaValue(int v) {
    int t = v >> 2;
    return int(texelFetch(uGammaTable, ivec2(t & 63, t >> 6), 0)[v & 3]);
}

// ColorFilterKernel.distanceQ8 and smoothstepQ12.
uvec2 distanceQ8(ivec2 p, uvec2 cx, uvec2 cy) {
    uvec2 dx = sub64(add64(shl64(int64(p.x), 8), uvec2(128u, 0u)), cx);
    uvec2 dy = sub64(add64(shl64(int64(p.y), 8), uvec2(128u, 0u)), cy);
    uvec2 sq = add64(mul64x64(dx, dx), mul64x64(dy, dy));
    uvec2 limit = uvec2(0u, 0x40000000u);   // 2^62
    if (less64(limit, sq)) sq = limit;
    return uvec2(squareRoot64(sq), 0u);
}
int smoothstepQ12(uvec2 e0, uvec2 e1, uvec2 d) {
    int t;
    if (!less64(d, e1)) t = 4096;
    else if (!less64(e0, d)) t = 0;
    else t = int(quotient64(shl64(sub64(d, e0), 12), sub64(e1, e0)).x);
    return roundQ12(roundQ12(t * t) * (3 * 4096 - 2 * t));
}

ivec4 colorFilter(ivec4 p, ivec2 xy) {
    int a = p.w;
    int r0 = unpremultipliedQ12(p.x, a), g0 = unpremultipliedQ12(p.y, a), b0 = unpremultipliedQ12(p.z, a);
    uvec2 r = int64(r0), g = int64(g0), b = int64(b0);
    int alpha = a;
#if COLOR_OP == 0
    // controls: saturation around luma, brightness, contrast around 0.5.
    uvec2 l = int64(lumaQ12(r0, g0, b0));
    uvec2 c[3] = uvec2[3](r, g, b);
    for (int i = 0; i < 3; i++) {
        uvec2 saturated = add64(add64(l, mulQ12x64(P(0), sub64(c[i], l))), P(1));
        if (less64(saturated, uvec2(0x80000000u, 0xFFFFFFFFu))) saturated = uvec2(0x80000000u, 0xFFFFFFFFu);
        if (less64(uvec2(0x80000000u, 0u), saturated)) saturated = uvec2(0x80000000u, 0u);
        c[i] = add64(mulQ12x64(sub64(saturated, uvec2(2048u, 0u)), P(2)), uvec2(2048u, 0u));
    }
    r = c[0]; g = c[1]; b = c[2];
#elif COLOR_OP == 1
    // matrix: rows r, g, b, a over (r, g, b, a in Q12), plus the bias.
    uvec2 v[4] = uvec2[4](r, g, b, int64((a * 8192 + 255) / 510));
    uvec2 rows[4];
    for (int i = 0; i < 4; i++) {
        uvec2 sum = uvec2(0u);
        for (int j = 0; j < 4; j++) sum = add64(sum, mul64x64(P(4 * i + j), v[j]));
        rows[i] = add64(roundQ12x64(sum), P(16 + i));
    }
    int outA = clampToInt(rows[3], 0, 4096);
    r = rows[0]; g = rows[1]; b = rows[2];
    alpha = (outA * 255 + 2048) >> 12;
#elif COLOR_OP == 2
    // mixMatrix: mix(C, M C, intensity).
    uvec2 mr = roundQ12x64(add64(add64(mul64x64(P(0), r), mul64x64(P(1), g)), mul64x64(P(2), b)));
    uvec2 mg = roundQ12x64(add64(add64(mul64x64(P(3), r), mul64x64(P(4), g)), mul64x64(P(5), b)));
    uvec2 mb = roundQ12x64(add64(add64(mul64x64(P(6), r), mul64x64(P(7), g)), mul64x64(P(8), b)));
    r = add64(r, mulQ12x64(P(9), sub64(mr, r)));
    g = add64(g, mulQ12x64(P(9), sub64(mg, g)));
    b = add64(b, mulQ12x64(P(9), sub64(mb, b)));
#elif COLOR_OP == 3
    // monochrome: mix(C, luma x colour, intensity).
    uvec2 l = int64(lumaQ12(r0, g0, b0));
    uvec2 mr = mulQ12x64(l, P(0)), mg = mulQ12x64(l, P(1)), mb = mulQ12x64(l, P(2));
    r = add64(r, mulQ12x64(P(3), sub64(mr, r)));
    g = add64(g, mulQ12x64(P(3), sub64(mg, g)));
    b = add64(b, mulQ12x64(P(3), sub64(mb, b)));
#elif COLOR_OP == 4
    r = mulQ12x64(r, P(0)); g = mulQ12x64(g, P(0)); b = mulQ12x64(b, P(0));
#elif COLOR_OP == 5
    r = int64(gammaValue(r0)); g = int64(gammaValue(g0)); b = int64(gammaValue(b0));
#elif COLOR_OP == 6
    r = int64(4096 - r0); g = int64(4096 - g0); b = int64(4096 - b0);
#else
    // vignette: C x (1 - intensity x smoothstep(inner, outer, distance)).
    uvec2 f = sub64(uvec2(4096u, 0u), mulQ12x64(P(4), int64(smoothstepQ12(P(2), P(3), distanceQ8(xy, P(0), P(1))))));
    r = mulQ12x64(r, f); g = mulQ12x64(g, f); b = mulQ12x64(b, f);
#endif
    return ivec4((clampToInt(r, 0, 4096) * alpha + 2048) >> 12, (clampToInt(g, 0, 4096) * alpha + 2048) >> 12,
                 (clampToInt(b, 0, 4096) * alpha + 2048) >> 12, alpha);
}
