// composite: one op (or a shadow) over its region of the current target.
// coverage = geometry x clip (R32F masks on the device grid; no geometry mask
// means 1), the paint times the alpha, the blend formula of the mode bounded
// by coverage against a copy of the destination region, then the CPU's
// rounding: floor(result * 255 + 0.5), stored exactly by the 8-bit target.
//! include header.glsl
//! include mask.glsl
//! include paint.glsl
//! include blend.glsl

uniform ivec2 uFrameOrigin;        // the target's frame origin on the device grid
uniform ivec2 uRegionOrigin;       // the region's top-left pixel, in target pixels
uniform sampler2D uDestination;    // copy of the region (texel (0, 0) = its top-left)
uniform int uHasCoverage;
uniform sampler2D uCoverage;
uniform ivec4 uCoverageRect;
uniform int uHasClip;
uniform sampler2D uClip;
uniform ivec4 uClipRect;
uniform float uAlpha;
// Whether the coverage is a packed shadow plane: a constant in a specialised program, else a uniform.
#ifndef COVERAGE_PACKED
uniform int uCoveragePacked;
#define COVERAGE_PACKED uCoveragePacked
#endif
// The blend mode: a constant in a specialised program, else a uniform.
#ifndef BLEND_MODE
uniform int uMode;
#define BLEND_MODE uMode
#endif

out vec4 fragColor;

void main() {
    ivec2 local = ivec2(gl_FragCoord.xy);
    ivec2 p = local + uFrameOrigin;
    float coverage = uHasCoverage == 0 ? 1.0
        : (COVERAGE_PACKED != 0 ? packedMaskValue(uCoverage, uCoverageRect, p) : maskValue(uCoverage, uCoverageRect, p));
    if (uHasClip != 0 && coverage > 0.0) coverage *= maskValue(uClip, uClipRect, p);
    if (!(coverage > 0.0)) discard;
    vec4 source = paintColor(p, coverage);
    if (!(coverage > 0.0)) discard;
    vec4 destination = bytesToFloat(unormBytes(texelFetch(uDestination, local - uRegionOrigin, 0)));
    precise vec4 s = source * uAlpha;
    vec4 r = compositeColor(BLEND_MODE, s, destination, coverage);
    precise vec4 q = floor(r * 255.0 + 0.5);
    fragColor = clamp(q, vec4(0.0), vec4(255.0)) / 255.0;
}
