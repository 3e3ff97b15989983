// blur: one pass of the separable Gaussian (Blur.swift's parity order):
//     acc = 0; for i in -r...r: acc = acc + w[i + r] * input[p + i * direction]
// in float, each product and sum rounded on its own (`precise`), samples
// outside the plane read as 0. Weights come from GaussianKernel in an R32F
// texture (radius up to 1152: no uniform arrays).
//! include header.glsl

uniform sampler2D uInput;
uniform sampler2D uWeights;
uniform int uRadius;
uniform ivec2 uDirection;
uniform ivec2 uSize;

out vec4 fragColor;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    precise float acc = 0.0;
    for (int i = -uRadius; i <= uRadius; i++) {
        ivec2 q = p + uDirection * i;
        if (q.x < 0 || q.y < 0 || q.x >= uSize.x || q.y >= uSize.y) continue;
        float s = texelFetch(uInput, q, 0).r;
        precise float product = texelFetch(uWeights, ivec2(i + uRadius, 0), 0).r * s;
        acc = acc + product;
    }
    fragColor = vec4(acc, 0.0, 0.0, 0.0);
}
