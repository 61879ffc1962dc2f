// glibc's malloc tuning (malloc.h is not part of Swift's Glibc module).

#include "ImageShims.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int tg_malloc_set_mmap_threshold(size_t bytes) {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, (int)bytes);
#else
    (void)bytes;
    return 0;
#endif
}
