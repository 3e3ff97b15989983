// clipproduct: one step of a clip chain's coverage on the GPU (GPUFrame's
// clip textures): the product of a node's own coverage and its ancestors'
// (both GPU coverage: R32UI masks, four pixels a texel, row 0 at the top of
// the texture), div255(own x outer) per pixel exactly as the CPU's
// CoverageMask.multiplied(by:), over the node's region; 0 where the
// ancestors' rect does not reach. One invocation per output texel (four pixels).
//! include header.glsl
//! include fixed.glsl
//! include mask.glsl

layout(local_size_x = TILE_SIZE, local_size_y = TILE_SIZE) in;
layout(r32ui, binding = IMAGE_COVERAGE) writeonly uniform highp uimage2D uProduct;
layout(binding = UNIT_COVERAGE) uniform usampler2D uOwn;
layout(binding = UNIT_CLIP) uniform usampler2D uOuter;

// The pass's rectangles on the device grid (ClipProductBlock in UniformBlocks.swift mirrors it).
layout(std140, binding = BLOCK_CLIP_PRODUCT) uniform ClipProductBlock {
    ivec4 uOwnRect;     // the node's coverage, and the product's
    ivec4 uOuterRect;   // its ancestors' coverage
};

void main() {
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (texel.x >= (uOwnRect.z + 3) / 4 || texel.y >= uOwnRect.w) return;
    uint word = 0u;
    for (int j = 0; j < 4; j++) {
        ivec2 p = uOwnRect.xy + ivec2(4 * texel.x + j, texel.y);
        int own = gpuMaskValue(uOwn, uOwnRect, p, 0);
        if (own == 0) continue;
        word |= uint(div255(own * gpuMaskValue(uOuter, uOuterRect, p, 0))) << (8 * j);
    }
    imageStore(uProduct, texel, uvec4(word, 0u, 0u, 0u));
}
