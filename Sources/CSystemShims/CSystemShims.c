// The shims are inline functions in include/CSystemShims.h, but for the thread-local mark below,
// which needs one definition, and `tg_make_temporary`, which needs `_GNU_SOURCE`.
#define _GNU_SOURCE
#include <stdlib.h>

#include "CSystemShims.h"

int tg_make_temporary(char *template_name) {
    return mkostemp(template_name, O_CLOEXEC);
}

/// Set on the threads of a `BlockingThreadPool`.
static _Thread_local int tg_blocking_thread = 0;

void tg_mark_blocking_thread(void) {
    tg_blocking_thread = 1;
}

int tg_is_blocking_thread(void) {
    return tg_blocking_thread;
}
