// penumbra_blur.c: the interleaved Gaussian blur's two row functions in
// 256-bit integer vectors, for CPUs with AVX2.
//
// Why C. The package is compiled for baseline x86-64 (SSE2, 128-bit vectors)
// so that one binary runs on every x86-64 server; Swift has no per-function
// target attribute. Clang does: the functions below are compiled for AVX2
// (`__attribute__((target("avx2")))`) inside an otherwise baseline object,
// and RGBABlur.swift calls them only when penumbra_blur_has_avx2() said so,
// decided once per process. Everywhere else the Swift row functions run.
//
// Same bytes. These are RGBABlurPasses.horizontalRow and verticalRow
// (RGBABlur.swift) with each pair of 128-bit steps fused into one 256-bit
// step: the same 16-bit pair multiply-adds (vpmaddwd) of the same factors,
// summed in wrapping 32-bit lanes, then the same rounding shifts
// (docs/ARITHMETIC.md, "Gaussian blur"). Integer sums do not depend on
// their order, so only the lane bookkeeping differs:
// - AVX2's unpack and pack instructions work within each 128-bit half, so
//   interleaving a 16-lane block (unpacklo/unpackhi) yields lanes 0-3 | 8-11
//   and 4-7 | 12-15, and vpackusdw of those two puts lanes 0..15 back in
//   order; in the vertical pass the pair rows are already interleaved, so
//   the sums come out in order and the final byte pack needs one qword
//   permute.
// - The packs saturate where Swift truncates; they agree because every value
//   packed is in range: h = sum W[i] a[...] lies in [0, 255 * 2^16], so
//   (h + 2^7) >> 8 <= 65280 fits UInt16, and (v + 2^23) >> 24 <= 255.
// One more step than the Swift code: penumbra_blur_vertical2_avx2 computes
// two output rows that read the same pair rows in one sweep, loading each
// pair row's values once for both (each row's sums are unchanged).
// RGBABlurTests runs both paths on random images and compares their bytes
// with each other and with the tap-by-tap reference.
//
// Reads stay inside the Swift side's buffers: blocks of 16 lanes run to the
// row's lanes rounded up to 16 (the padded row, the horizontal output and
// every ring pair row are that long), two blocks at a time while two fit.

#include "penumbra_blur.h"

#if defined(__x86_64__)

#include <cpuid.h>
#include <immintrin.h>
#include <string.h>

int penumbra_blur_has_avx2(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    // AVX (bit 28) and OSXSAVE (bit 27): the OS can be asked whether it saves YMM state.
    if ((c & (1u << 27)) == 0 || (c & (1u << 28)) == 0) return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return 0;  // XMM and YMM state enabled
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & (1u << 5)) != 0;  // AVX2
}

#define AVX2 __attribute__((target("avx2")))

static inline AVX2 __m256i load256(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline AVX2 __m256i broadcast_pair(const int16_t *w) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)w));
}

// The rounding and bias of one 16-lane block's sums (lanes 0-3 | 8-11 and 4-7 | 12-15): h16 - 2^15.
static inline AVX2 __m256i horizontal_finish(__m256i s_lo, __m256i s_hi) {
    const __m256i half = _mm256_set1_epi32(128);
    s_lo = _mm256_srli_epi32(_mm256_add_epi32(s_lo, half), 8);
    s_hi = _mm256_srli_epi32(_mm256_add_epi32(s_hi, half), 8);
    // Both in [0, 65280]: the unsigned saturating pack is exact, and restores lane order.
    return _mm256_xor_si256(_mm256_packus_epi32(s_lo, s_hi), _mm256_set1_epi16((short)0x8000));
}

