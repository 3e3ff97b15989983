// blur: one pass of the separable Gaussian (Blur.swift's parity order):
//     acc = 0; for i in -r...r: acc = acc + w[i + r] * input[p + i * direction]
// in float, each product and sum rounded on its own (`precise`). The input
// plane carries a border of r zero texels on every side, so no tap needs a
// bounds check: a tap the CPU skips (outside the plane) adds w * 0 = +0 here,
// which leaves the sum's bits unchanged. Weights (GaussianKernel's Floats)
// come from a uniform block, four to a vec4: one uniform load per tap for
// all pixels at once, instead of a texture fetch per pixel.
//! include header.glsl

#ifndef WEIGHT_VEC4S
#define WEIGHT_VEC4S 1024
#endif
layout(std140, binding = 0) uniform Weights { vec4 uW[WEIGHT_VEC4S]; };
uniform sampler2D uInput;
uniform int uRadius;
uniform ivec2 uDirection;

out vec4 fragColor;

void main() {
    ivec2 first = ivec2(gl_FragCoord.xy) - uDirection * uRadius;
    precise float acc = 0.0;
    for (int i = 0; i <= 2 * uRadius; i++) {
        float s = texelFetch(uInput, first + uDirection * i, 0).r;
        precise float product = uW[i >> 2][i & 3] * s;
        acc = acc + product;
    }
    fragColor = vec4(acc, 0.0, 0.0, 0.0);
}
