// paint: the op's source colour at a device pixel as U8 premultiplied, the
// twin of PenumbraCPU's shaders (Shader.swift, ImageShader.swift,
// GradientShaders.swift), both executing the draw's PaintPlan (Core). Images and layers follow the shared
// ImageSamplingPlan in 64-bit fixed point (fixed64.glsl) and mix their texels
// with 8-bit weights, exactly as the CPU (docs/ARITHMETIC.md). Gradients take
// their parameter from GradientPlan's integers (a Q24 map for a linear one,
// RadialGradientPlan's 64-bit solve for a radial one) and their colour from
// the integer ramp. A gradient side that draws nothing sets the coverage to 0.

// The paint's integers: GPUPaint writes them from the draw's PaintPlan (Core) into this block,
// mirrored field for field by PaintBlock (UniformBlocks.swift). 64-bit values are (low, high) in
// .xy of a uvec4. Images and placed pixels: ImageSamplingPlan's axes (Q24). Per axis a:
// uDistance[3a + k] (base, stepX, stepY), uThreshold[2a + k] (leading end, trailing start), per
// region r of axis a (i = 3a + r): uRegionMap[3i + k], uRegionTile[2i + k] (tile length, tile
// start), uRegionSpan[i].xy (first, last). The mip levels (ImageSamplingPlan.levels): per region
// pair i = 3 ry + rx, uMipLevel[i] = (level, atlas origin x, y, 0) and uMipLast[i].xy its last
// texel; level 0 reads the image, levels above read the draw's mip atlas uMipmaps (built by the
// CPU: MipCache).
layout(std140, binding = BLOCK_PAINT) uniform PaintBlock {
    // Ordered by what each kind reads (a draw uploads only its kind's prefix): a solid paint
    // the first two fields, a gradient up to uRadialQ, an image or placed pixels all.
    ivec4 uSolid8;             // a solid paint, U8 premultiplied
    ivec4 uPaintInfo;          // paint kind (generic program), has tint (placed: luminance to alpha), nearest, stop count
    ivec4 uGradientInfo;       // extend start, extend end, radial A24
    ivec4 uRadialGeometry;     // cd.x, cd.y, r0, dr (Q16)
    uvec4 uLinear[3];          // a linear gradient's t24: base, stepX, stepY (Q24)
    uvec4 uRadialQ[6];         // RadialGradientPlan's qx and qy: base, stepX, stepY (Q24)
    ivec4 uTint8;              // a template image's tint, U8 premultiplied
    ivec4 uPlacedRect;         // placed pixels: their size in .zw
    uvec4 uDistance[6];
    uvec4 uThreshold[4];
    uvec4 uRegionMap[18];
    uvec4 uRegionTile[12];
    ivec4 uRegionSpan[6];
    ivec4 uMipLevel[9];
    ivec4 uMipLast[9];
};

// PAINT_SOLID ... PAINT_PLACED (defined from GPUPaint.Kind by ShaderConstants): a constant in a
// specialised program (the compiler drops the other paints), else the block's.
#ifndef PAINT_KIND
#define PAINT_KIND uPaintInfo.x
#endif

layout(binding = UNIT_IMAGE) uniform usampler2D uImage;
layout(binding = UNIT_MIPMAPS) uniform usampler2D uMipmaps;
// Placed pixels (a finished layer, a blurred backdrop); texels outside them read as 0.
layout(binding = UNIT_LAYER) uniform sampler2D uLayer;
// Gradients: rows: 0 the ramp's U8 colours, 1 its Q16 offsets.
layout(binding = UNIT_STOPS) uniform sampler2D uStops;

// FixedImageAxis.regionIndex: 0, 1 or 2.
int axisRegion(int axis, ivec2 p) {
    uvec2 leading = uThreshold[2 * axis].xy, trailing = uThreshold[2 * axis + 1].xy;
    bool sliced = !(leading == uvec2(0u, 0x80000000u) && trailing == uvec2(0xFFFFFFFFu, 0x7FFFFFFFu));
    if (!sliced) return 1;
    uvec2 d = affineAt(uDistance[3 * axis].xy, uDistance[3 * axis + 1].xy, uDistance[3 * axis + 2].xy, p);
    return less64(d, leading) ? 0 : (less64(d, trailing) ? 1 : 2);
}

// FixedImageAxis.position: q at level 0 in the region (tiles folded).
uvec2 axisPosition(int axis, int region, ivec2 p) {
    int i = 3 * axis + region;
    uvec2 q = affineAt(uRegionMap[3 * i].xy, uRegionMap[3 * i + 1].xy, uRegionMap[3 * i + 2].xy, p);
    uvec2 tile = uRegionTile[2 * i].xy;
    if (tile != uvec2(0u)) q = add64(uRegionTile[2 * i + 1].xy, modulo64(q, tile));
    return q;
}

