// The two passes of the resize (ResizeKernel.swift), here in C so that they have an AVX2 build (see
// CPUFeatures.h) and a pixel of 3 or 4 samples is one 4-lane vector. Arithmetic is exactly that of
// the Swift loops they replaced: 2.14 fixed-point weights, wrapping 32-bit sums (added as unsigned,
// where C defines the wrap, then read as signed for the arithmetic shift), an 8.8 fixed-point
// intermediate.

#include "ImageShims.h"
#include "CPUFeatures.h"

#include <string.h>

typedef uint8_t tg_u8x4 __attribute__((vector_size(4)));
typedef int32_t tg_i32x4 __attribute__((vector_size(16)));
typedef uint32_t tg_u32x4 __attribute__((vector_size(16)));

// One output sample of the horizontal pass, one sample at a time.
static inline __attribute__((always_inline)) uint16_t tg_resize_sample(
    const uint8_t *row, int taps, const int32_t *offsets, const int32_t *weights) {
    uint32_t sum = 32;
    for (int k = 0; k < taps; k++) sum += (uint32_t)weights[k] * row[offsets[k]];
    return (uint16_t)((int32_t)sum >> 6);
}

static inline __attribute__((always_inline)) void tg_resize_across_loop(
    const uint8_t *input, size_t input_stride, size_t input_bytes, uint16_t *restrict output,
    size_t width, size_t rows, int channels, int taps, const int32_t *offsets, const int32_t *weights) {
    // Pixels whose every tap can be read as 4 bytes without reading past the row (3 samples a
    // pixel: the last pixel's fourth byte is the next row's, or past the image). A pixel's highest
    // offset is never below the one before it's (ImageShims.h), so the first from the end that
    // fits bounds them all.
    size_t vector_width = channels == 3 || channels == 4 ? width : 0;
    while (vector_width > 0) {
        const int32_t *last = offsets + (vector_width - 1) * (size_t)taps;
        int32_t highest = 0;
        for (int k = 0; k < taps; k++) highest = last[k] > highest ? last[k] : highest;
        if ((size_t)highest + 4 <= input_bytes) break;
        vector_width--;
    }
    for (size_t y = 0; y < rows; y++) {
        const uint8_t *row = input + y * input_stride;
        uint16_t *out = output + y * width * (size_t)channels;
        for (size_t x = 0; x < vector_width; x++) {
            const int32_t *o = offsets + x * (size_t)taps;
            const int32_t *w = weights + x * (size_t)taps;
            tg_u32x4 total = {32, 32, 32, 32};
            for (int k = 0; k < taps; k++) {
                tg_u8x4 pixel;
                memcpy(&pixel, row + o[k], 4);
                total += __builtin_convertvector(pixel, tg_u32x4) * (uint32_t)w[k];
            }
            tg_i32x4 sum = (tg_i32x4)total >> 6;
            uint16_t *target = out + x * (size_t)channels;
            target[0] = (uint16_t)sum[0];
            target[1] = (uint16_t)sum[1];
            target[2] = (uint16_t)sum[2];
            if (channels == 4) target[3] = (uint16_t)sum[3];
        }
        for (size_t x = vector_width; x < width; x++) {
            for (int c = 0; c < channels; c++) {
                out[x * (size_t)channels + (size_t)c] = tg_resize_sample(
                    row + c, taps, offsets + x * (size_t)taps, weights + x * (size_t)taps);
            }
        }
    }
}

TG_DISPATCHED(tg_resize_across,
              (const uint8_t *input, size_t input_stride, size_t input_bytes, uint16_t *restrict output,
               size_t width, size_t rows, int channels, int taps, const int32_t *offsets,
               const int32_t *weights),
              (input, input_stride, input_bytes, output, width, rows, channels, taps, offsets, weights))

static inline __attribute__((always_inline)) void tg_resize_down_loop(
    const uint16_t *middle, size_t row_samples, int taps, const int32_t *rows, const int32_t *weights,
    int32_t *restrict sums, uint8_t *restrict output) {
    for (size_t i = 0; i < row_samples; i++) sums[i] = 1 << 21;
    for (int k = 0; k < taps; k++) {
        const uint16_t *input = middle + (size_t)rows[k] * row_samples;
        const int32_t weight = weights[k];
        for (size_t i = 0; i < row_samples; i++) {
            sums[i] = (int32_t)((uint32_t)sums[i] + (uint32_t)weight * input[i]);
        }
    }
    for (size_t i = 0; i < row_samples; i++) output[i] = (uint8_t)(sums[i] >> 22);
}

TG_DISPATCHED(tg_resize_down,
              (const uint16_t *middle, size_t row_samples, int taps, const int32_t *rows,
               const int32_t *weights, int32_t *restrict sums, uint8_t *restrict output),
              (middle, row_samples, taps, rows, weights, sums, output))
