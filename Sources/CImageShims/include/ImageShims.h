#ifndef TASKGRAPH_IMAGE_SHIMS_H
#define TASKGRAPH_IMAGE_SHIMS_H

// Typed wrappers around libjpeg-turbo and libpng for Swift, and the pixel loops that need
// CPU-specific builds (tg_sepia, tg_blur_*). Every codec function reports failure by returning 0 and
// copying the codec's own message into `message` (NUL-terminated); nothing is printed.
// libjpeg's setjmp/longjmp never crosses into Swift.

#include <stddef.h>
#include <stdint.h>

/// Size of the message buffers callers pass.
#define TG_MESSAGE_SIZE 200

/// What a JPEG header says.
typedef struct {
    int width;
    int height;
    /// 1 for grayscale, 3 for YCbCr/RGB, 4 for CMYK/YCCK.
    int components;
    /// Non-zero for Adobe CMYK or YCCK images.
    int is_cmyk;
    /// Bytes libjpeg holds for the DCT coefficients of the whole image while decoding it: for a
    /// progressive (multi-scan) JPEG 128 per 8×8 block of every component, 0 for a baseline one.
    /// `tg_jpeg_decode` gives them back as it writes the pixels, so a decode holds about the
    /// larger of these and the image, not both.
    size_t coefficient_bytes;
} tg_jpeg_info;

/// Reads the header of the JPEG in `data`.
int tg_jpeg_read_header(const uint8_t *data, size_t size, tg_jpeg_info *info, char *message);

/// Decodes the JPEG in `data` into `pixels`: `height` rows of `width * channels` bytes,
/// `channels` 3 (RGB) or 4 (RGBA, alpha 255). Grayscale images are expanded to RGB.
/// `scale_denominator` (1, 2, 4 or 8) shrinks each side by that factor in the DCT domain (each
/// side becomes ceil(side / scale_denominator); `width` and `height` must be those sizes).
/// The premature end of the data is an error (libjpeg only warns). A progressive JPEG's
/// coefficient memory is returned to the system row by row as the pixels are written.
int tg_jpeg_decode(const uint8_t *data, size_t size, uint8_t *pixels, int width, int height,
                   int channels, int scale_denominator, char *message);

/// Encodes `pixels` (rows of `width * channels` bytes, channels 3 or 4; alpha is dropped) as a
/// baseline 4:2:0 JPEG of `quality` 1...100. On success `*output` is a malloc'd buffer of
/// `*output_size` bytes for the caller to free with `tg_free`.
int tg_jpeg_encode(const uint8_t *pixels, int width, int height, int channels, int quality,
                   uint8_t **output, size_t *output_size, char *message);

/// What a PNG header says.
typedef struct {
    int width;
    int height;
    /// Non-zero when the image has an alpha channel or transparency.
    int has_alpha;
} tg_png_info;

/// Reads the header of the PNG in `data`.
int tg_png_read_header(const uint8_t *data, size_t size, tg_png_info *info, char *message);

/// Decodes the PNG in `data` into 8-bit sRGB `pixels` with `channels` 3 (RGB) or 4 (RGBA, not
/// premultiplied), rows of `width * channels` bytes. 16-bit images without gAMA are taken as sRGB.
int tg_png_decode(const uint8_t *data, size_t size, uint8_t *pixels, int channels, char *message);

/// Encodes `pixels` (channels 3 or 4) as an 8-bit PNG into a malloc'd buffer, freed with `tg_free`.
int tg_png_encode(const uint8_t *pixels, int width, int height, int channels,
                  uint8_t **output, size_t *output_size, char *message);

/// Sepia-tones `count` pixels of `channels` 3 or 4 samples (alpha copied) from `input` into
/// `output`, which must not overlap: `out = min(round(M · rgb), 255)` with `matrix` the 3×3
/// matrix M row by row in 16.16 fixed point, entries in 0...65536.
void tg_sepia(const uint8_t *restrict input, uint8_t *restrict output, size_t count, int channels,
              const int32_t matrix[9]);

/// `output[i] = input[i] << 8` for `count` samples: 8-bit samples to 8.8 fixed point.
void tg_blur_widen(const uint8_t *restrict input, int32_t *restrict output, size_t count);

/// `output[i] = input[i]` truncated to 16 bits, for `count` samples.
void tg_blur_narrow(const int32_t *restrict input, uint16_t *restrict output, size_t count);

/// One row of a running column mean, for `count` samples: `sums[i] += add[i] - remove[i]` (add and
/// remove may be the same row), then `target[i] = round(sums[i] · scale)` (ties to even).
void tg_blur_column_step(const uint16_t *add, const uint16_t *remove, int32_t *restrict sums,
                         uint16_t *restrict target, size_t count, float scale);

/// `target[i] = (original[i] · (256 − weight) · 256 + blurred[i] · weight + 32768) >> 16` for
/// `count` samples, `blurred` in 8.8 fixed point and `weight` in 0...256.
void tg_blur_mix(const uint8_t *restrict original, const uint16_t *restrict blurred, int32_t weight,
                 uint8_t *restrict target, size_t count);

/// One box-filter pass along a row, exactly as `BoxFilter.row` (Swift) computes it, with the AVX2
/// build: `count` pixels of `channels` (3 or 4) samples, `input` and `output` with one sample
/// beyond the row. Returns 0, doing nothing, when the CPU lacks AVX2, `radius` is 0 or the row is
/// shorter than `4 · radius + 8` pixels; the caller then runs `BoxFilter.row`.
int tg_blur_box_row(const int32_t *input, int32_t *output, size_t count, int channels, int radius);

/// The horizontal pass of the resize (`ResizeKernel`), for `rows` rows of `channels` samples a
/// pixel, `input_stride` bytes apart, of which the first `input_bytes` are the row's: output
/// sample `c` of pixel `x` is `(32 + Σ weights[x·taps + k] · row[offsets[x·taps + k] + c]) >> 6`
/// over `k < taps` (`offsets` in bytes, weights 2.14 fixed point summing to 2¹⁴; sums wrap at 32
/// bits), in 8.8 fixed point, `width · channels` samples a row. Each pixel's highest offset is at
/// least the previous pixel's.
void tg_resize_across(const uint8_t *input, size_t input_stride, size_t input_bytes, uint16_t *restrict output,
                      size_t width, size_t rows, int channels, int taps, const int32_t *offsets,
                      const int32_t *weights);

/// One output row of the vertical pass of the resize: `output[i] = (2²¹ + Σ weights[k] ·
/// middle[rows[k] · row_samples + i]) >> 22` over `k < taps`, for `row_samples` samples; `sums`
/// is scratch space of `row_samples` values.
void tg_resize_down(const uint16_t *middle, size_t row_samples, int taps, const int32_t *rows,
                    const int32_t *weights, int32_t *restrict sums, uint8_t *restrict output);

/// Frees a buffer returned by an encoder.
void tg_free(void *buffer);

#endif