// FixedImageAxis.pair: the texel pair and the weight.
ivec3 texelPair(uvec2 q, int first, int last) {
    int i = floorQ24(q);
    return ivec3(clamp(i, first, last), clamp(i + 1, first, last), weightQ24(q));
}

// FixedImageAxis.nearest: the texel under q + 0.5, the lower one on a boundary.
ivec3 nearestTexel(uvec2 q, int first, int last) {
    int t = clamp(floorQ24(add64(q, uvec2(0x7FFFFFu, 0u))), first, last);
    return ivec3(t, t, 0);
}

// FixedImageAxis.levelPair: qL = ((q - first 2^24 + 2^23) >> level) - 2^23, clamped to 0...last, + origin.
ivec3 levelPair(uvec2 q, int first, int level, int last, int origin) {
    uvec2 local = add64(sub64(q, uvec2(uint(first) << 24, uint(first >> 8))), uvec2(0x800000u, 0u));
    ivec3 t = texelPair(sub64(shr64(local, level), uvec2(0x800000u, 0u)), 0, last);
    return ivec3(t.x + origin, t.y + origin, t.z);
}

ivec4 imageTexel(int x, int y, bool atlas) {
    if (PAINT_KIND == PAINT_PLACED) {
        if (x < 0 || y < 0 || x >= uPlacedRect.z || y >= uPlacedRect.w) return ivec4(0);
        return ivec4(unormBytes(texelFetch(uLayer, ivec2(x, y), 0)));
    }
    if (atlas) return ivec4(texelFetch(uMipmaps, ivec2(x, y), 0));
    return ivec4(texelFetch(uImage, ivec2(x, y), 0));
}

// bilinearMix (ImageSamplingPlan.swift).
ivec4 imageBilinear(ivec3 h, ivec3 v, bool atlas) {
    int wx = h.z, wy = v.z;
    ivec4 top = imageTexel(h.x, v.x, atlas) * (256 - wx) + imageTexel(h.y, v.x, atlas) * wx;
    ivec4 bottom = imageTexel(h.x, v.y, atlas) * (256 - wx) + imageTexel(h.y, v.y, atlas) * wx;
    return (top * (256 - wy) + bottom * wy + 32768) >> 16;
}

// ImageSamplingPlan.sample and the mix: the image's (or layer's) colour at device pixel p.
ivec4 imageSample(ivec2 p) {
    int rx = axisRegion(0, p), ry = axisRegion(1, p);
    uvec2 qx = axisPosition(0, rx, p), qy = axisPosition(1, ry, p);
    ivec2 sx = uRegionSpan[rx].xy, sy = uRegionSpan[3 + ry].xy;
    if (uPaintInfo.z != 0) return imageBilinear(nearestTexel(qx, sx.x, sx.y), nearestTexel(qy, sy.x, sy.y), false);
    ivec4 l = uMipLevel[3 * ry + rx];
    if (l.x == 0) return imageBilinear(texelPair(qx, sx.x, sx.y), texelPair(qy, sy.x, sy.y), false);
    ivec2 last = uMipLast[3 * ry + rx].xy;
    return imageBilinear(levelPair(qx, sx.x, l.x, last.x, l.y), levelPair(qy, sy.x, l.x, last.y, l.z), true);
}

// GradientRamp.color(atQ16:), t16 in [0, 65536].
ivec4 rampColor16(int t16) {
    int n = uPaintInfo.w;
    if (n == 0) return ivec4(0);
    if (t16 < int(texelFetch(uStops, ivec2(0, 1), 0).r)) return ivec4(texelFetch(uStops, ivec2(0, 0), 0));
    if (t16 >= int(texelFetch(uStops, ivec2(n - 1, 1), 0).r)) return ivec4(texelFetch(uStops, ivec2(n - 1, 0), 0));
    int i = 0;
    while (i + 1 < n && int(texelFetch(uStops, ivec2(i + 1, 1), 0).r) <= t16) i++;
    int o0 = int(texelFetch(uStops, ivec2(i, 1), 0).r), o1 = int(texelFetch(uStops, ivec2(i + 1, 1), 0).r);
    int f = int((uint(t16 - o0) << 16) / uint(o1 - o0));
    ivec4 c0 = ivec4(texelFetch(uStops, ivec2(i, 0), 0)), c1 = ivec4(texelFetch(uStops, ivec2(i + 1, 0), 0));
    return (c0 * (65536 - f) + c1 * f + 32768) >> 16;
}

