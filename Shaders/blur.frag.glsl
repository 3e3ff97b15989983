// blur: one pass of the integer separable Gaussian (Blur.swift, docs/
// ARITHMETIC.md), per output pixel, with W the kernel's integer weights (sum
// 2^16, a uniform block of uvec4, four to a vector):
//     horizontal: h = sum W[i] a[p + i - r],   out = (h + 2^7) >> 8
//     vertical:   v = sum W[i] h[p + i - r],   out = (v + 2^23) >> 24
// in uint (every sum fits 32 bits). Planes are packed four pixels to an
// RGBA32F texel along x (caster.frag) and hold integers (at most 65_280),
// which floats represent exactly. Each fragment computes the four pixels of
// its texel. The plane carries a border of r zero pixels on every side, so no
// tap needs a bounds check (a zero tap adds nothing).
// BLUR_AXIS 1 (vertical): tap i of the four outputs is one texel, i - r rows
// away. BLUR_AXIS 0 (horizontal): each input texel is fetched once and its
// four pixels are added to each output they are a tap of.
//! include header.glsl

//! include blurweights.glsl
// BlurBlock in UniformBlocks.swift mirrors it.
layout(std140, binding = BLOCK_BLUR) uniform BlurBlock { ivec4 uBlurInfo; };   // the radius in x
layout(binding = UNIT_INPUT) uniform sampler2D uInput;

out vec4 fragColor;


void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    int r = uBlurInfo.x;
    uvec4 acc = uvec4(0u);
#if BLUR_AXIS == 1
    for (int i = 0; i <= 2 * r; i++) {
        uvec4 s = uvec4(texelFetch(uInput, ivec2(t.x, t.y - r + i), 0));
        acc += weight(i) * s;
    }
    fragColor = vec4((acc + (1u << 23)) >> 24);
#else
    // Output k (pixel 4t.x + k) takes input pixel x as tap i = x - 4t.x - k + r.
    int first = max(0, (4 * t.x - r) >> 2), last = (4 * t.x + 3 + r) >> 2;
    for (int texel = first; texel <= last; texel++) {
        uvec4 s = uvec4(texelFetch(uInput, ivec2(texel, t.y), 0));
        int base = 4 * (texel - t.x) + r;        // tap of component 0 for output 0
        for (int j = 0; j < 4; j++) {
            for (int k = 0; k < 4; k++) {
                int i = base + j - k;
                if (i >= 0 && i <= 2 * r) acc[k] += weight(i) * s[j];
            }
        }
    }
    fragColor = vec4((acc + 128u) >> 8);
#endif
}
