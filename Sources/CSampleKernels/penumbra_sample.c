// penumbra_sample.c: ImageRowSampler's bilinear row (ImageRowSampler.swift) in
// 256-bit integer vectors, eight pixels a step, for CPUs with AVX2. Compiled
// for AVX2 per function inside a baseline object, as the blur's kernels are
// (CBlurKernels, penumbra_blur.c says why); Swift calls it only when the CPU
// runs it.
//
// Same bytes. Per pixel the Swift row computes, from Q24 positions q:
//     i = q >> 24, w = (q >> 16) & 255, pair (clamp(i), clamp(i + 1)) in first...last,
//     upper = 256 t00 + (t10 - t00) w, lower likewise, out = (256 upper + (lower - upper) v + 2^15) >> 16.
// Here every pair is made adjacent so that one 8-byte load reads both
// texels: x0' = clamp(i, first, last - 1) and w' = 0 when i < first, 256
// when i >= last, else w. That is the same integer in every case: for
// first <= i < last the pair is (i, i + 1) with weight w as before; for
// i >= last both texels were `last`, giving 256 t(last), and
// 256 t(last - 1) + (t(last) - t(last - 1)) 256 is that; for i < first both
// were `first`, and weight 0 gives 256 t(first). Rows the same way.
//
// Loads: four scalar 8-byte loads a register rather than vpgatherdq, which
// measured slower on this Zen 4 (W1 medians 1.52 to 1.60 ms against 1.73 to
// 1.78 in alternating rounds).
//
// Lanes: positions advance in 64-bit lanes; with |i| < 2^22 (the caller
// checks the row's two ends, the positions being affine), (q + 2^46) >> 16
// is below 2^31, so its low 32 bits hold i + 2^22 above 8 bits of weight.
// The horizontal mix runs in 16-bit lanes: its true value lies in
// [0, 65280], so wrapping arithmetic modulo 2^16 gives it exactly; the
// vertical mix runs in 32-bit lanes as in Swift. Every packed value is in
// range (0...255), so the saturating packs truncate nothing.

#include "penumbra_sample.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <string.h>

#define AVX2 __attribute__((target("avx2")))

// Eight 64-bit positions (two registers) to eight 32-bit lanes of (q + 2^46) >> 16.
static inline AVX2 __m256i fixed_parts(__m256i lo, __m256i hi) {
    const __m256i bias = _mm256_set1_epi64x((int64_t)1 << 46);
    const __m256i low_dwords = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    __m256i a = _mm256_permutevar8x32_epi32(_mm256_srli_epi64(_mm256_add_epi64(lo, bias), 16), low_dwords);
    __m256i b = _mm256_permutevar8x32_epi32(_mm256_srli_epi64(_mm256_add_epi64(hi, bias), 16), low_dwords);
    return _mm256_permute2x128_si256(a, b, 0x20);
}

// The adjacent pair's first index and its weight (0...256) for eight lanes of fixed_parts.
static inline AVX2 void pair(__m256i t, int32_t first, int32_t last, __m256i *index, __m256i *weight) {
    __m256i i = _mm256_sub_epi32(_mm256_srli_epi32(t, 8), _mm256_set1_epi32(1 << 22));
    __m256i w = _mm256_and_si256(t, _mm256_set1_epi32(255));
    __m256i lo = _mm256_set1_epi32(first), hi = _mm256_set1_epi32(last - 1);
    w = _mm256_andnot_si256(_mm256_cmpgt_epi32(lo, i), w);                      // i < first: 0
    w = _mm256_blendv_epi8(w, _mm256_set1_epi32(256), _mm256_cmpgt_epi32(i, hi));  // i >= last: 256
    *index = _mm256_min_epi32(_mm256_max_epi32(i, lo), hi);
    *weight = w;
}