// GradientRamp.color(atQ24:).
ivec4 rampColor(uvec2 t24) {
    return rampColor16(negative64(t24) ? 0 : ((t24.y != 0u || t24.x > 16777216u) ? 65536 : int((t24.x + 128u) >> 8)));
}

// RadialGradientPlan.draws: a non-negative radius where the gradient draws.
bool radialDraws(uvec2 t) {
    if (negative64(add64(shl64(int64(uRadialGeometry.z), 16), mul64(t, uRadialGeometry.w)))) return false;
    return negative64(t) ? uGradientInfo.x != 0 : (less64(uvec2(65536u, 0u), t) ? uGradientInfo.y != 0 : true);
}

// RadialGradientPlan.clampedQuotient.
uvec2 radialQuotient(uvec2 n, uvec2 d) {
    uvec2 q = quotient64(n, d), limit = uvec2(0u, 256u);
    return less64(limit, q) ? limit : (less64(q, neg64(limit)) ? neg64(limit) : q);
}

// RadialGradientPlan.parameter: t16 at p; false where nothing is drawn.
bool radialT16(ivec2 p, out uvec2 t) {
    uvec2 px = affineAt(uRadialQ[0].xy, uRadialQ[1].xy, uRadialQ[2].xy, p);
    uvec2 py = affineAt(uRadialQ[3].xy, uRadialQ[4].xy, uRadialQ[5].xy, p);
    uvec2 ax = abs64(px), ay = abs64(py);
    int shift = 8 + max(0, bitWidth64(lessU64(ax, ay) ? ay : ax) - 34);
    int qx = int(shr64(px, shift).x), qy = int(shr64(py, shift).x);
    ivec4 g = uRadialGeometry;   // cd.x, cd.y, r0, dr (Q16)
    uvec2 b = shr64(add64(add64(add64(imul64(qx, g.x), imul64(qy, g.y)), imul64(g.z, g.w)), uvec2(32768u, 0u)), 16);
    uvec2 c = sub64(add64(imul64(qx, qx), imul64(qy, qy)), imul64(g.z, g.z));
    uvec2 c16 = shr64(add64(c, uvec2(32768u, 0u)), 16);
    uvec2 disc = sub64(mul64x64(b, b), shr64(add64(mul64(c16, uGradientInfo.z), uvec2(128u, 0u)), 8));
    if (negative64(disc)) return false;
    uvec2 root = uvec2(squareRoot64(disc), 0u);
    uvec2 s = negative64(b) ? sub64(b, root) : add64(b, root);
    bool hasA = uGradientInfo.z != 0, hasC = s != uvec2(0u);
    uvec2 ta = hasA ? radialQuotient(shl64(s, 24), int64(uGradientInfo.z)) : uvec2(0u);
    uvec2 tc = hasC ? radialQuotient(c, s) : uvec2(0u);
    if (!hasA && !hasC) return false;
    uvec2 high = !hasC ? ta : (!hasA ? tc : (less64(ta, tc) ? tc : ta));
    if (radialDraws(high)) { t = high; return true; }
    if (!hasA || !hasC) return false;
    uvec2 low = less64(ta, tc) ? ta : tc;
    if (radialDraws(low)) { t = low; return true; }
    return false;
}

// The paint at device pixel p as U8 premultiplied; may set coverage to 0 where a gradient
// draws nothing. Every paint is integer arithmetic on the plan's integers.
ivec4 paint8(ivec2 p, inout int coverage) {
    if (PAINT_KIND == PAINT_SOLID) return uSolid8;
    if (PAINT_KIND == PAINT_IMAGE || PAINT_KIND == PAINT_PLACED) {
        ivec4 c = imageSample(p);
        if (PAINT_KIND == PAINT_IMAGE && uPaintInfo.y != 0) return div255(uTint8 * c.w);
        // A layer composited as a luminance mask (LuminanceMask.swift).
        if (PAINT_KIND == PAINT_PLACED && uPaintInfo.y != 0) return ivec4(0, 0, 0, luminanceAlpha(c));
        return c;
    }
    if (PAINT_KIND == PAINT_LINEAR) {
        uvec2 t24 = affineAt(uLinear[0].xy, uLinear[1].xy, uLinear[2].xy, p);
        bool draws = negative64(t24) ? uGradientInfo.x != 0 : ((t24.y != 0u || t24.x > 16777216u) ? uGradientInfo.y != 0 : true);
        if (!draws) { coverage = 0; return ivec4(0); }
        return rampColor(t24);
    }
    // PAINT_KIND == PAINT_RADIAL, the last kind.
    uvec2 t;
    if (!radialT16(p, t)) { coverage = 0; return ivec4(0); }
    return rampColor16(negative64(t) ? 0 : (less64(uvec2(65536u, 0u), t) ? 65536 : int(t.x)));
}
