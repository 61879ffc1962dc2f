// Internal to the JPEG shim: gives back the memory of a multi-scan decode's DCT coefficients
// as the output pass consumes them (see JPEGRelease.c).

#ifndef TASKGRAPH_JPEG_RELEASE_H
#define TASKGRAPH_JPEG_RELEASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jpeglib.h>

/// Where the output pass stands in one component's coefficient array.
typedef struct {
    jvirt_barray_ptr array;
    /// Bytes per block row of the array.
    size_t stride;
    /// The last block row the output pass asked for, and its address.
    JDIMENSION row;
    uintptr_t address;
    /// Memory below this address (and at or above the array's first row) is given back.
    uintptr_t released;
} tg_jpeg_coefficient_rows;

/// The state of one decode's output pass; lives on the decoding function's stack.
typedef struct {
    /// libjpeg's own `access_virt_barray`, which the shim's wraps.
    JBLOCKARRAY (*access)(j_common_ptr, jvirt_barray_ptr, JDIMENSION, JDIMENSION, boolean);
    tg_jpeg_coefficient_rows components[MAX_COMPONENTS];
    /// How many arrays the output pass has asked for so far.
    int count;
} tg_jpeg_release;

/// Call after `jpeg_start_decompress` of a multi-scan image (every scan has then been read):
/// from now on, coefficient rows the output pass has left behind are given back to the system.
/// Uses `cinfo->client_data`; `release` must outlive the decode.
void tg_jpeg_release_consumed_coefficients(j_decompress_ptr cinfo, tg_jpeg_release *release);

#endif
