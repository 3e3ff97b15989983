// filterblur: one pass of gaussianBlur (and unsharpMask's blur) on a filter
// image, every lane of RGBA blurred as a plane with the shadow's integer
// separable Gaussian (docs/ARITHMETIC.md, "Gaussian blur"; ReferencePlaneBlur
// and Core's RGBABlur.swift compute the same sums), W the kernel's integer
// weights (sum 2^16) in the shared uniform block:
//     BLUR_AXIS 0: h = sum W[i] a[x + i - r],    out = (h + 2^7) >> 8   (RGBA32F, integers)
//     BLUR_AXIS 1: v = sum W[i] h16[y + i - r],  out = (v + 2^23) >> 24 (RGBA8 bytes)
// in uint (every sum fits 32 bits). Pixels outside an input's rect are 0: the
// horizontal pass reads an RGBA8 image placed by uInputRect[0] (filter.frag's
// convention), which covers at most the rectangle the blur asked for (its
// region grown by r), so the zero edge is the CPU's; the vertical pass reads
// the horizontal pass's plane, whose rows reach r beyond every output row.
// The target's texel (0, 0) is graph pixel uFilterOrigin.xy.
//! include header.glsl

//! include blurweights.glsl
//! include filterblock.glsl
layout(binding = UNIT_FILTER0) uniform sampler2D uFilterInput0;

out vec4 fragColor;


void main() {
    ivec2 q = ivec2(gl_FragCoord.xy) + uFilterOrigin.xy - uInputRect[0].xy;
    ivec4 rect = uInputRect[0];
    int r = uFilterOrigin.z;
    uvec4 acc = uvec4(0u);
#if BLUR_AXIS == 0
    if (q.y >= 0 && q.y < rect.w) {
        if (q.x >= r && q.x + r < rect.z) {
            // Every tap inside: the weights are symmetric (W[i] = W[2r - i]), so pairs share one
            // product; the sum is the same integer.
            acc = weight(r) * uvec4(floor(texelFetch(uFilterInput0, q, 0) * 255.0 + 0.5));
            for (int i = 0; i < r; i++) {
                uvec4 a = uvec4(floor(texelFetch(uFilterInput0, ivec2(q.x + i - r, q.y), 0) * 255.0 + 0.5));
                uvec4 b = uvec4(floor(texelFetch(uFilterInput0, ivec2(q.x + r - i, q.y), 0) * 255.0 + 0.5));
                acc += weight(i) * (a + b);
            }
        } else {
            int last = min(2 * r, rect.z - 1 - q.x + r);
            for (int i = max(0, r - q.x); i <= last; i++) {
                acc += weight(i) * uvec4(floor(texelFetch(uFilterInput0, ivec2(q.x + i - r, q.y), 0) * 255.0 + 0.5));
            }
        }
    }
    fragColor = vec4((acc + 128u) >> 8);
#else
    if (q.x >= 0 && q.x < rect.z) {
        if (q.y >= r && q.y + r < rect.w) {
            acc = weight(r) * uvec4(texelFetch(uFilterInput0, q, 0));
            for (int i = 0; i < r; i++) {
                acc += weight(i) * (uvec4(texelFetch(uFilterInput0, ivec2(q.x, q.y + i - r), 0))
                                    + uvec4(texelFetch(uFilterInput0, ivec2(q.x, q.y + r - i), 0)));
            }
        } else {
            int last = min(2 * r, rect.w - 1 - q.y + r);
            for (int i = max(0, r - q.y); i <= last; i++) {
                acc += weight(i) * uvec4(texelFetch(uFilterInput0, ivec2(q.x, q.y + i - r), 0));
            }
        }
    }
    fragColor = vec4((acc + (1u << 23)) >> 24) / 255.0;
#endif
}