// h16 - 2^15 of the 16 lanes at `middle` (the padded row's lane x) into `output`.
static inline AVX2 void horizontal_block(const uint16_t *middle, ptrdiff_t channels, ptrdiff_t pair_count,
                                         __m256i centre_weights, const int16_t *pairs, uint16_t *output) {
    // The centre tap as a pair of itself, its weight split in two halves below 2^15.
    __m256i c = load256(middle);
    __m256i s_lo = _mm256_madd_epi16(_mm256_unpacklo_epi16(c, c), centre_weights);  // lanes 0-3 | 8-11
    __m256i s_hi = _mm256_madd_epi16(_mm256_unpackhi_epi16(c, c), centre_weights);  // lanes 4-7 | 12-15
    const uint16_t *near_left = middle - channels, *near_right = middle + channels;
    const uint16_t *far_left = middle - 2 * channels, *far_right = middle + 2 * channels;
    const ptrdiff_t step = 2 * channels;
    for (ptrdiff_t i = 0; i < pair_count; i++) {
        // Tap pairs i and i + 1: the symmetric samples added first (at most 510).
        __m256i a = _mm256_add_epi16(load256(near_left), load256(near_right));
        __m256i b = _mm256_add_epi16(load256(far_left), load256(far_right));
        __m256i w = broadcast_pair(pairs + 8 * i);
        s_lo = _mm256_add_epi32(s_lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, b), w));
        s_hi = _mm256_add_epi32(s_hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, b), w));
        near_left -= step; near_right += step; far_left -= step; far_right += step;
    }
    _mm256_storeu_si256((__m256i *)output, horizontal_finish(s_lo, s_hi));
}

// horizontal_block on two adjacent blocks (32 lanes) in one loop: the weights and the pointer
// steps are shared, and the four sums are independent.
static inline AVX2 void horizontal_block_pair(const uint16_t *middle, ptrdiff_t channels, ptrdiff_t pair_count,
                                              __m256i centre_weights, const int16_t *pairs, uint16_t *output) {
    __m256i c0 = load256(middle), c1 = load256(middle + 16);
    __m256i s0 = _mm256_madd_epi16(_mm256_unpacklo_epi16(c0, c0), centre_weights);
    __m256i s1 = _mm256_madd_epi16(_mm256_unpackhi_epi16(c0, c0), centre_weights);
    __m256i s2 = _mm256_madd_epi16(_mm256_unpacklo_epi16(c1, c1), centre_weights);
    __m256i s3 = _mm256_madd_epi16(_mm256_unpackhi_epi16(c1, c1), centre_weights);
    const uint16_t *near_left = middle - channels, *near_right = middle + channels;
    const uint16_t *far_left = middle - 2 * channels, *far_right = middle + 2 * channels;
    const ptrdiff_t step = 2 * channels;
    for (ptrdiff_t i = 0; i < pair_count; i++) {
        __m256i a0 = _mm256_add_epi16(load256(near_left), load256(near_right));
        __m256i b0 = _mm256_add_epi16(load256(far_left), load256(far_right));
        __m256i a1 = _mm256_add_epi16(load256(near_left + 16), load256(near_right + 16));
        __m256i b1 = _mm256_add_epi16(load256(far_left + 16), load256(far_right + 16));
        __m256i w = broadcast_pair(pairs + 8 * i);
        s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(_mm256_unpacklo_epi16(a0, b0), w));
        s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(_mm256_unpackhi_epi16(a0, b0), w));
        s2 = _mm256_add_epi32(s2, _mm256_madd_epi16(_mm256_unpacklo_epi16(a1, b1), w));
        s3 = _mm256_add_epi32(s3, _mm256_madd_epi16(_mm256_unpackhi_epi16(a1, b1), w));
        near_left -= step; near_right += step; far_left -= step; far_right += step;
    }
    _mm256_storeu_si256((__m256i *)output, horizontal_finish(s0, s1));
    _mm256_storeu_si256((__m256i *)(output + 16), horizontal_finish(s2, s3));
}

