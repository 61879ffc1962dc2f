#ifndef TASKGRAPH_TRACE_RECORDS_H
#define TASKGRAPH_TRACE_RECORDS_H

// What the interposed functions (Interposers.c) record, in TraceRecords.c. Hidden: the library
// exports only the functions it interposes, so no name of its own meets a program's.
#define TG_TRACE_HIDDEN __attribute__((visibility("hidden")))

/// Reads TASKGRAPH_FILE_TRACE, once (the library's constructor calls it).
TG_TRACE_HIDDEN void tg_trace_read_path(void);
/// Records an `open` with `flags` that succeeded: r, w, or both for O_RDWR without O_TRUNC.
TG_TRACE_HIDDEN void tg_trace_open(int directory_fd, const char *path, int flags);
/// Records an `fopen` with `mode` that succeeded.
TG_TRACE_HIDDEN void tg_trace_fopen(const char *path, const char *mode);
/// Records a removal (`d`) or a rename's target (`w`) that succeeded.
TG_TRACE_HIDDEN void tg_trace_change(char kind, int directory_fd, const char *path);

#endif
