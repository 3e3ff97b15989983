// paint: the op's source colour at a device pixel as U8 premultiplied, the
// twin of PenumbraCPU's shaders (Shader.swift, ImageShader.swift,
// GradientShader.swift). Images and layers follow the shared
// ImageSamplingPlan in 64-bit fixed point (fixed64.glsl) and mix their texels
// with 8-bit weights, exactly as the CPU (docs/ARITHMETIC.md). Gradients are
// still Float: the Swift side evaluates, in Double, the paint coordinate at
// the pixel centre of uPaintOrigin (shifted by a shadow offset) and its steps
// per pixel, so the shader only adds small multiples:
//     value = uMap0 + uMapX * dx + uMapY * dy,   (dx, dy) = p - uPaintOrigin;
// x is the linear parameter t; for radial gradients the value is p - c0 in
// user space. A gradient side that draws nothing sets the coverage to 0.

// 0 solid, 1 image, 2 linear, 3 radial, 4 layer: a constant in a specialised program (the
// compiler drops the other paints), else a uniform.
#ifndef PAINT_KIND
uniform int uPaintKind;
#define PAINT_KIND uPaintKind
#endif
uniform ivec4 uSolid8;             // a solid paint, U8 premultiplied
uniform ivec2 uPaintOrigin;
uniform vec2 uMap0;
uniform vec2 uMapX;
uniform vec2 uMapY;

// Images and layers: ImageSamplingPlan's axes (Q24 values as uvec2). Per axis a:
// uDistance[3a + k] (base, stepX, stepY), uThreshold[2a + k] (leading end,
// trailing start), per region r of axis a (i = 3a + r): uRegionMap[3i + k],
// uRegionTile[2i + k] (tile length, tile start), uRegionSpan[i] (first, last).
uniform usampler2D uImage;
uniform uvec2 uDistance[6];
uniform uvec2 uThreshold[4];
uniform uvec2 uRegionMap[18];
uniform uvec2 uRegionTile[12];
uniform ivec2 uRegionSpan[6];
uniform int uHasTint;
uniform ivec4 uTint8;              // premultiplied U8
// `none`, and the mip levels (ImageSamplingPlan.levels): per region pair i = 3 ry + rx,
// uMipLevel[i] = (level, atlas origin x, y, 0) and uMipLast[i] = its last texel; level 0 reads
// the image, levels above read the draw's mip atlas uMipmaps (built by the CPU: MipCache).
uniform int uNearest;
uniform ivec4 uMipLevel[9];
uniform ivec2 uMipLast[9];
uniform usampler2D uMipmaps;

// Layers: the finished layer's texture; texels outside it read as 0.
uniform sampler2D uLayer;
uniform ivec4 uLayerRect;          // the layer's size in .zw

// Gradients
uniform sampler2D uStops;          // rows: 0 colours, 1 offsets (radial, float); 2 U8 colours, 3 Q16 offsets
uniform uvec2 uLinear[3];          // a linear gradient's t24: base, stepX, stepY (Q24)
uniform int uStopCount;
uniform ivec2 uExtend;             // start, end
uniform vec4 uRadial;              // cd.x, cd.y, r0, dr
uniform float uRadialA;
uniform int uRadialDegenerate;

// FixedImageAxis.regionIndex: 0, 1 or 2.
int axisRegion(int axis, ivec2 p) {
    uvec2 leading = uThreshold[2 * axis], trailing = uThreshold[2 * axis + 1];
    bool sliced = !(leading == uvec2(0u, 0x80000000u) && trailing == uvec2(0xFFFFFFFFu, 0x7FFFFFFFu));
    if (!sliced) return 1;
    uvec2 d = affineAt(uDistance[3 * axis], uDistance[3 * axis + 1], uDistance[3 * axis + 2], p);
    return less64(d, leading) ? 0 : (less64(d, trailing) ? 1 : 2);
}