AVX2 void penumbra_blur_horizontal_avx2(const uint8_t *row, uint16_t *output, uint16_t *padded, ptrdiff_t lanes,
                                        ptrdiff_t channels, ptrdiff_t radius, const int16_t *centre_pair,
                                        const int16_t *pairs) {
    uint16_t *centre = padded + channels * (radius + 1);
    ptrdiff_t x = 0;
    for (; x + 16 <= lanes; x += 16)
        _mm256_storeu_si256((__m256i *)(centre + x), _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(row + x))));
    for (; x < lanes; x++) centre[x] = row[x];
    const ptrdiff_t blocked = (lanes + 15) & ~(ptrdiff_t)15, pair_count = (radius + 1) / 2;
    const __m256i wc = broadcast_pair(centre_pair);
    for (x = 0; x + 32 <= blocked; x += 32) horizontal_block_pair(centre + x, channels, pair_count, wc, pairs, output + x);
    if (x < blocked) horizontal_block(centre + x, channels, pair_count, wc, pairs, output + x);
}

// (v - 2^31 + 2^31 + 2^23) >> 24 of 8 lanes: bytes in [0, 255], in 32-bit lanes.
static inline AVX2 __m256i vertical_round(__m256i sums) {
    return _mm256_srli_epi32(_mm256_add_epi32(sums, _mm256_set1_epi32((int)0x80800000u)), 24);
}

// 16 bytes from two vectors of 8 lanes each (lanes 0-7 and 8-15, in order).
static inline AVX2 __m128i vertical_bytes(__m256i a, __m256i b) {
    // packus: a0-3 b0-3 | a4-7 b4-7 as qwords (a0-3, b0-3, a4-7, b4-7); reorder to a, a, b, b.
    __m256i words = _mm256_permute4x64_epi64(_mm256_packus_epi32(vertical_round(a), vertical_round(b)),
                                             _MM_SHUFFLE(3, 1, 2, 0));
    return _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
}

// One output row's lanes from `x` on (penumbra_blur_vertical_avx2 from 0).
static inline AVX2 void vertical_row_from(const int16_t *const *rows, const int16_t *weights, ptrdiff_t count,
                                          uint8_t *output, ptrdiff_t x, ptrdiff_t lanes) {
    // Two blocks (32 lanes, 64 pair values) a step while they lie within the row.
    for (; x + 32 <= lanes; x += 32) {
        __m256i s0 = _mm256_setzero_si256(), s1 = s0, s2 = s0, s3 = s0;
        for (ptrdiff_t e = 0; e < count; e++) {
            const int16_t *p = rows[e] + 2 * x;
            __m256i w = broadcast_pair(weights + 8 * e);
            s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(load256(p), w));
            s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(load256(p + 16), w));
            s2 = _mm256_add_epi32(s2, _mm256_madd_epi16(load256(p + 32), w));
            s3 = _mm256_add_epi32(s3, _mm256_madd_epi16(load256(p + 48), w));
        }
        _mm_storeu_si128((__m128i *)(output + x), vertical_bytes(s0, s1));
        _mm_storeu_si128((__m128i *)(output + x + 16), vertical_bytes(s2, s3));
    }
    for (; x < lanes; x += 16) {
        __m256i s0 = _mm256_setzero_si256(), s1 = s0;
        for (ptrdiff_t e = 0; e < count; e++) {
            const int16_t *p = rows[e] + 2 * x;
            __m256i w = broadcast_pair(weights + 8 * e);
            s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(load256(p), w));
            s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(load256(p + 16), w));
        }
        __m128i bytes = vertical_bytes(s0, s1);
        if (x + 16 <= lanes) {
            _mm_storeu_si128((__m128i *)(output + x), bytes);
        } else {
            uint8_t tail[16];
            _mm_storeu_si128((__m128i *)tail, bytes);
            memcpy(output + x, tail, (size_t)(lanes - x));
        }
    }
}

AVX2 void penumbra_blur_vertical_avx2(const int16_t *const *rows, const int16_t *weights, ptrdiff_t count,
                                      uint8_t *output, ptrdiff_t lanes) {
    vertical_row_from(rows, weights, count, output, 0, lanes);
}

