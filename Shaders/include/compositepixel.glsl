// compositepixel: the composite of one op (or a shadow) at one pixel of the
// current target, in the U8 integer arithmetic of docs/ARITHMETIC.md:
// coverage = geometry x clip (GPU coverage, the clip's computed from its
// edges: GPUFrame+Clips.swift; on the device grid, div255 products; no
// geometry mask means 255; a blurred shadow plane holds U8 integers in float
// texels; a layer ended as a backdrop mask gives its alpha bytes), the paint as U8 premultiplied (a solid colour arrives as bytes;
// other paints are quantised by unit8) times the alpha (div255), and the
// blend formula of the mode bounded by coverage against the destination.
// Its program includes fixed, fixed64, mask, paint and blend before it.

// The pass's constants (CompositeBlock in UniformBlocks.swift mirrors it).
layout(std140, binding = BLOCK_COMPOSITE) uniform CompositeBlock {
    ivec4 uOrigins;            // the target's frame origin on the device grid (xy), the dispatch's first target pixel (zw)
    ivec4 uCoverageRect;
    ivec4 uClipRect;
    ivec4 uCompositeInfo;      // has coverage, has clip, context alpha (U8), blend mode (generic program)
    ivec4 uCompositePacking;   // x: the coverage's kind, COVERAGE_<KIND> (generic program); zw: the dispatch's size
    ivec4 uCompositeTiles;     // x: tiles per row of the coverage's tile list (0: a dense dispatch), y: the list's
                               // first tile word; z: the coverage's first row in its texture (a batch's atlas)
};
layout(binding = UNIT_COVERAGE) uniform usampler2D uCoverage;
layout(binding = UNIT_PACKED_COVERAGE) uniform sampler2D uPackedCoverage; // a shadow plane (COVERAGE_SHADOW_PLANE)
layout(binding = UNIT_ALPHA_COVERAGE) uniform sampler2D uAlphaCoverage;   // a layer's alpha (COVERAGE_LAYER_ALPHA)
layout(binding = UNIT_CLIP) uniform usampler2D uClip;
// What the coverage texture holds (GPUFrame.CoverageKind), and the blend mode: constants in a
// specialised program, else the block's.
#ifndef COVERAGE_KIND
#define COVERAGE_KIND uCompositePacking.x
#endif
#ifndef BLEND_MODE
#define BLEND_MODE uCompositeInfo.w
#endif

// The new value of target pixel `local` over `destination` (bytes); false where the coverage is
// 0, which leaves the pixel as it is (as the CPU skips it).
// The coverage texture's value at device pixel p, U8.
int coverageValue(ivec2 p) {
    if (COVERAGE_KIND == COVERAGE_SHADOW_PLANE) return int(packedMaskValue(uPackedCoverage, uCoverageRect, p));
    if (COVERAGE_KIND == COVERAGE_LAYER_ALPHA) return alphaMaskValue(uAlphaCoverage, uCoverageRect, p);
    return gpuMaskValue(uCoverage, uCoverageRect, p, uCompositeTiles.z);
}

bool compositePixel(ivec2 local, ivec4 destination, out ivec4 result) {
    ivec2 p = local + uOrigins.xy;
    int coverage = uCompositeInfo.x == 0 ? 255 : coverageValue(p);
    if (uCompositeInfo.y != 0 && coverage > 0) coverage = div255(coverage * gpuMaskValue(uClip, uClipRect, p, 0));
    if (coverage == 0) return false;
    ivec4 source = paint8(p, coverage);
    if (coverage == 0) return false;
    if (uCompositeInfo.z != 255) source = div255(source * uCompositeInfo.z);
    result = compositeColor(BLEND_MODE, source, destination, coverage);
    return true;
}
