// libpng wrappers over the simplified API (png_image_*), which reports errors in image.message
// and needs no setjmp in the caller. The PNG_FORMAT_* macros Swift cannot see stay here.

#include "ImageShims.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>

static int tg_png_fail(png_image *image, char *message) {
    snprintf(message, TG_MESSAGE_SIZE, "%s", image->message);
    png_image_free(image);
    return 0;
}

static int tg_png_begin(png_image *image, const uint8_t *data, size_t size, char *message) {
    memset(image, 0, sizeof *image);
    image->version = PNG_IMAGE_VERSION;
    message[0] = '\0';
    if (!png_image_begin_read_from_memory(image, data, size)) return tg_png_fail(image, message);
    return 1;
}

int tg_png_read_header(const uint8_t *data, size_t size, tg_png_info *info, char *message) {
    png_image image;
    if (!tg_png_begin(&image, data, size, message)) return 0;
    info->width = (int)image.width;
    info->height = (int)image.height;
    info->has_alpha = (image.format & PNG_FORMAT_FLAG_ALPHA) != 0;
    png_image_free(&image);
    return 1;
}

int tg_png_decode(const uint8_t *data, size_t size, uint8_t *pixels, int channels, char *message) {
    png_image image;
    if (!tg_png_begin(&image, data, size, message)) return 0;
    image.format = channels == 4 ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
    image.flags |= PNG_IMAGE_FLAG_16BIT_sRGB;
    png_int_32 stride = (png_int_32)(image.width * (png_uint_32)channels);
    if (!png_image_finish_read(&image, NULL, pixels, stride, NULL)) return tg_png_fail(&image, message);
    return 1;
}

int tg_png_encode(const uint8_t *pixels, int width, int height, int channels,
                  uint8_t **output, size_t *output_size, char *message) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = (png_uint_32)width;
    image.height = (png_uint_32)height;
    image.format = channels == 4 ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
    message[0] = '\0';
    png_alloc_size_t capacity = PNG_IMAGE_PNG_SIZE_MAX(image);
    uint8_t *buffer = malloc(capacity);
    if (buffer == NULL) {
        snprintf(message, TG_MESSAGE_SIZE, "out of memory for a %zu-byte PNG", (size_t)capacity);
        return 0;
    }
    png_alloc_size_t size = capacity;
    png_int_32 stride = (png_int_32)(width * channels);
    if (!png_image_write_to_memory(&image, buffer, &size, 0, pixels, stride, NULL)) {
        free(buffer);
        return tg_png_fail(&image, message);
    }
    *output = buffer;
    *output_size = size;
    return 1;
}
