// caster: a shadow's alpha before the blur: the op's coverage (moved by the
// offset, U8 read as k / 255 through the byte table; none means 1) times its paint's alpha, sampled with the paint moved
// by the offset (CPURenderer+Shadow.swift), stored as U8 by unit8 (an
// integer value in a float texel, exact). The plane is packed: each RGBA32F
// texel holds four horizontally adjacent pixels (x = 4 * texel.x + k in
// component k), so the blur reads four pixels per fetch. Pixels outside the
// plane (in the texels at its edges) are +0, as the cleared border is.
//! include header.glsl
//! include fixed.glsl
//! include mask.glsl
//! include paint.glsl

uniform ivec2 uPlaneOrigin;        // the device pixel of texel (0, 0), component 0
uniform ivec4 uPlaneRect;          // the plane on the device grid
uniform int uHasCoverage;
uniform usampler2D uCoverage;
uniform ivec4 uCoverageRect;

out vec4 fragColor;

float casterAlpha(ivec2 p) {
    ivec2 q = p - uPlaneRect.xy;
    if (q.x < 0 || q.y < 0 || q.x >= uPlaneRect.z || q.y >= uPlaneRect.w) return 0.0;
    float coverage = uHasCoverage != 0 ? byteFloat(uint(maskValue(uCoverage, uCoverageRect, p))) : 1.0;
    float alpha = 0.0;
    if (coverage > 0.0) {
        vec4 c = paintColor(p, coverage);
        if (coverage > 0.0) { precise float a = coverage * c.w; alpha = float(unit8(a)); }
    }
    return alpha;
}

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    ivec2 p = ivec2(4 * t.x, t.y) + uPlaneOrigin;
    fragColor = vec4(casterAlpha(p), casterAlpha(p + ivec2(1, 0)), casterAlpha(p + ivec2(2, 0)),
                     casterAlpha(p + ivec2(3, 0)));
}
