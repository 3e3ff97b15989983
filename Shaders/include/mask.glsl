// mask: coverage masks are R32UI textures (GPU coverage, four pixels a
// texel) of U8 coverage placed on the device grid by a rect (x, y, width,
// height); texelFetch only, 0 outside the rect. A lookup table
// converts bytes to Float exactly as the CPU does (b / 255, the core's
// unitTexel, computed on the CPU), for the composite's destination read and
// for image and layer texels alike. It is a 256-texel texture (uLUT), or with
// LUT_UNIFORM a uniform block: a plain memory load where a software
// rasterizer's texelFetch is costly (a GPU serialises divergent uniform
// indexing, so hardware keeps the texture). Same Floats either way.
#ifdef LUT_UNIFORM
layout(std140, binding = BLOCK_LOOKUP) uniform ByteFloats { vec4 uLUT4[64]; };
float byteFloat(uint b) { return uLUT4[b >> 2u][b & 3u]; }
#else
layout(binding = UNIT_LOOKUP) uniform sampler2D uLUT;
float byteFloat(uint b) { return texelFetch(uLUT, ivec2(int(b), 0), 0).r; }
#endif

// GPU coverage (resolve.comp): four horizontally adjacent pixels per R32UI texel, a byte each
// (pixel 4k + j in bits 8j to 8j + 7), its row 0 `firstRow` rows down the texture (a batch's
// atlas).
int gpuMaskValue(usampler2D mask, ivec4 rect, ivec2 p, int firstRow) {
    ivec2 q = p - rect.xy;
    if (q.x < 0 || q.y < 0 || q.x >= rect.z || q.y >= rect.w) return 0;
    uint word = texelFetch(mask, ivec2(q.x >> 2, q.y + firstRow), 0).r;
    return int((word >> (8 * (q.x & 3))) & 255u);
}

// A shadow plane: four horizontally adjacent pixels per RGBA32F texel (caster.frag).
float packedMaskValue(sampler2D mask, ivec4 rect, ivec2 p) {
    ivec2 q = p - rect.xy;
    if (q.x < 0 || q.y < 0 || q.x >= rect.z || q.y >= rect.w) return 0.0;
    return texelFetch(mask, ivec2(q.x >> 2, q.y), 0)[q.x & 3];
}

vec4 bytesToFloat(uvec4 b) {
    return vec4(byteFloat(b.r), byteFloat(b.g), byteFloat(b.b), byteFloat(b.a));
}

// An RGBA8 (unorm) texel back to its byte values: exact for any conversion within half a level.
uvec4 unormBytes(vec4 v) {
    return uvec4(floor(v * 255.0 + 0.5));
}

// A layer's alpha as coverage (a layer ended as a backdrop mask): an RGBA8 (unorm) texture on the
// device grid, its alpha byte exactly; 0 outside its rect.
int alphaMaskValue(sampler2D layer, ivec4 rect, ivec2 p) {
    ivec2 q = p - rect.xy;
    if (q.x < 0 || q.y < 0 || q.x >= rect.z || q.y >= rect.w) return 0;
    return int(unormBytes(texelFetch(layer, q, 0)).a);
}
