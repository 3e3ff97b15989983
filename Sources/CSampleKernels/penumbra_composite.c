// penumbra_composite.c: normal mode's row composite for per-pixel sources
// (Blend+Row.swift's Int32 kernel, `compositeRow` with NormalKernel) in
// 256-bit integer vectors, eight pixels a step, for CPUs with AVX2; compiled
// for AVX2 per function inside a baseline object, as the sampler is.
//
// Same bytes, for any input bytes, with no per-pixel branch. The Swift kernel
// computes, per channel, N = 255 s + d (255 - sa) clamped to 0...65025,
// b = div255(N), every colour clamped to b's alpha, and
// div255(d (255 - t) + b t), skipping pixels with t = 0 or sa = 0. Here in
// 16-bit lanes: each product is at most 65025; their sum saturates
// (adds_epu16) and is then clamped to 65025, which is the clamp of the true
// sum (at most 130050) whatever it was; div255's (x + 128 + ((x + 128) >> 8))
// >> 8 stays below 2^16 for x <= 65025; the mix is at most 65025. t = 255
// gives div255(255 b) = b, which is the Swift kernel's shortcuts (t = 255
// stores b; an opaque source stores s, and div255(255 s + 0) = s); t = 0 and
// sa = 0 keep the destination by a final select.
//
// Lanes: unpacking a register's bytes with zeros gives, in each 128-bit
// half, two pixels (low: pixels 0, 1 | 4, 5; high: 2, 3 | 6, 7), and packing
// the two back restores the order. A pixel's alpha and coverage are copied to
// its four 16-bit lanes by byte shuffles.

#include "penumbra_composite.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <string.h>

#define AVX2 __attribute__((target("avx2")))

static inline AVX2 __m256i div255(__m256i x) {
    __m256i t = _mm256_add_epi16(x, _mm256_set1_epi16(128));
    return _mm256_srli_epi16(_mm256_add_epi16(t, _mm256_srli_epi16(t, 8)), 8);
}

// Each pixel's alpha (16-bit lane 3 of four) in all four of its lanes.
static inline AVX2 __m256i alphas(__m256i x) {
    const __m256i spread = _mm256_setr_epi8(6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15,
                                            6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15);
    return _mm256_shuffle_epi8(x, spread);
}

// Two pixels a 128-bit half: s, d and t as 16-bit lanes (t already in each pixel's four lanes).
static inline AVX2 __m256i composite(__m256i s, __m256i d, __m256i t) {
    const __m256i c255 = _mm256_set1_epi16(255), zero = _mm256_setzero_si256();
    __m256i sa = alphas(s);
    __m256i n = _mm256_adds_epu16(_mm256_mullo_epi16(s, c255), _mm256_mullo_epi16(d, _mm256_sub_epi16(c255, sa)));
    __m256i b = div255(_mm256_min_epu16(n, _mm256_set1_epi16((short)65025)));
    b = _mm256_min_epu16(b, alphas(b));
    __m256i mixed = div255(_mm256_add_epi16(_mm256_mullo_epi16(d, _mm256_sub_epi16(c255, t)), _mm256_mullo_epi16(b, t)));
    __m256i keep = _mm256_or_si256(_mm256_cmpeq_epi16(t, zero), _mm256_cmpeq_epi16(sa, zero));
    return _mm256_blendv_epi8(mixed, d, keep);
}

AVX2 void penumbra_normal_row_avx2(const uint8_t *sources, const uint8_t *coverage, uint8_t constant,
                                   ptrdiff_t count, uint8_t *pixels) {
    const __m256i zero = _mm256_setzero_si256();
    // A pixel's coverage byte to its four 16-bit lanes, for the low (pixels 0, 1 | 4, 5) and
    // high (2, 3 | 6, 7) unpacked registers; 0x80 bytes read as zero.
    const __m256i low_order = _mm256_setr_epi8(0, -128, 0, -128, 0, -128, 0, -128, 1, -128, 1, -128, 1, -128, 1, -128,
                                               4, -128, 4, -128, 4, -128, 4, -128, 5, -128, 5, -128, 5, -128, 5, -128);
    const __m256i high_order = _mm256_setr_epi8(2, -128, 2, -128, 2, -128, 2, -128, 3, -128, 3, -128, 3, -128, 3, -128,
                                                6, -128, 6, -128, 6, -128, 6, -128, 7, -128, 7, -128, 7, -128, 7, -128);
    __m256i t_low = _mm256_set1_epi16(constant), t_high = t_low;
    for (ptrdiff_t i = 0; i < count; i += 8) {
        if (coverage) {
            int64_t bytes;
            memcpy(&bytes, coverage + i, 8);
            __m256i c = _mm256_set1_epi64x(bytes);
            t_low = _mm256_shuffle_epi8(c, low_order);
            t_high = _mm256_shuffle_epi8(c, high_order);
        }
        __m256i s = _mm256_loadu_si256((const __m256i *)(sources + i * 4));
        __m256i d = _mm256_loadu_si256((const __m256i *)(pixels + i * 4));
        __m256i low = composite(_mm256_unpacklo_epi8(s, zero), _mm256_unpacklo_epi8(d, zero), t_low);
        __m256i high = composite(_mm256_unpackhi_epi8(s, zero), _mm256_unpackhi_epi8(d, zero), t_high);
        _mm256_storeu_si256((__m256i *)(pixels + i * 4), _mm256_packus_epi16(low, high));
    }
}

#else

void penumbra_normal_row_avx2(const uint8_t *sources, const uint8_t *coverage, uint8_t constant,
                              ptrdiff_t count, uint8_t *pixels) {
    (void)sources; (void)coverage; (void)constant; (void)count; (void)pixels;
}

#endif
