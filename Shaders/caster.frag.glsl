// caster: a shadow's alpha before the blur, div255(coverage x paint alpha):
// the op's U8 coverage (moved by the offset; none means 255) and its U8
// paint sampled with the paint moved by the offset (CPURenderer+Shadow.swift).
// The plane is packed: each RGBA32F texel holds four horizontally adjacent
// pixels (x = 4 * texel.x + k in component k) as integers, exact in float, so
// the blur reads four pixels per fetch. Pixels outside the plane (in the
// texels at its edges) are +0, as the cleared border is.
//! include header.glsl
//! include fixed.glsl
//! include fixed64.glsl
//! include mask.glsl
//! include paint.glsl

// The pass's constants (CasterBlock in UniformBlocks.swift mirrors it).
layout(std140, binding = BLOCK_CASTER) uniform CasterBlock {
    ivec4 uCasterOrigin;       // the device pixel of texel (0, 0), component 0 (xy); has coverage (z), GPU coverage
    ivec4 uPlaneRect;          // the plane on the device grid
    ivec4 uCasterCoverageRect;
};
layout(binding = UNIT_COVERAGE) uniform usampler2D uCoverage;

out vec4 fragColor;

float casterAlpha(ivec2 p) {
    ivec2 q = p - uPlaneRect.xy;
    if (q.x < 0 || q.y < 0 || q.x >= uPlaneRect.z || q.y >= uPlaneRect.w) return 0.0;
    int coverage = uCasterOrigin.z == 0 ? 255 : gpuMaskValue(uCoverage, uCasterCoverageRect, p, 0);
    int alpha = 0;
    if (coverage > 0) {
        ivec4 c = paint8(p, coverage);
        if (coverage > 0) alpha = div255(coverage * c.w);
    }
    return float(alpha);
}

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    ivec2 p = ivec2(4 * t.x, t.y) + uCasterOrigin.xy;
    fragColor = vec4(casterAlpha(p), casterAlpha(p + ivec2(1, 0)), casterAlpha(p + ivec2(2, 0)),
                     casterAlpha(p + ivec2(3, 0)));
}
