// composite: one op (or a shadow) over its region of the current target, in
// the U8 integer arithmetic of docs/ARITHMETIC.md: coverage = geometry x clip
// (R8UI masks on the device grid, div255 products; no geometry mask means 255;
// a blurred shadow plane holds U8 integers in float texels), the paint as U8 premultiplied (a
// solid colour arrives as bytes; other paints are quantised by unit8) times
// the alpha (div255), the blend formula of the mode bounded by coverage
// against a copy of the destination region, stored exactly by the 8-bit target.
//! include header.glsl
//! include fixed.glsl
//! include fixed64.glsl
//! include mask.glsl
//! include paint.glsl
//! include blend.glsl

uniform ivec2 uFrameOrigin;        // the target's frame origin on the device grid
uniform ivec2 uRegionOrigin;       // the region's top-left pixel, in target pixels
uniform sampler2D uDestination;    // copy of the region (texel (0, 0) = its top-left)
uniform int uHasCoverage;
uniform usampler2D uCoverage;
uniform sampler2D uPackedCoverage; // a shadow plane (when COVERAGE_PACKED)
uniform ivec4 uCoverageRect;
uniform int uHasClip;
uniform usampler2D uClip;
uniform ivec4 uClipRect;
uniform int uAlpha8;               // the context alpha, U8
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
    int coverage = uHasCoverage == 0 ? 255
        : (COVERAGE_PACKED != 0 ? int(packedMaskValue(uPackedCoverage, uCoverageRect, p))
                                : maskValue(uCoverage, uCoverageRect, p));
    if (uHasClip != 0 && coverage > 0) coverage = div255(coverage * maskValue(uClip, uClipRect, p));
    if (coverage == 0) discard;
    ivec4 source = paint8(p, coverage);
    if (coverage == 0) discard;
    if (uAlpha8 != 255) source = div255(source * uAlpha8);
    ivec4 destination = ivec4(unormBytes(texelFetch(uDestination, local - uRegionOrigin, 0)));
    ivec4 r = compositeColor(BLEND_MODE, source, destination, coverage);
    fragColor = vec4(r) / 255.0;
}
