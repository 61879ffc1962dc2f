// The sepia color matrix over rows of pixels. It is here, in C, for one reason: on x86-64 the
// compiler builds the loop twice, once for AVX2, where it vectorizes (about 5× faster than scalar
// code), and once for the baseline, and `tg_sepia` picks one by asking the CPU once. Swift code is
// built for the baseline only. Arithmetic is exactly that of the Swift reference it replaced:
// 16.16 fixed point, rounded, capped at 255.
//
// The choice is made in code rather than with `target_clones`: that makes an ifunc whose resolver
// the dynamic loader runs before a sanitizer's runtime is ready, and a ThreadSanitizer build of
// the tests crashed in it at load.

#include "ImageShims.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define TG_HAS_AVX2_BUILD 1
#endif

static inline uint8_t tg_round_cap(int32_t value) {
    int32_t rounded = (value + 32768) >> 16;
    return (uint8_t)(rounded < 255 ? rounded : 255);
}

// The loop, inlined into each build below.
static inline __attribute__((always_inline)) void tg_sepia_rows(
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

#if TG_HAS_AVX2_BUILD
__attribute__((target("avx2")))
static void tg_sepia_avx2(const uint8_t *restrict input, uint8_t *restrict output, size_t count,
                          int channels, const int32_t matrix[9]) {
    tg_sepia_rows(input, output, count, channels, matrix);
}
#endif

static void tg_sepia_baseline(const uint8_t *restrict input, uint8_t *restrict output, size_t count,
                              int channels, const int32_t matrix[9]) {
    tg_sepia_rows(input, output, count, channels, matrix);
}

void tg_sepia(const uint8_t *restrict input, uint8_t *restrict output, size_t count, int channels,
              const int32_t matrix[9]) {
#if TG_HAS_AVX2_BUILD
    // Atomic; threads that race to fill it in store the same value.
    static _Atomic int has_avx2 = -1;
    int known = has_avx2;
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") ? 1 : 0;
        has_avx2 = known;
    }
    if (known) {
        tg_sepia_avx2(input, output, count, channels, matrix);
        return;
    }
#endif
    tg_sepia_baseline(input, output, count, channels, matrix);
}
