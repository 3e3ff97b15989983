// blur: one pass of the separable Gaussian (Blur.swift's parity order), per
// output pixel:
//     acc = 0; for i in 0...2r: acc = acc + w[i] * input[p + (i - r) * axis]
// in float, each product and sum rounded on its own (`precise`). Planes are
// packed four pixels to an RGBA32F texel along x (caster.frag), and each
// fragment computes the four pixels of its texel, as a vec4 (component-wise
// the same operations in the same order). The plane carries a border of r
// zero pixels on every side, so no tap needs a bounds check: a tap the CPU
// skips (outside the plane) adds w * 0 = +0 here, which leaves the sum's bits
// unchanged. Weights (GaussianKernel's Floats) come from a uniform block,
// four to a vec4.
// BLUR_AXIS 1 (vertical): tap i of the four outputs is one texel, i - r rows
// away. BLUR_AXIS 0 (horizontal): the inputs of the four outputs run over
// texels; each input texel is fetched once and its four pixels are added to
// each output they are a tap of, in increasing tap order (increasing x).
//! include header.glsl

#ifndef WEIGHT_VEC4S
#define WEIGHT_VEC4S 1024
#endif
#ifndef BLUR_AXIS
#define BLUR_AXIS 0
#endif
layout(std140, binding = 0) uniform Weights { vec4 uW[WEIGHT_VEC4S]; };
uniform sampler2D uInput;
uniform int uRadius;

out vec4 fragColor;

float weight(int i) { return uW[i >> 2][i & 3]; }

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    int r = uRadius;
    precise vec4 acc = vec4(0.0);
#if BLUR_AXIS == 1
    for (int i = 0; i <= 2 * r; i++) {
        vec4 s = texelFetch(uInput, ivec2(t.x, t.y - r + i), 0);
        precise vec4 product = weight(i) * s;
        acc = acc + product;
    }
#else
    // Output k (pixel 4t.x + k) takes input pixel x as tap i = x - 4t.x - k + r.
    int first = max(0, (4 * t.x - r) >> 2), last = (4 * t.x + 3 + r) >> 2;
    for (int texel = first; texel <= last; texel++) {
        vec4 s = texelFetch(uInput, ivec2(texel, t.y), 0);
        int base = 4 * (texel - t.x) + r;        // tap of component 0 for output 0
        for (int j = 0; j < 4; j++) {
            for (int k = 0; k < 4; k++) {
                int i = base + j - k;
                if (i >= 0 && i <= 2 * r) {
                    precise float product = weight(i) * s[j];
                    acc[k] = acc[k] + product;
                }
            }
        }
    }
#endif
    fragColor = acc;
}
