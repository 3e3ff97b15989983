// filter: one per-pixel pass of a filter graph on the GPU (GPUFilterEvaluator),
// the twin of FilterEvaluator's per-pixel work in PenumbraCore. Images are
// RGBA8 textures holding premultiplied bytes exactly (read back to bytes with
// floor(v x 255 + 0.5), written as byte / 255), each placed on the graph's
// pixel grid by a rect (x, y, width, height): texel (0, 0) is pixel (x, y),
// and every pixel outside the rect reads as transparent, as outside a node's
// extent. The target's texel (0, 0) is graph pixel uFilterOrigin.xy. FILTER_OP picks
// the pass (GPUFilterPass.Op, as FILTER_ defines):
//   colour      colorfilter.glsl on input 0
//   unsharp     c + roundQ12(k (c - blur)) per colour lane, clamped to 0...alpha, alpha kept
//               (input 0 the original, input 1 its blur)
//   mask        mix(background, source, luma of the mask): div255(bg (255 - m) + s m),
//               m = (13933 r + 46871 g + 4732 b + 32768) >> 16 of the mask's premultiplied bytes
//               (inputs: source, mask, background)
//   composite   blend.glsl's blendColor(BLEND_MODE, source, background), coverage 1
//   clamp       input 0 at the pixel's coordinates clamped into uClampExtent
//   constant    uConstant
//! include header.glsl
//! include fixed.glsl
//! include fixed64.glsl
//! include blend.glsl
//! include filterblock.glsl
//! include colorfilter.glsl

#ifndef FILTER_OP
#define FILTER_OP 0
#endif
layout(binding = UNIT_FILTER0) uniform sampler2D uFilterInput0;
layout(binding = UNIT_FILTER1) uniform sampler2D uFilterInput1;
layout(binding = UNIT_FILTER2) uniform sampler2D uFilterInput2;

out vec4 fragColor;

ivec4 readImage(sampler2D image, ivec4 rect, ivec2 p) {
    ivec2 q = p - rect.xy;
    if (q.x < 0 || q.y < 0 || q.x >= rect.z || q.y >= rect.w) return ivec4(0);
    return ivec4(floor(texelFetch(image, q, 0) * 255.0 + 0.5));
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy) + uFilterOrigin.xy;
    ivec4 result;
#if FILTER_OP == FILTER_COLOR
    result = colorFilter(readImage(uFilterInput0, uInputRect[0], p), p);
#elif FILTER_OP == FILTER_UNSHARP
    ivec4 c = readImage(uFilterInput0, uInputRect[0], p), blurred = readImage(uFilterInput1, uInputRect[1], p);
    result = c;
    for (int i = 0; i < 3; i++) {
        int sharpened = c[i] + int(roundQ12x64(mul64x64(uIntensity.xy, int64(c[i] - blurred[i]))).x);
        result[i] = clamp(sharpened, 0, c.w);
    }
#elif FILTER_OP == FILTER_MASK
    ivec4 s = readImage(uFilterInput0, uInputRect[0], p), m = readImage(uFilterInput1, uInputRect[1], p);
    ivec4 background = readImage(uFilterInput2, uInputRect[2], p);
    int k = (13933 * m.x + 46871 * m.y + 4732 * m.z + 32768) >> 16;
    result = div255(background * (255 - k) + s * k);
#elif FILTER_OP == FILTER_COMPOSITE
    result = blendColor(BLEND_MODE, readImage(uFilterInput0, uInputRect[0], p), readImage(uFilterInput1, uInputRect[1], p));
#elif FILTER_OP == FILTER_CLAMP
    ivec4 e = uClampExtent;
    result = readImage(uFilterInput0, uInputRect[0], clamp(p, e.xy, e.xy + e.zw - 1));
#else
    result = uConstant;
#endif
    fragColor = vec4(result) / 255.0;
}