// 256 a + (b - a) w in 16-bit lanes for four pixels' texel pairs (the 8-byte pairs of
// pixels p0..p3 in `g`, load_pairs), in the lane order (p0, p2 | p1, p3); `w16` holds each pixel's weight
// in that order, four lanes each.
static inline AVX2 __m256i mix_pairs(__m256i g, __m256i w16) {
    __m256i e0 = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(g));       // p0 | p1 (t00, t10 each)
    __m256i e1 = _mm256_cvtepu8_epi16(_mm256_extracti128_si256(g, 1));  // p2 | p3
    __m256i a = _mm256_unpacklo_epi64(e0, e1), b = _mm256_unpackhi_epi64(e0, e1);
    return _mm256_add_epi16(_mm256_slli_epi16(a, 8), _mm256_mullo_epi16(_mm256_sub_epi16(b, a), w16));
}

// Four pixels' weights (32-bit lanes 0..3 of `w`, from `start`) as 16-bit lanes in the order
// (p0, p2 | p1, p3), four each.
static inline AVX2 __m256i weights16(__m256i w, int start) {
    __m256i order = _mm256_setr_epi32(start, start, start + 2, start + 2, start + 1, start + 1, start + 3, start + 3);
    __m256i x = _mm256_permutevar8x32_epi32(w, order);
    return _mm256_or_si256(x, _mm256_slli_epi32(x, 16));
}

// (256 u + (l - u) v + 2^15) >> 16 in 32-bit lanes for one 128-bit half's pixels.
static inline AVX2 __m256i mix_rows(__m256i u, __m256i l, __m256i v) {
    __m256i t = _mm256_add_epi32(_mm256_slli_epi32(u, 8), _mm256_mullo_epi32(_mm256_sub_epi32(l, u), v));
    return _mm256_srli_epi32(_mm256_add_epi32(t, _mm256_set1_epi32(1 << 15)), 16);
}

