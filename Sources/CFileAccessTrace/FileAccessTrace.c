// The LD_PRELOAD file-access tracer of `taskgraph run --lint`; the record format is in
// include/FileAccessTrace.h. Every interposed function calls the real one (dlsym(RTLD_NEXT)),
// then records what succeeded, and returns the real result with errno as the real call left it.
// Recording allocates nothing and takes no lock: a stack buffer, getcwd or readlink into it, and
// three system calls (open, write, close), so it is safe between vfork and exec and in threads.
#define _GNU_SOURCE
#include "FileAccessTrace.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/// The trace file's path, read from the environment once; empty when the variable is not set.
static char trace_path[PATH_MAX];
/// 0 before the variable is read, 1 after.
static int trace_path_read;

static void read_trace_path(void) {
    if (__atomic_load_n(&trace_path_read, __ATOMIC_ACQUIRE)) return;
    const char *value = getenv(TASKGRAPH_FILE_TRACE_VARIABLE);
    if (value != NULL && strlen(value) < sizeof trace_path) strcpy(trace_path, value);
    __atomic_store_n(&trace_path_read, 1, __ATOMIC_RELEASE);
}

/// Appends `text` to `buffer` at `*length`; 0 when it does not fit.
static int append(char *buffer, size_t capacity, size_t *length, const char *text) {
    size_t size = strlen(text);
    if (*length + size >= capacity) return 0;
    memcpy(buffer + *length, text, size);
    *length += size;
    return 1;
}

/// Whether `path` (absolute) lies under a pseudo file system nobody declares.
static int is_pseudo_file(const char *path) {
    return strncmp(path, "/proc/", 6) == 0 || strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/sys/", 5) == 0;
}

/// Appends one record: `kind`, then `path` made absolute against `directory_fd`.
static void record(char kind, int directory_fd, const char *path) {
    if (path == NULL || path[0] == '\0') return;
    read_trace_path();
    if (trace_path[0] == '\0') return;
    char line[2 * PATH_MAX + 4];
    size_t length = 0;
    line[length++] = kind;
    if (path[0] != '/') {
        char *base = line + length;
        size_t room = PATH_MAX;
        if (directory_fd == AT_FDCWD) {
            if (getcwd(base, room) == NULL) return;
            length += strlen(base);
        } else {
            // "/proc/self/fd/" and the descriptor's digits.
            char link[32] = "/proc/self/fd/";
            char digits[12];
            int count = 0;
            unsigned value = (unsigned)directory_fd;
            do {
                digits[count++] = (char)('0' + value % 10);
                value /= 10;
            } while (value != 0 && count < (int)sizeof digits);
            size_t at = strlen(link);
            while (count > 0) link[at++] = digits[--count];
            link[at] = '\0';
            ssize_t size = readlink(link, base, room - 1);
            if (size <= 0) return;
            length += (size_t)size;
        }
        if (!append(line, sizeof line, &length, "/")) return;
    }
    if (!append(line, sizeof line, &length, path)) return;
    line[length++] = '\0';
    if (is_pseudo_file(line + 1)) return;
    // Never created here: a child that outlives the run finds the file gone and records nothing.
    int fd = (int)syscall(SYS_openat, AT_FDCWD, trace_path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) return;
    ssize_t ignored = write(fd, line, length);
    (void)ignored;
    close(fd);
}

/// Records an `open` with `flags` that succeeded.
static void record_open(int directory_fd, const char *path, int flags) {
    if ((flags & O_PATH) || (flags & O_TMPFILE) == O_TMPFILE) return;
    int saved = errno;
    switch (flags & O_ACCMODE) {
    case O_RDONLY:
        record('r', directory_fd, path);
        break;
    case O_RDWR:
        if (!(flags & O_TRUNC)) record('r', directory_fd, path);
        record('w', directory_fd, path);
        break;
    default:
        record('w', directory_fd, path);
    }
    errno = saved;
}

/// Records an `fopen` with `mode` that succeeded.
static void record_fopen(const char *path, const char *mode) {
    if (mode == NULL) return;
    int saved = errno;
    if (mode[0] == 'r') record('r', AT_FDCWD, path);
    if (mode[0] != 'r' || strchr(mode, '+') != NULL) record('w', AT_FDCWD, path);
    errno = saved;
}

/// Records a removal or rename that succeeded.
static void record_change(char kind, int directory_fd, const char *path) {
    int saved = errno;
    record(kind, directory_fd, path);
    errno = saved;
}

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
    read_trace_path();
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
    if (fd >= 0) record_open(AT_FDCWD, path, flags);
    return fd;
}

