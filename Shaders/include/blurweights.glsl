// blurweights: a separable Gaussian pass's integer kernel weights (GaussianKernel, sum 2^16),
// four to a uvec4 in the shared uniform block GPUSharedObjects fills, and the pass's axis.
#ifndef WEIGHT_VEC4S
#define WEIGHT_VEC4S 1024
#endif
#ifndef BLUR_AXIS
#define BLUR_AXIS 0
#endif
layout(std140, binding = BLOCK_WEIGHTS) uniform Weights { uvec4 uW[WEIGHT_VEC4S]; };

uint weight(int i) { return uW[i >> 2][i & 3]; }