// Four 8-byte texel pairs at byte offsets `offsets`, as one register (pair k in bytes 8k..8k+7).
static inline AVX2 __m256i load_pairs(const uint8_t *texels, __m128i offsets) {
    int64_t p[4];
    memcpy(&p[0], texels + _mm_cvtsi128_si32(offsets), 8);
    memcpy(&p[1], texels + _mm_extract_epi32(offsets, 1), 8);
    memcpy(&p[2], texels + _mm_extract_epi32(offsets, 2), 8);
    memcpy(&p[3], texels + _mm_extract_epi32(offsets, 3), 8);
    __m128i lo = _mm_insert_epi64(_mm_cvtsi64_si128(p[0]), p[1], 1);
    __m128i hi = _mm_insert_epi64(_mm_cvtsi64_si128(p[2]), p[3], 1);
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

// Four pixels (p0..p3 = lanes start..start+3) as 16-bit results in the order (p0, p2 | p1, p3).
static inline AVX2 __m256i four_pixels(const uint8_t *texels, __m256i top, __m256i bottom, __m256i wx, __m256i wy,
                                       int start) {
    __m128i top4 = start == 0 ? _mm256_castsi256_si128(top) : _mm256_extracti128_si256(top, 1);
    __m128i bottom4 = start == 0 ? _mm256_castsi256_si128(bottom) : _mm256_extracti128_si256(bottom, 1);
    __m256i gt = load_pairs(texels, top4), gb = load_pairs(texels, bottom4);
    __m256i w16 = weights16(wx, start);
    __m256i upper = mix_pairs(gt, w16), lower = mix_pairs(gb, w16);
    // 16-bit lanes (p0, p2 | p1, p3) to 32-bit: unpacklo gives (p0 | p1), unpackhi (p2 | p3).
    __m256i zero = _mm256_setzero_si256();
    __m256i v01 = _mm256_permutevar8x32_epi32(wy, _mm256_setr_epi32(start, start, start, start, start + 1, start + 1, start + 1, start + 1));
    __m256i v23 = _mm256_permutevar8x32_epi32(wy, _mm256_setr_epi32(start + 2, start + 2, start + 2, start + 2, start + 3, start + 3, start + 3, start + 3));
    __m256i r01 = mix_rows(_mm256_unpacklo_epi16(upper, zero), _mm256_unpacklo_epi16(lower, zero), v01);
    __m256i r23 = mix_rows(_mm256_unpackhi_epi16(upper, zero), _mm256_unpackhi_epi16(lower, zero), v23);
    return _mm256_packus_epi32(r01, r23);  // (p0, p2 | p1, p3)
}

AVX2 void penumbra_sample_row_avx2(const uint8_t *texels, ptrdiff_t width, int64_t qx, int64_t qy,
                                   int64_t step_x, int64_t step_y, int32_t col_first, int32_t col_last,
                                   int32_t row_first, int32_t row_last, ptrdiff_t count, uint8_t *colors) {
    __m256i lanes_lo = _mm256_setr_epi64x(0, 1, 2, 3), lanes_hi = _mm256_setr_epi64x(4, 5, 6, 7);
    // q + k step for k = 0...7 (64-bit products of small k: two 32-bit multiplies and a shift).
    __m256i sx = _mm256_set1_epi64x(step_x), sy = _mm256_set1_epi64x(step_y);
    #define TIMES(lanes, s) _mm256_add_epi64(_mm256_mul_epu32(lanes, s), \
        _mm256_slli_epi64(_mm256_mul_epu32(lanes, _mm256_srli_epi64(s, 32)), 32))
    __m256i x_lo = _mm256_add_epi64(_mm256_set1_epi64x(qx), TIMES(lanes_lo, sx));
    __m256i x_hi = _mm256_add_epi64(_mm256_set1_epi64x(qx), TIMES(lanes_hi, sx));
    __m256i y_lo = _mm256_add_epi64(_mm256_set1_epi64x(qy), TIMES(lanes_lo, sy));
    __m256i y_hi = _mm256_add_epi64(_mm256_set1_epi64x(qy), TIMES(lanes_hi, sy));
    #undef TIMES
    __m256i step8_x = _mm256_set1_epi64x((int64_t)((uint64_t)step_x * 8u));
    __m256i step8_y = _mm256_set1_epi64x((int64_t)((uint64_t)step_y * 8u));
    __m256i row_bytes = _mm256_set1_epi32((int32_t)(width * 4));
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for (ptrdiff_t done = 0; done < count; done += 8) {
        __m256i column, wx, row, wy;
        pair(fixed_parts(x_lo, x_hi), col_first, col_last, &column, &wx);
        pair(fixed_parts(y_lo, y_hi), row_first, row_last, &row, &wy);
        __m256i top = _mm256_add_epi32(_mm256_mullo_epi32(row, row_bytes), _mm256_slli_epi32(column, 2));
        __m256i bottom = _mm256_add_epi32(top, row_bytes);
        __m256i p0123 = four_pixels(texels, top, bottom, wx, wy, 0);  // (p0, p2 | p1, p3)
        __m256i p4567 = four_pixels(texels, top, bottom, wx, wy, 4);  // (p4, p6 | p5, p7)
        __m256i bytes = _mm256_packus_epi16(p0123, p4567);           // (p0 p2 p4 p6 | p1 p3 p5 p7)
        _mm256_storeu_si256((__m256i *)(colors + done * 4), _mm256_permutevar8x32_epi32(bytes, order));
        x_lo = _mm256_add_epi64(x_lo, step8_x); x_hi = _mm256_add_epi64(x_hi, step8_x);
        y_lo = _mm256_add_epi64(y_lo, step8_y); y_hi = _mm256_add_epi64(y_hi, step8_y);
    }
}

#else

void penumbra_sample_row_avx2(const uint8_t *texels, ptrdiff_t width, int64_t qx, int64_t qy,
                              int64_t step_x, int64_t step_y, int32_t col_first, int32_t col_last,
                              int32_t row_first, int32_t row_last, ptrdiff_t count, uint8_t *colors) {
    (void)texels; (void)width; (void)qx; (void)qy; (void)step_x; (void)step_y; (void)col_first;
    (void)col_last; (void)row_first; (void)row_last; (void)count; (void)colors;
}

#endif