int open64(const char *path, int flags, ...) {
    MODE_ARGUMENT(flags, flags)
    REAL(open64)
    if (real == NULL) return -1;
    int fd = real(path, flags, mode);
    if (fd >= 0) record_open(AT_FDCWD, path, flags);
    return fd;
}

int openat(int directory_fd, const char *path, int flags, ...) {
    MODE_ARGUMENT(flags, flags)
    REAL(openat)
    if (real == NULL) return -1;
    int fd = real(directory_fd, path, flags, mode);
    if (fd >= 0) record_open(directory_fd, path, flags);
    return fd;
}

int openat64(int directory_fd, const char *path, int flags, ...) {
    MODE_ARGUMENT(flags, flags)
    REAL(openat64)
    if (real == NULL) return -1;
    int fd = real(directory_fd, path, flags, mode);
    if (fd >= 0) record_open(directory_fd, path, flags);
    return fd;
}

int __open_2(const char *path, int flags) {
    REAL(__open_2)
    if (real == NULL) return -1;
    int fd = real(path, flags);
    if (fd >= 0) record_open(AT_FDCWD, path, flags);
    return fd;
}

int __open64_2(const char *path, int flags) {
    REAL(__open64_2)
    if (real == NULL) return -1;
    int fd = real(path, flags);
    if (fd >= 0) record_open(AT_FDCWD, path, flags);
    return fd;
}

int __openat_2(int directory_fd, const char *path, int flags) {
    REAL(__openat_2)
    if (real == NULL) return -1;
    int fd = real(directory_fd, path, flags);
    if (fd >= 0) record_open(directory_fd, path, flags);
    return fd;
}

int __openat64_2(int directory_fd, const char *path, int flags) {
    REAL(__openat64_2)
    if (real == NULL) return -1;
    int fd = real(directory_fd, path, flags);
    if (fd >= 0) record_open(directory_fd, path, flags);
    return fd;
}

int creat(const char *path, mode_t mode) {
    REAL(creat)
    if (real == NULL) return -1;
    int fd = real(path, mode);
    if (fd >= 0) record_open(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC);
    return fd;
}

int creat64(const char *path, mode_t mode) {
    REAL(creat64)
    if (real == NULL) return -1;
    int fd = real(path, mode);
    if (fd >= 0) record_open(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC);
    return fd;
}

FILE *fopen(const char *path, const char *mode) {
    REAL(fopen)
    if (real == NULL) return NULL;
    FILE *file = real(path, mode);
    if (file != NULL) record_fopen(path, mode);
    return file;
}

FILE *fopen64(const char *path, const char *mode) {
    REAL(fopen64)
    if (real == NULL) return NULL;
    FILE *file = real(path, mode);
    if (file != NULL) record_fopen(path, mode);
    return file;
}

FILE *freopen(const char *path, const char *mode, FILE *stream) {
    REAL(freopen)
    if (real == NULL) return NULL;
    FILE *file = real(path, mode, stream);
    if (file != NULL) record_fopen(path, mode);
    return file;
}

FILE *freopen64(const char *path, const char *mode, FILE *stream) {
    REAL(freopen64)
    if (real == NULL) return NULL;
    FILE *file = real(path, mode, stream);
    if (file != NULL) record_fopen(path, mode);
    return file;
}

int rename(const char *from, const char *to) {
    REAL(rename)
    if (real == NULL) return -1;
    int result = real(from, to);
    if (result == 0) {
        record_change('d', AT_FDCWD, from);
        record_change('w', AT_FDCWD, to);
    }
    return result;
}

int renameat(int from_directory, const char *from, int to_directory, const char *to) {
    REAL(renameat)
    if (real == NULL) return -1;
    int result = real(from_directory, from, to_directory, to);
    if (result == 0) {
        record_change('d', from_directory, from);
        record_change('w', to_directory, to);
    }
    return result;
}

int renameat2(int from_directory, const char *from, int to_directory, const char *to, unsigned flags) {
    REAL(renameat2)
    if (real == NULL) return -1;
    int result = real(from_directory, from, to_directory, to, flags);
    if (result == 0) {
        // RENAME_EXCHANGE leaves both files in place, each with the other's content.
        record_change((flags & RENAME_EXCHANGE) ? 'w' : 'd', from_directory, from);
        record_change('w', to_directory, to);
    }
    return result;
}

int unlink(const char *path) {
    REAL(unlink)
    if (real == NULL) return -1;
    int result = real(path);
    if (result == 0) record_change('d', AT_FDCWD, path);
    return result;
}

int unlinkat(int directory_fd, const char *path, int flags) {
    REAL(unlinkat)
    if (real == NULL) return -1;
    int result = real(directory_fd, path, flags);
    if (result == 0 && !(flags & AT_REMOVEDIR)) record_change('d', directory_fd, path);
    return result;
}
