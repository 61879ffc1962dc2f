// The sepia color matrix over rows of pixels. It is here, in C, for one reason: on x86-64 the
// compiler builds the loop twice, once for AVX2, where it vectorizes (about 5× faster than scalar
// code), and once for the baseline (see CPUFeatures.h). Arithmetic is exactly that of the Swift
// reference it replaced: 16.16 fixed point, rounded, capped at 255.

#include "ImageShims.h"
#include "CPUFeatures.h"

static inline uint8_t tg_round_cap(int32_t value) {
    int32_t rounded = (value + 32768) >> 16;
    return (uint8_t)(rounded < 255 ? rounded : 255);
}

// The loop, inlined into each build of tg_sepia.
static inline __attribute__((always_inline)) void tg_sepia_loop(
    const uint8_t *restrict input, uint8_t *restrict output, size_t count, int channels,
    const int32_t matrix[9]) {
    const int32_t r0 = matrix[0], r1 = matrix[1], r2 = matrix[2];
    const int32_t g0 = matrix[3], g1 = matrix[4], g2 = matrix[5];
    const int32_t b0 = matrix[6], b1 = matrix[7], b2 = matrix[8];
    if (channels == 4) {
        for (size_t i = 0; i < count; i++) {
            const int32_t r = input[4 * i], g = input[4 * i + 1], b = input[4 * i + 2];
            output[4 * i] = tg_round_cap(r0 * r + r1 * g + r2 * b);
            output[4 * i + 1] = tg_round_cap(g0 * r + g1 * g + g2 * b);
            output[4 * i + 2] = tg_round_cap(b0 * r + b1 * g + b2 * b);
            output[4 * i + 3] = input[4 * i + 3];
        }
    } else {
        for (size_t i = 0; i < count; i++) {
            const int32_t r = input[3 * i], g = input[3 * i + 1], b = input[3 * i + 2];
            output[3 * i] = tg_round_cap(r0 * r + r1 * g + r2 * b);
            output[3 * i + 1] = tg_round_cap(g0 * r + g1 * g + g2 * b);
            output[3 * i + 2] = tg_round_cap(b0 * r + b1 * g + b2 * b);
        }
    }
}

TG_DISPATCHED(tg_sepia,
              (const uint8_t *restrict input, uint8_t *restrict output, size_t count, int channels,
               const int32_t matrix[9]),
              (input, output, count, channels, matrix))
