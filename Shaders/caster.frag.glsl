// caster: a shadow's alpha before the blur, into an R32F plane: the op's
// coverage (moved by the offset; none means 1) times its paint's alpha,
// sampled with the paint moved by the offset (CPURenderer+Shadow.swift).
//! include header.glsl
//! include mask.glsl
//! include paint.glsl

uniform ivec2 uPlaneOrigin;        // the plane's top-left pixel on the device grid
uniform int uHasCoverage;
uniform sampler2D uCoverage;
uniform ivec4 uCoverageRect;

out vec4 fragColor;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy) + uPlaneOrigin;
    float coverage = uHasCoverage != 0 ? maskValue(uCoverage, uCoverageRect, p) : 1.0;
    float alpha = 0.0;
    if (coverage > 0.0) {
        vec4 c = paintColor(p, coverage);
        if (coverage > 0.0) { precise float a = coverage * c.w; alpha = a; }
    }
    fragColor = vec4(alpha, 0.0, 0.0, 0.0);
}
