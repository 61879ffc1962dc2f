// libjpeg-turbo wrappers. libjpeg reports errors by calling error_exit, which must not return:
// every public function here sets a jump point, so the longjmp lands in the same C function and
// never crosses Swift frames. Messages are formatted into the caller's buffer, never printed.

#include "ImageShims.h"
#include "JPEGRelease.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *message;
} tg_jpeg_error;

static void tg_jpeg_error_exit(j_common_ptr cinfo) {
    tg_jpeg_error *error = (tg_jpeg_error *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    snprintf(error->message, TG_MESSAGE_SIZE, "%s", text);
    longjmp(error->jump, 1);
}

// Warnings about corrupt or missing data are errors here: libjpeg would fill the rest of the
// image with gray and report success. Other warnings (extraneous bytes, odd markers) are ignored.
static void tg_jpeg_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;
    switch (cinfo->err->msg_code) {
    case JWRN_JPEG_EOF:
    case JWRN_HIT_MARKER:
    case JWRN_MUST_RESYNC:
    case JWRN_HUFF_BAD_CODE:
        tg_jpeg_error_exit(cinfo);
        break;
    default:
        break;
    }
}

static void tg_jpeg_output_message(j_common_ptr cinfo) {
    (void)cinfo;
}

static struct jpeg_error_mgr *tg_jpeg_errors(tg_jpeg_error *error, char *message) {
    jpeg_std_error(&error->base);
    error->base.error_exit = tg_jpeg_error_exit;
    error->base.emit_message = tg_jpeg_emit_message;
    error->base.output_message = tg_jpeg_output_message;
    error->message = message;
    message[0] = '\0';
    return &error->base;
}

int tg_jpeg_read_header(const uint8_t *data, size_t size, tg_jpeg_info *info, char *message) {
    struct jpeg_decompress_struct cinfo;
    tg_jpeg_error error;
    cinfo.err = tg_jpeg_errors(&error, message);
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return 0;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    info->width = (int)cinfo.image_width;
    info->height = (int)cinfo.image_height;
    info->components = cinfo.num_components;
    info->is_cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    info->coefficient_bytes = 0;
    if (jpeg_has_multiple_scans(&cinfo)) {
        for (int c = 0; c < cinfo.num_components; c++) {
            const jpeg_component_info *component = &cinfo.comp_info[c];
            info->coefficient_bytes += (size_t)component->width_in_blocks *
                                       (size_t)component->height_in_blocks * sizeof(JBLOCK);
        }
    }
    jpeg_destroy_decompress(&cinfo);
    return 1;
}

int tg_jpeg_decode(const uint8_t *data, size_t size, uint8_t *pixels, int width, int height,
                   int channels, int scale_denominator, char *message) {
    struct jpeg_decompress_struct cinfo;
    tg_jpeg_error error;
    tg_jpeg_release release;
    cinfo.err = tg_jpeg_errors(&error, message);
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return 0;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.out_color_space = channels == 4 ? JCS_EXT_RGBA : JCS_RGB;
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned int)scale_denominator;
    jpeg_calc_output_dimensions(&cinfo);
    if ((int)cinfo.output_width != width || (int)cinfo.output_height != height) {
        snprintf(message, TG_MESSAGE_SIZE, "JPEG size changed between header and decode");
        jpeg_destroy_decompress(&cinfo);
        return 0;
    }
    jpeg_start_decompress(&cinfo);
    if (jpeg_has_multiple_scans(&cinfo)) tg_jpeg_release_consumed_coefficients(&cinfo, &release);
    const size_t stride = (size_t)width * (size_t)channels;
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW rows[16];
        JDIMENSION count = cinfo.output_height - cinfo.output_scanline;
        if (count > 16) count = 16;
        for (JDIMENSION i = 0; i < count; i++) {
            rows[i] = pixels + (cinfo.output_scanline + i) * stride;
        }
        jpeg_read_scanlines(&cinfo, rows, count);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return 1;
}

int tg_jpeg_encode(const uint8_t *pixels, int width, int height, int channels, int quality,
                   uint8_t **output, size_t *output_size, char *message) {
    struct jpeg_compress_struct cinfo;
    tg_jpeg_error error;
    // Written by libjpeg through the pointers given to jpeg_mem_dest; read after a longjmp only
    // through memory, never from a register. The first buffer is a guess at the output size
    // (6 bits per pixel, far above what photos take at any quality but 100): libjpeg's own
    // starts at 4 KiB and doubles, copying, ten times for a photo. Its pages cost nothing until
    // written. Should libjpeg outgrow it, it moves to a buffer of its own and `first` is freed.
    struct { unsigned char *buffer; unsigned long size; unsigned char *first; } destination;
    destination.size = (unsigned long)width * (unsigned long)height * 3 / 4 + 65536;
    destination.first = destination.buffer = malloc(destination.size);
    if (destination.first == NULL) destination.size = 0;
    cinfo.err = tg_jpeg_errors(&error, message);
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(destination.first);
        return 0;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &destination.buffer, &destination.size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = channels;
    cinfo.in_color_space = channels == 4 ? JCS_EXT_RGBA : JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    const size_t stride = (size_t)width * (size_t)channels;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW rows[16];
        JDIMENSION count = cinfo.image_height - cinfo.next_scanline;
        if (count > 16) count = 16;
        for (JDIMENSION i = 0; i < count; i++) {
            rows[i] = (JSAMPROW)(pixels + (cinfo.next_scanline + i) * stride);
        }
        jpeg_write_scanlines(&cinfo, rows, count);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    if (destination.buffer != destination.first) free(destination.first);
    *output = destination.buffer;
    *output_size = destination.size;
    return 1;
}

void tg_free(void *buffer) {
    free(buffer);
}
