// The per-sample loops of the Gaussian blur (GaussianBlur.swift, ColumnBoxCascade.swift) that run
// across whole rows: here, in C, so that they have an AVX2 build (see CPUFeatures.h), twice as wide
// as the baseline SSE2 the Swift code is built for. Arithmetic is exactly that of the Swift loops
// they replaced: wrapping 32-bit sums, the float reciprocal, rounding by adding 1.5·2²³ (never
// contracted into a fused multiply-add, so every build gives the same bits).

#include "ImageShims.h"
#include "CPUFeatures.h"

#include <string.h>

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
