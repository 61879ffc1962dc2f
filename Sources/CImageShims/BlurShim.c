// The per-sample loops of the Gaussian blur (GaussianBlur.swift, ColumnBoxCascade.swift) that run
// across whole rows: here, in C, so that they have an AVX2 build (see CPUFeatures.h), twice as wide
// as the baseline SSE2 the Swift code is built for. Arithmetic is exactly that of the Swift loops
// they replaced: wrapping 32-bit sums, the float reciprocal, rounding by adding 1.5·2²³ (never
// contracted into a fused multiply-add, so every build gives the same bits).

#include "ImageShims.h"
#include "CPUFeatures.h"

#include <string.h>

#if TG_HAS_AVX2_BUILD
#include <immintrin.h>
#endif

#pragma STDC FP_CONTRACT OFF

static inline __attribute__((always_inline)) void tg_blur_widen_loop(
    const uint8_t *restrict input, int32_t *restrict output, size_t count) {
    for (size_t i = 0; i < count; i++) output[i] = (int32_t)input[i] << 8;
}

TG_DISPATCHED(tg_blur_widen, (const uint8_t *restrict input, int32_t *restrict output, size_t count),
              (input, output, count))

static inline __attribute__((always_inline)) void tg_blur_narrow_loop(
    const int32_t *restrict input, uint16_t *restrict output, size_t count) {
    for (size_t i = 0; i < count; i++) output[i] = (uint16_t)input[i];
}

TG_DISPATCHED(tg_blur_narrow, (const int32_t *restrict input, uint16_t *restrict output, size_t count),
              (input, output, count))

static inline __attribute__((always_inline)) void tg_blur_column_step_loop(
    const uint16_t *add, const uint16_t *remove, int32_t *restrict sums, uint16_t *restrict target,
    size_t count, float scale) {
    for (size_t i = 0; i < count; i++) {
        const uint32_t sum = (uint32_t)sums[i] + add[i] - remove[i];
        sums[i] = (int32_t)sum;
        const float mean = (float)(int32_t)sum * scale + 12582912.0f;
        uint32_t bits;
        memcpy(&bits, &mean, sizeof bits);
        target[i] = (uint16_t)(bits - 0x4B400000u);
    }
}

TG_DISPATCHED(tg_blur_column_step,
              (const uint16_t *add, const uint16_t *remove, int32_t *restrict sums,
               uint16_t *restrict target, size_t count, float scale),
              (add, remove, sums, target, count, scale))

static inline __attribute__((always_inline)) void tg_blur_mix_loop(
    const uint8_t *restrict original, const uint16_t *restrict blurred, int32_t weight,
    uint8_t *restrict target, size_t count) {
    const uint32_t keep = (uint32_t)(256 - weight) << 8;
    for (size_t i = 0; i < count; i++) {
        const uint32_t mixed = original[i] * keep + blurred[i] * (uint32_t)weight + 32768u;
        target[i] = (uint8_t)(mixed >> 16);
    }
}

TG_DISPATCHED(tg_blur_mix,
              (const uint8_t *restrict original, const uint16_t *restrict blurred, int32_t weight,
               uint8_t *restrict target, size_t count),
              (original, blurred, weight, target, count))

#if TG_HAS_AVX2_BUILD
// BoxFilter.row's running mean with the row cut in two halves run side by side, one in each
// 128-bit lane of the AVX2 vectors: a running sum is a chain of dependent additions, and two
// chains at once do twice the work per step. The same sums, in the same order, as BoxFilter.row.
TG_AVX2 static int tg_blur_box_row_avx2(const int32_t *in, int32_t *out, size_t count, int channels, int radius) {
    if (radius <= 0 || count < 4 * (size_t)radius + 8) return 0;
    const size_t ch = (size_t)channels, r = (size_t)radius, last = count - 1, half = count / 2;
    const __m256 scale = _mm256_set1_ps(1.0f / (float)(2 * radius + 1));
    const __m256 magic = _mm256_set1_ps(12582912.0f);
    const __m256i bias = _mm256_set1_epi32(0x4B400000);
#define PIXEL(x) _mm_loadu_si128((const __m128i *)(in + (x) * ch))
#define PAIR(a, b) _mm256_inserti128_si256(_mm256_castsi128_si256(PIXEL(a)), PIXEL(b), 1)
    // Left: the running sum at 0, edge extended; right: the window around `half`, inside the row.
    __m128i left = _mm_mullo_epi32(PIXEL(0), _mm_set1_epi32(radius + 1));
    for (size_t k = 1; k <= r; k++) left = _mm_add_epi32(left, PIXEL(k));
    __m128i right = PIXEL(half);
    for (size_t k = 1; k <= r; k++) right = _mm_add_epi32(right, _mm_add_epi32(PIXEL(half - k), PIXEL(half + k)));
    __m256i sum = _mm256_inserti128_si256(_mm256_castsi128_si256(left), right, 1);
    __m256i first = _mm256_setzero_si256();
    for (size_t x = 0; x < half; x++) {
        const __m256 mean = _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(sum), scale), magic);
        const __m256i rounded = _mm256_sub_epi32(_mm256_castps_si256(mean), bias);
        _mm_storeu_si128((__m128i *)(out + x * ch), _mm256_castsi256_si128(rounded));
        _mm_storeu_si128((__m128i *)(out + (half + x) * ch), _mm256_extracti128_si256(rounded, 1));
        if (x == 0) first = rounded;
        const size_t addRight = half + x + r + 1 < last ? half + x + r + 1 : last;
        const size_t removeLeft = x > r ? x - r : 0;
        sum = _mm256_add_epi32(sum, _mm256_sub_epi32(PAIR(x + r + 1, addRight), PAIR(removeLeft, half + x - r)));
    }
    // A row of odd length: its last pixel, from the right sum.
    if (2 * half < count) {
        const __m128 mean = _mm_add_ps(_mm_mul_ps(_mm_cvtepi32_ps(_mm256_extracti128_si256(sum, 1)),
                                                  _mm256_castps256_ps128(scale)), _mm256_castps256_ps128(magic));
        _mm_storeu_si128((__m128i *)(out + last * ch),
                         _mm_sub_epi32(_mm_castps_si128(mean), _mm256_castsi256_si128(bias)));
    }
    // The left half's last store spilled one sample into the right half's first pixel (with 3
    // channels): write that pixel again.
    int32_t saved[8];
    _mm256_storeu_si256((__m256i *)saved, first);
    for (size_t c = 0; c < ch; c++) out[half * ch + c] = saved[4 + c];
#undef PAIR
#undef PIXEL
    return 1;
}
#endif

int tg_blur_box_row(const int32_t *input, int32_t *output, size_t count, int channels, int radius) {
#if TG_HAS_AVX2_BUILD
    if (tg_has_avx2()) return tg_blur_box_row_avx2(input, output, count, channels, radius);
#endif
    (void)input, (void)output, (void)count, (void)channels, (void)radius;
    return 0;
}
