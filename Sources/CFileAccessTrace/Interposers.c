// The interposed functions of the file-access tracer of `taskgraph run --lint` (format in
// include/FileAccessTrace.h). Each calls the real one (dlsym(RTLD_NEXT)), records what
// succeeded (TraceRecords.c), and returns the real result with errno as the real call left it.
#define _GNU_SOURCE
#include "TraceRecords.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

// The fortified entry points (_FORTIFY_SOURCE) of opens without a mode.
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int directory_fd, const char *path, int flags);
int __openat64_2(int directory_fd, const char *path, int flags);

/// Every interposed function.
#define INTERPOSED(X)                                                                               \
    X(open) X(open64) X(openat) X(openat64) X(__open_2) X(__open64_2) X(__openat_2) X(__openat64_2) \
    X(creat) X(creat64) X(fopen) X(fopen64) X(freopen) X(freopen64) X(rename) X(renameat)          \
    X(renameat2) X(unlink) X(unlinkat)

/// `real_NAME`: the next definition of NAME after this library (libc's), found when the library
/// is loaded, so that no call between vfork and exec has to look it up.
#define DECLARE_REAL(name) static __typeof__(name) *real_##name;
INTERPOSED(DECLARE_REAL)

#define RESOLVE_REAL(name)                                                                          \
    if (__atomic_load_n(&real_##name, __ATOMIC_ACQUIRE) == NULL)                                    \
        __atomic_store_n(&real_##name, (__typeof__(name) *)dlsym(RTLD_NEXT, #name), __ATOMIC_RELEASE);

__attribute__((constructor)) static void resolve_reals(void) {
    INTERPOSED(RESOLVE_REAL)
    tg_trace_read_path();
}

/// `real`: libc's `name`, looked up now if a constructor of another library called it before
/// this library's ran; when there is none, the caller fails with ENOSYS.
#define REAL(name)                                                                                  \
    RESOLVE_REAL(name)                                                                              \
    __typeof__(name) *real = __atomic_load_n(&real_##name, __ATOMIC_ACQUIRE);                       \
    if (real == NULL) errno = ENOSYS;

/// The mode argument of an open that creates a file, 0 otherwise.
#define MODE_ARGUMENT(flags, last)                                                                  \
    mode_t mode = 0;                                                                                \
    if ((flags) & (O_CREAT | O_TMPFILE)) {                                                          \
        va_list arguments;                                                                          \
        va_start(arguments, last);                                                                  \
        mode = (mode_t)va_arg(arguments, unsigned);                                                 \
        va_end(arguments);                                                                          \
    }

int open(const char *path, int flags, ...) {
    MODE_ARGUMENT(flags, flags)
    REAL(open)
    if (real == NULL) return -1;
    int fd = real(path, flags, mode);
    if (fd >= 0) tg_trace_open(AT_FDCWD, path, flags);
    return fd;
}

int open64(const char *path, int flags, ...) {
    MODE_ARGUMENT(flags, flags)
    REAL(open64)
    if (real == NULL) return -1;
    int fd = real(path, flags, mode);
    if (fd >= 0) tg_trace_open(AT_FDCWD, path, flags);
    return fd;
}

int openat(int directory_fd, const char *path, int flags, ...) {
    MODE_ARGUMENT(flags, flags)
    REAL(openat)
    if (real == NULL) return -1;
    int fd = real(directory_fd, path, flags, mode);
    if (fd >= 0) tg_trace_open(directory_fd, path, flags);
    return fd;
}

int openat64(int directory_fd, const char *path, int flags, ...) {
    MODE_ARGUMENT(flags, flags)
    REAL(openat64)
    if (real == NULL) return -1;
    int fd = real(directory_fd, path, flags, mode);
    if (fd >= 0) tg_trace_open(directory_fd, path, flags);
    return fd;
}

int __open_2(const char *path, int flags) {
    REAL(__open_2)
    if (real == NULL) return -1;
    int fd = real(path, flags);
    if (fd >= 0) tg_trace_open(AT_FDCWD, path, flags);
    return fd;
}

int __open64_2(const char *path, int flags) {
    REAL(__open64_2)
    if (real == NULL) return -1;
    int fd = real(path, flags);
    if (fd >= 0) tg_trace_open(AT_FDCWD, path, flags);
    return fd;
}

int __openat_2(int directory_fd, const char *path, int flags) {
    REAL(__openat_2)
    if (real == NULL) return -1;
    int fd = real(directory_fd, path, flags);
    if (fd >= 0) tg_trace_open(directory_fd, path, flags);
    return fd;
}

int __openat64_2(int directory_fd, const char *path, int flags) {
    REAL(__openat64_2)
    if (real == NULL) return -1;
    int fd = real(directory_fd, path, flags);
    if (fd >= 0) tg_trace_open(directory_fd, path, flags);
    return fd;
}

int creat(const char *path, mode_t mode) {
    REAL(creat)
    if (real == NULL) return -1;
    int fd = real(path, mode);
    if (fd >= 0) tg_trace_open(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC);
    return fd;
}

int creat64(const char *path, mode_t mode) {
    REAL(creat64)
    if (real == NULL) return -1;
    int fd = real(path, mode);
    if (fd >= 0) tg_trace_open(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC);
    return fd;
}

FILE *fopen(const char *path, const char *mode) {
    REAL(fopen)
    if (real == NULL) return NULL;
    FILE *file = real(path, mode);
    if (file != NULL) tg_trace_fopen(path, mode);
    return file;
}

FILE *fopen64(const char *path, const char *mode) {
    REAL(fopen64)
    if (real == NULL) return NULL;
    FILE *file = real(path, mode);
    if (file != NULL) tg_trace_fopen(path, mode);
    return file;
}

FILE *freopen(const char *path, const char *mode, FILE *stream) {
    REAL(freopen)
    if (real == NULL) return NULL;
    FILE *file = real(path, mode, stream);
    if (file != NULL) tg_trace_fopen(path, mode);
    return file;
}

FILE *freopen64(const char *path, const char *mode, FILE *stream) {
    REAL(freopen64)
    if (real == NULL) return NULL;
    FILE *file = real(path, mode, stream);
    if (file != NULL) tg_trace_fopen(path, mode);
    return file;
}

int rename(const char *from, const char *to) {
    REAL(rename)
    if (real == NULL) return -1;
    int result = real(from, to);
    if (result == 0) {
        tg_trace_change('d', AT_FDCWD, from);
        tg_trace_change('w', AT_FDCWD, to);
    }
    return result;
}

int renameat(int from_directory, const char *from, int to_directory, const char *to) {
    REAL(renameat)
    if (real == NULL) return -1;
    int result = real(from_directory, from, to_directory, to);
    if (result == 0) {
        tg_trace_change('d', from_directory, from);
        tg_trace_change('w', to_directory, to);
    }
    return result;
}

int renameat2(int from_directory, const char *from, int to_directory, const char *to, unsigned flags) {
    REAL(renameat2)
    if (real == NULL) return -1;
    int result = real(from_directory, from, to_directory, to, flags);
    if (result == 0) {
        // RENAME_EXCHANGE leaves both files in place, each with the other's content.
        tg_trace_change((flags & RENAME_EXCHANGE) ? 'w' : 'd', from_directory, from);
        tg_trace_change('w', to_directory, to);
    }
    return result;
}

int unlink(const char *path) {
    REAL(unlink)
    if (real == NULL) return -1;
    int result = real(path);
    if (result == 0) tg_trace_change('d', AT_FDCWD, path);
    return result;
}

int unlinkat(int directory_fd, const char *path, int flags) {
    REAL(unlinkat)
    if (real == NULL) return -1;
    int result = real(directory_fd, path, flags);
    if (result == 0 && !(flags & AT_REMOVEDIR)) tg_trace_change('d', directory_fd, path);
    return result;
}
