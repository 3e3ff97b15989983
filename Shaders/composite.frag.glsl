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

// The pass's constants (CompositeBlock in UniformBlocks.swift mirrors it).
layout(std140, binding = BLOCK_COMPOSITE) uniform CompositeBlock {
    ivec4 uOrigins;            // the target's frame origin on the device grid (xy), the region's top-left pixel (zw)
    ivec4 uCoverageRect;
    ivec4 uClipRect;
    ivec4 uCompositeInfo;      // has coverage, has clip, context alpha (U8), blend mode (generic program)
    ivec4 uCompositePacking;   // the coverage is a packed shadow plane (generic program)
};
uniform sampler2D uDestination;    // copy of the region (texel (0, 0) = its top-left)
uniform usampler2D uCoverage;
uniform sampler2D uPackedCoverage; // a shadow plane (when COVERAGE_PACKED)
uniform usampler2D uClip;
// Whether the coverage is a packed shadow plane, and the blend mode: constants in a specialised
// program, else the block's.
#ifndef COVERAGE_PACKED
#define COVERAGE_PACKED uCompositePacking.x
#endif
#ifndef BLEND_MODE
#define BLEND_MODE uCompositeInfo.w
#endif

out vec4 fragColor;

void main() {
    ivec2 local = ivec2(gl_FragCoord.xy);
    ivec2 p = local + uOrigins.xy;
    int coverage = uCompositeInfo.x == 0 ? 255
        : (COVERAGE_PACKED != 0 ? int(packedMaskValue(uPackedCoverage, uCoverageRect, p))
                                : maskValue(uCoverage, uCoverageRect, p));
    if (uCompositeInfo.y != 0 && coverage > 0) coverage = div255(coverage * maskValue(uClip, uClipRect, p));
    if (coverage == 0) discard;
    ivec4 source = paint8(p, coverage);
    if (coverage == 0) discard;
    if (uCompositeInfo.z != 255) source = div255(source * uCompositeInfo.z);
    ivec4 destination = ivec4(unormBytes(texelFetch(uDestination, local - uOrigins.zw, 0)));
    ivec4 r = compositeColor(BLEND_MODE, source, destination, coverage);
    fragColor = vec4(r) / 255.0;
}