// FixedImageAxis.position: q at level 0 in the region (tiles folded).
uvec2 axisPosition(int axis, int region, ivec2 p) {
    int i = 3 * axis + region;
    uvec2 q = affineAt(uRegionMap[3 * i], uRegionMap[3 * i + 1], uRegionMap[3 * i + 2], p);
    uvec2 tile = uRegionTile[2 * i];
    if (tile != uvec2(0u)) q = add64(uRegionTile[2 * i + 1], modulo64(q, tile));
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
    if (PAINT_KIND == 4) {
        if (x < 0 || y < 0 || x >= uLayerRect.z || y >= uLayerRect.w) return ivec4(0);
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
    ivec2 sx = uRegionSpan[rx], sy = uRegionSpan[3 + ry];
    if (uNearest != 0) return imageBilinear(nearestTexel(qx, sx.x, sx.y), nearestTexel(qy, sy.x, sy.y), false);
    ivec4 l = uMipLevel[3 * ry + rx];
    if (l.x == 0) return imageBilinear(texelPair(qx, sx.x, sx.y), texelPair(qy, sy.x, sy.y), false);
    ivec2 last = uMipLast[3 * ry + rx];
    return imageBilinear(levelPair(qx, sx.x, l.x, last.x, l.y), levelPair(qy, sy.x, l.x, last.y, l.z), true);
}

bool gradientDraws(float t) { return t < 0.0 ? uExtend.x != 0 : (t > 1.0 ? uExtend.y != 0 : true); }

float stopOffset(int i) { return texelFetch(uStops, ivec2(i, 1), 0).r; }
vec4 stopColor(int i) { return texelFetch(uStops, ivec2(i, 0), 0); }

vec4 gradientColor(float t) {
    if (uStopCount == 0) return vec4(0.0);
    if (t < stopOffset(0)) return stopColor(0);
    if (t >= stopOffset(uStopCount - 1)) return stopColor(uStopCount - 1);
    int i = 0;
    while (i + 1 < uStopCount && stopOffset(i + 1) <= t) i++;
    precise float span = stopOffset(i + 1) - stopOffset(i);
    if (!(span > 0.0)) return stopColor(i + 1);
    precise float f = (t - stopOffset(i)) / span;
    precise vec4 c = stopColor(i) + (stopColor(i + 1) - stopColor(i)) * f;
    return c;
}

// GradientRamp.color(atQ24:).
ivec4 rampColor(uvec2 t24) {
    int t16 = negative64(t24) ? 0 : ((t24.y != 0u || t24.x > 16777216u) ? 65536 : int((t24.x + 128u) >> 8));
    int n = uStopCount;
    if (n == 0) return ivec4(0);
    if (t16 < int(texelFetch(uStops, ivec2(0, 3), 0).r)) return ivec4(texelFetch(uStops, ivec2(0, 2), 0));
    if (t16 >= int(texelFetch(uStops, ivec2(n - 1, 3), 0).r)) return ivec4(texelFetch(uStops, ivec2(n - 1, 2), 0));
    int i = 0;
    while (i + 1 < n && int(texelFetch(uStops, ivec2(i + 1, 3), 0).r) <= t16) i++;
    int o0 = int(texelFetch(uStops, ivec2(i, 3), 0).r), o1 = int(texelFetch(uStops, ivec2(i + 1, 3), 0).r);
    int f = int((uint(t16 - o0) << 16) / uint(o1 - o0));
    ivec4 c0 = ivec4(texelFetch(uStops, ivec2(i, 2), 0)), c1 = ivec4(texelFetch(uStops, ivec2(i + 1, 2), 0));
    return (c0 * (65536 - f) + c1 * f + 32768) >> 16;
}

// The radial parameter (GradientShader.parameter); false where nothing is drawn.
bool radialParameter(vec2 pd, out float t) {
    vec2 cd = uRadial.xy; float r0 = uRadial.z, dr = uRadial.w;
    precise float b = dot(pd, cd) + r0 * dr;
    precise float c = dot(pd, pd) - r0 * r0;
    if (uRadialDegenerate != 0) {
        if (b == 0.0) return false;
        t = c / (2.0 * b);
        return r0 + t * dr >= 0.0 && gradientDraws(t);
    }
    precise float disc = b * b - uRadialA * c;
    if (!(disc >= 0.0)) return false;
    precise float root = sqrt(disc);
    precise float t1 = (b + root) / uRadialA;
    precise float t2 = (b - root) / uRadialA;
    float hi = t1 > t2 ? t1 : t2, lo = t1 > t2 ? t2 : t1;
    if (r0 + hi * dr >= 0.0 && gradientDraws(hi)) { t = hi; return true; }
    if (r0 + lo * dr >= 0.0 && gradientDraws(lo)) { t = lo; return true; }
    return false;
}

// The paint at device pixel p as U8 premultiplied; may set coverage to 0 where a gradient
// draws nothing. Solid colours arrive as bytes; images and layers are sampled in fixed
// point; gradients are computed in float and stored by unit8.
ivec4 paint8(ivec2 p, inout int coverage) {
    if (PAINT_KIND == 0) return uSolid8;
    if (PAINT_KIND == 1 || PAINT_KIND == 4) {
        ivec4 c = imageSample(p);
        if (PAINT_KIND == 1 && uHasTint != 0) return div255(uTint8 * c.w);
        return c;
    }
    if (PAINT_KIND == 2) {
        uvec2 t24 = affineAt(uLinear[0], uLinear[1], uLinear[2], p);
        bool draws = negative64(t24) ? uExtend.x != 0 : ((t24.y != 0u || t24.x > 16777216u) ? uExtend.y != 0 : true);
        if (!draws) { coverage = 0; return ivec4(0); }
        return rampColor(t24);
    }
    vec2 rel = vec2(p - uPaintOrigin);
    precise vec2 value = uMap0 + uMapX * rel.x + uMapY * rel.y;
    float t;
    if (!radialParameter(value, t)) { coverage = 0; return ivec4(0); }
    return unit8(gradientColor(min(1.0, max(0.0, t))));
}
