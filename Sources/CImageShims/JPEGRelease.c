// A progressive (multi-scan) JPEG keeps the DCT coefficients of the whole image until its last
// scan is read: 2 bytes per sample, more than the decoded image for 4:2:2 and 4:4:4 photos. The
// output pass then turns them into pixels top to bottom and never looks back, so the rows it
// has left behind can be given back to the system while the image fills up: a decode then holds
// at most about the larger of the two, not their sum.
//
// libjpeg reaches the coefficients only through the `access_virt_barray` method of its memory
// manager, which an application may replace; the wrapper below asks libjpeg's own for the rows,
// then releases the whole steps of pages below them (MADV_DONTNEED: the memory is returned at
// once, and reads as zeros if touched again, which the output pass never does). Rows are
// released only where consecutive requests prove them contiguous (one allocation); the array's
// first and last partial steps stay until libjpeg frees the array.

#include "JPEGRelease.h"

#include <sys/mman.h>

/// Released in steps of this many bytes, so that a decode makes a few hundred madvise calls.
#define TG_RELEASE_STEP ((uintptr_t)256 << 10)

static tg_jpeg_coefficient_rows *tg_rows_of(tg_jpeg_release *release, j_decompress_ptr cinfo,
                                            jvirt_barray_ptr array) {
    for (int i = 0; i < release->count; i++) {
        if (release->components[i].array == array) return &release->components[i];
    }
    // The output pass asks for the arrays in component order (libjpeg's jdcoefct.c), so the
    // n-th array seen belongs to the n-th component; a wrong guess only fails the contiguity
    // check below, and then nothing is released.
    if (release->count >= cinfo->num_components) return NULL;
    const jpeg_component_info *component = &cinfo->comp_info[release->count];
    const size_t blocks = ((size_t)component->width_in_blocks + component->h_samp_factor - 1) /
                          component->h_samp_factor * component->h_samp_factor;
    tg_jpeg_coefficient_rows *rows = &release->components[release->count++];
    rows->array = array;
    rows->stride = blocks * sizeof(JBLOCK);
    rows->address = 0;
    return rows;
}

static JBLOCKARRAY tg_access_and_release(j_common_ptr common, jvirt_barray_ptr array,
                                         JDIMENSION start, JDIMENSION count, boolean writable) {
    j_decompress_ptr cinfo = (j_decompress_ptr)common;
    tg_jpeg_release *release = (tg_jpeg_release *)cinfo->client_data;
    JBLOCKARRAY blocks = release->access(common, array, start, count, writable);
    tg_jpeg_coefficient_rows *rows = writable ? NULL : tg_rows_of(release, cinfo, array);
    if (rows == NULL) return blocks;
    const uintptr_t address = (uintptr_t)blocks[0];
    const int contiguous = rows->address != 0 && start >= rows->row &&
                           address == rows->address + (uintptr_t)(start - rows->row) * rows->stride;
    if (!contiguous) {
        rows->released = (address + TG_RELEASE_STEP - 1) & ~(TG_RELEASE_STEP - 1);
    } else {
        const uintptr_t end = address & ~(TG_RELEASE_STEP - 1);
        if (end > rows->released) {
            madvise((void *)rows->released, end - rows->released, MADV_DONTNEED);
            rows->released = end;
        }
    }
    rows->row = start;
    rows->address = address;
    return blocks;
}

void tg_jpeg_release_consumed_coefficients(j_decompress_ptr cinfo, tg_jpeg_release *release) {
    release->access = cinfo->mem->access_virt_barray;
    release->count = 0;
    cinfo->client_data = release;
    cinfo->mem->access_virt_barray = tg_access_and_release;
}
