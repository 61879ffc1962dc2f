// The records of the file-access tracer (format in include/FileAccessTrace.h). Recording
// allocates nothing and takes no lock: a stack buffer, getcwd or readlink into it, and three
// system calls (open, write, close), so it is safe between vfork and exec and in threads. The
// tg_trace_ functions leave errno as they found it.
#define _GNU_SOURCE
#include "FileAccessTrace.h"
#include "TraceRecords.h"

// The library needs libc alone. SwiftPM links it with swiftc, whose link line names the Swift
// runtime, libstdc++ and libm right after the objects and before any flag of the target, so a
// linker setting `--as-needed` comes too late: every traced program would load them (about 1 ms
// of CPU per program, bench/README.md). swiftc hands the linker the entries of its inputs'
// `.swift1_autolink_entries` sections right after the objects; this entry puts --as-needed
// there. The section ("e": excluded) is not copied into the library. LintTests checks that a
// traced program maps no libstdc++.
__asm__(".section .swift1_autolink_entries,\"e\"\n.asciz \"-Wl,--as-needed\"\n.previous");

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/// The trace file's path, read from the environment once; empty when the variable is not set.
static char trace_path[PATH_MAX];
/// 0 before the variable is read, 1 after.
static int trace_path_read;

void tg_trace_read_path(void) {
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
    tg_trace_read_path();
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

void tg_trace_open(int directory_fd, const char *path, int flags) {
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

void tg_trace_fopen(const char *path, const char *mode) {
    if (mode == NULL) return;
    int saved = errno;
    if (mode[0] == 'r') record('r', AT_FDCWD, path);
    if (mode[0] != 'r' || strchr(mode, '+') != NULL) record('w', AT_FDCWD, path);
    errno = saved;
}

void tg_trace_change(char kind, int directory_fd, const char *path) {
    int saved = errno;
    record(kind, directory_fd, path);
    errno = saved;
}
