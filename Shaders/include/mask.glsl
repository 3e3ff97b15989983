// mask: coverage masks are R32F textures placed on the device grid by a rect
// (x, y, width, height); texelFetch only, 0 outside the rect. uLUT converts
// bytes to Float exactly as the CPU does (b / 255, the core's unitTexel), for
// the composite's destination read and for image and layer texels alike.
uniform sampler2D uLUT;

float maskValue(sampler2D mask, ivec4 rect, ivec2 p) {
    ivec2 q = p - rect.xy;
    if (q.x < 0 || q.y < 0 || q.x >= rect.z || q.y >= rect.w) return 0.0;
    return texelFetch(mask, q, 0).r;
}

vec4 bytesToFloat(uvec4 b) {
    return vec4(texelFetch(uLUT, ivec2(int(b.r), 0), 0).r, texelFetch(uLUT, ivec2(int(b.g), 0), 0).r,
                texelFetch(uLUT, ivec2(int(b.b), 0), 0).r, texelFetch(uLUT, ivec2(int(b.a), 0), 0).r);
}

// An RGBA8 (unorm) texel back to its byte values: exact for any conversion within half a level.
uvec4 unormBytes(vec4 v) {
    return uvec4(floor(v * 255.0 + 0.5));
}
