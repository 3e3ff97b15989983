// filterblock: the constants of a filter pass (FilterBlock in UniformBlocks.swift mirrors it).
// 64-bit values are (low, high) in .xy of a uvec4.
layout(std140, binding = BLOCK_FILTER) uniform FilterBlock {
    ivec4 uFilterOrigin;       // the output's graph pixel at texel (0, 0) (xy); the blur radius (z)
    ivec4 uInputRect[3];       // where each input's texel (0, 0) lies, and its size
    ivec4 uConstant;           // constantColor, U8 premultiplied
    ivec4 uClampExtent;        // clampToExtent's input extent
    uvec4 uIntensity;          // unsharpMask's Q12 intensity
    uvec4 uColorParams[20];    // a colour filter's Q12 parameters
};
