// The shims are inline functions in include/CSystemShims.h, but for the thread-local mark below,
// which needs one definition.
#include "CSystemShims.h"

/// Set on the threads of a `BlockingThreadPool`.
static _Thread_local int tg_blocking_thread = 0;

void tg_mark_blocking_thread(void) {
    tg_blocking_thread = 1;
}

int tg_is_blocking_thread(void) {
    return tg_blocking_thread;
}
