// Normal mode's composite of a row of per-pixel sources (an image's samples, a
// layer's pixels), 256-bit, called only where the CPU runs AVX2
// (Blend+Row.swift). See penumbra_composite.c.
#ifndef PENUMBRA_COMPOSITE_H
#define PENUMBRA_COMPOSITE_H

#include <stddef.h>
#include <stdint.h>

/// Composites `count` pixels (a multiple of 8) of premultiplied RGBA8 `sources` over `pixels`
/// in normal mode, with coverage `coverage[i]`, or `constant` for every pixel when `coverage`
/// is NULL: per pixel, unless its coverage or its source alpha is 0 (left as it is),
/// b = min(div255(min(255 s + d (255 - sa), 65025)), b's alpha) per channel and
/// result = div255(d (255 - t) + b t): the Swift kernel's integers for any bytes.
void penumbra_normal_row_avx2(const uint8_t *_Nonnull sources, const uint8_t *_Nullable coverage, uint8_t constant,
                              ptrdiff_t count, uint8_t *_Nonnull pixels);

#endif