// Two output rows at once: rows y and y + 1 with y's first tap on an even horizontal row read
// the same r + 1 pair rows (only the parity's weights differ), so each pair row's values are
// loaded once for both. The vertical pass reads about 2 (r + 1) lanes of 16 bits from L2 for
// every output byte; sharing the loads halves that traffic.
AVX2 void penumbra_blur_vertical2_avx2(const int16_t *const *rows_even, const int16_t *const *rows_odd,
                                       const int16_t *weights_even, const int16_t *weights_odd, ptrdiff_t shared,
                                       ptrdiff_t count, uint8_t *out_even, uint8_t *out_odd, ptrdiff_t lanes) {
    ptrdiff_t x = 0;
    for (; x + 32 <= lanes; x += 32) {
        __m256i e0 = _mm256_setzero_si256(), e1 = e0, e2 = e0, e3 = e0, o0 = e0, o1 = e0, o2 = e0, o3 = e0;
        for (ptrdiff_t e = 0; e < shared; e++) {
            const int16_t *p = rows_even[e] + 2 * x;
            __m256i we = broadcast_pair(weights_even + 8 * e), wo = broadcast_pair(weights_odd + 8 * e);
            __m256i v0 = load256(p), v1 = load256(p + 16), v2 = load256(p + 32), v3 = load256(p + 48);
            e0 = _mm256_add_epi32(e0, _mm256_madd_epi16(v0, we));
            e1 = _mm256_add_epi32(e1, _mm256_madd_epi16(v1, we));
            e2 = _mm256_add_epi32(e2, _mm256_madd_epi16(v2, we));
            e3 = _mm256_add_epi32(e3, _mm256_madd_epi16(v3, we));
            o0 = _mm256_add_epi32(o0, _mm256_madd_epi16(v0, wo));
            o1 = _mm256_add_epi32(o1, _mm256_madd_epi16(v1, wo));
            o2 = _mm256_add_epi32(o2, _mm256_madd_epi16(v2, wo));
            o3 = _mm256_add_epi32(o3, _mm256_madd_epi16(v3, wo));
        }
        // The split centre's extra entry, whose pair row can differ between the parities.
        for (ptrdiff_t e = shared; e < count; e++) {
            const int16_t *p = rows_even[e] + 2 * x, *q = rows_odd[e] + 2 * x;
            __m256i we = broadcast_pair(weights_even + 8 * e), wo = broadcast_pair(weights_odd + 8 * e);
            e0 = _mm256_add_epi32(e0, _mm256_madd_epi16(load256(p), we));
            e1 = _mm256_add_epi32(e1, _mm256_madd_epi16(load256(p + 16), we));
            e2 = _mm256_add_epi32(e2, _mm256_madd_epi16(load256(p + 32), we));
            e3 = _mm256_add_epi32(e3, _mm256_madd_epi16(load256(p + 48), we));
            o0 = _mm256_add_epi32(o0, _mm256_madd_epi16(load256(q), wo));
            o1 = _mm256_add_epi32(o1, _mm256_madd_epi16(load256(q + 16), wo));
            o2 = _mm256_add_epi32(o2, _mm256_madd_epi16(load256(q + 32), wo));
            o3 = _mm256_add_epi32(o3, _mm256_madd_epi16(load256(q + 48), wo));
        }
        _mm_storeu_si128((__m128i *)(out_even + x), vertical_bytes(e0, e1));
        _mm_storeu_si128((__m128i *)(out_even + x + 16), vertical_bytes(e2, e3));
        _mm_storeu_si128((__m128i *)(out_odd + x), vertical_bytes(o0, o1));
        _mm_storeu_si128((__m128i *)(out_odd + x + 16), vertical_bytes(o2, o3));
    }
    // The last 1 to 31 lanes: each row on its own (blocks of 16, the last one partial).
    if (x < lanes) {
        vertical_row_from(rows_even, weights_even, count, out_even, x, lanes);
        vertical_row_from(rows_odd, weights_odd, count, out_odd, x, lanes);
    }
}

#endif
