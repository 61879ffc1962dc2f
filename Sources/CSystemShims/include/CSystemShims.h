#ifndef CSYSTEM_SHIMS_H
#define CSYSTEM_SHIMS_H

#include <stdint.h>

/// Asks the CPU to start loading the cache line at `address` for writing. Only a hint: it
/// never faults and never changes memory, so any address, even a stale one, is harmless.
static inline void tg_prefetch_for_write(uintptr_t address) {
    __builtin_prefetch((const void *)address, 1, 3);
}

/// Asks the CPU to start loading the cache line at `address` for reading; a hint like
/// `tg_prefetch_for_write`.
static inline void tg_prefetch_for_read(uintptr_t address) {
    __builtin_prefetch((const void *)address, 0, 3);
}

#endif
