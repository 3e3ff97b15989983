// The image row sampler's 256-bit kernel (AVX2), called only where the CPU
// runs it (ImageRowSampler.swift). See penumbra_sample.c.
#ifndef PENUMBRA_SAMPLE_H
#define PENUMBRA_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

/// Shades `count` pixels (a multiple of 8) of one row from RGBA8 `texels` (`width` texels a
/// row), bilinearly at the Q24 positions qx + i stepX, qy + i stepY, each pair of texels clamped
/// to columns col_first...col_last and rows row_first...row_last, into `colors` (RGBA8). The
/// caller guarantees col_first < col_last, row_first < row_last, and every position's integer
/// part within [-2^22, 2^22).
void penumbra_sample_row_avx2(const uint8_t *_Nonnull texels, ptrdiff_t width, int64_t qx, int64_t qy,
                              int64_t step_x, int64_t step_y, int32_t col_first, int32_t col_last,
                              int32_t row_first, int32_t row_last, ptrdiff_t count, uint8_t *_Nonnull colors);

#endif
