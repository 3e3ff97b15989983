// The RGBA blur's two row functions in 256-bit integer vectors (AVX2), for
// PenumbraCPU's RGBABlur.swift, which calls them only where
// penumbra_blur_has_avx2() says the CPU runs them. See penumbra_blur.c.
#ifndef PENUMBRA_BLUR_H
#define PENUMBRA_BLUR_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)

/// 1 when this CPU (and the OS, which saves the YMM registers) runs AVX2 code, else 0.
int penumbra_blur_has_avx2(void);

/// The horizontal pass of one row, as RGBABlurPasses.horizontalRow: widens the row's `lanes`
/// bytes into `padded + channels * (radius + 1)`, then writes h16 - 2^15 of every lane into
/// `output[0 ..< (lanes + 15) & ~15]`. `padded` holds channels * (radius + 1) zeros before the
/// row and as many plus the block padding after it; `centre_pair` is 8 Int16 (the centre weight's
/// two halves, 4 times); `pairs` is `(radius + 1) / 2` groups of 8 Int16 (W[r + i], W[r + i + 1]
/// for i = 1, 3, ..., 4 times).
void penumbra_blur_horizontal_avx2(const uint8_t *_Nonnull row, uint16_t *_Nonnull output,
                                   uint16_t *_Nonnull padded, ptrdiff_t lanes, ptrdiff_t channels,
                                   ptrdiff_t radius, const int16_t *_Nonnull centre_pair,
                                   const int16_t *_Nonnull pairs);

/// The vertical pass of one row, as RGBABlurPasses.verticalRow: `count` pair rows (two
/// horizontal rows interleaved lane by lane, biased Int16, `2 * ((lanes + 15) & ~15)` values
/// each) times their weight pairs (`weights`: `count` groups of 8 Int16) into `lanes` bytes of
/// `output`.
void penumbra_blur_vertical_avx2(const int16_t *_Nonnull const *_Nonnull rows,
                                 const int16_t *_Nonnull weights, ptrdiff_t count,
                                 uint8_t *_Nonnull output, ptrdiff_t lanes);

/// Two output rows at once, each as penumbra_blur_vertical_avx2 (`rows_even` / `weights_even`
/// into `out_even`, `rows_odd` / `weights_odd` into `out_odd`), where the first `shared` entries
/// of both name the same pair rows (`rows_even[e] == rows_odd[e]`), so each is loaded once.
void penumbra_blur_vertical2_avx2(const int16_t *_Nonnull const *_Nonnull rows_even,
                                  const int16_t *_Nonnull const *_Nonnull rows_odd,
                                  const int16_t *_Nonnull weights_even, const int16_t *_Nonnull weights_odd,
                                  ptrdiff_t shared, ptrdiff_t count, uint8_t *_Nonnull out_even,
                                  uint8_t *_Nonnull out_odd, ptrdiff_t lanes);

#endif
#endif
