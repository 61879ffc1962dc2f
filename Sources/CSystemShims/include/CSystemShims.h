#ifndef CSYSTEM_SHIMS_H
#define CSYSTEM_SHIMS_H

#include <stdint.h>
#include <signal.h>
#include <sys/types.h>

/// Starts `path` with `argv` and `envp` in a new process group, as posix_spawn would with
/// `POSIX_SPAWN_SETPGROUP`, an empty signal mask and the signals of `defaults` (and, on Linux,
/// any other caught one) at their default action, in `directory` (NULL: ours), with `input` as
/// standard input (-1: /dev/null) and `output` and `error` as standard output and error. On
/// Linux with vfork: no stack mapped and unmapped for every child; elsewhere with posix_spawn.
/// Stores the child's pid in `pid` and returns 0, or returns the error number of the step that
/// failed; a child that started but could not exec is reaped, its pid stored all the same (for
/// a check that it is gone: never to signal or wait for, as another process may have it by then).
int tg_spawn(
    const char *path, char *const argv[], char *const envp[], const char *directory, int input,
    int output, int error, const sigset_t *defaults, pid_t *pid);

#if defined(__linux__)
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/// mkstemp(3) with the descriptor closed on exec (mkostemp's `O_CLOEXEC`): one system call,
/// where mkstemp then `fcntl` are two. Returns the descriptor, or -1 with errno set.
int tg_make_temporary(char *template_name);

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

/// Marks the calling thread, for the rest of its life, as a thread where blocking is allowed
/// (a `BlockingThreadPool`'s).
void tg_mark_blocking_thread(void);

/// Whether `tg_mark_blocking_thread` marked the calling thread: 1 or 0.
int tg_is_blocking_thread(void);

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>

/// Tells glibc's allocator to keep the heap memory a short process frees and to grow its heaps
/// 64 MiB at a time: the many small and medium allocations of a run (strings, arrays, tables
/// under 128 KiB) then reuse pages already faulted in rather than returning them to the system
/// and faulting them in anew. It also fixes the threshold above which an allocation gets its
/// own mapping at glibc's initial 128 KiB (setting these options stops glibc raising it): large
/// buffers, such as images, are still returned to the system when freed. Raising that threshold
/// to 32 MiB as well measured no faster (bench/HISTORY.md, "One source changed, round 6"). For a
/// process's `main`, never a library: it is the process's allocator.
static inline void tg_keep_freed_memory(void) {
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_TOP_PAD, 64 << 20);
}
#endif

#if defined(__linux__)
#include <sys/vfs.h>

/// The type (`f_type`, a magic number of linux/magic.h) of the file system holding the open
/// file `fd`, or 0 when `fstatfs` fails.
static inline uint64_t tg_file_system_type(int fd) {
    struct statfs info;
    return fstatfs(fd, &info) == 0 ? (uint64_t)info.f_type : 0;
}

/// `getrusage(RUSAGE_THREAD, usage)`: the calling thread's CPU times (Swift does not see the GNU
/// `RUSAGE_THREAD`). 0 on success, -1 with `errno` set.
static inline int tg_thread_rusage(struct rusage *usage) {
    // RUSAGE_THREAD is 1 on Linux; <sys/resource.h> names it only with _GNU_SOURCE.
    return getrusage((__rusage_who_t)1, usage);
}

/// `pidfd_open(pid, 0)` with close-on-exec (pidfds always are), through `syscall`, which Swift
/// cannot call (it is variadic). -1 with `errno` set on failure: `ENOSYS` before Linux 5.3.
static inline int tg_pidfd_open(int pid) {
#if defined(SYS_pidfd_open)
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/// A new epoll instance, closed on exec; -1 with `errno` set on failure.
static inline int tg_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

/// Watches `fd` for input (and hang-up) in `epoll`, reporting it with `token`.
/// 0 on success, -1 with `errno` set on failure.
static inline int tg_epoll_add(int epoll, int fd, uint64_t token) {
    struct epoll_event event = { .events = EPOLLIN, .data = { .u64 = token } };
    return epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
}

/// Watches `fd` for room to write (and errors) in `epoll`, reporting it with `token`.
/// 0 on success, -1 with `errno` set on failure.
static inline int tg_epoll_add_writable(int epoll, int fd, uint64_t token) {
    struct epoll_event event = { .events = EPOLLOUT, .data = { .u64 = token } };
    return epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
}

/// Makes writes to `fd` return `EAGAIN` rather than block. 0 on success, -1 with `errno` set.
static inline int tg_set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

/// Blocks SIGPIPE for the calling thread only: a write to a pipe whose reader has gone then
/// fails with `EPIPE` instead of ending the process, whatever the process's disposition.
static inline void tg_block_sigpipe_in_thread(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    (void)pthread_sigmask(SIG_BLOCK, &set, NULL);
}

/// Adds to `set` every signal this process does not ignore, but SIGKILL and SIGSTOP (the C
/// library's own signals cannot be read and are left out). Given to
/// `tg_spawn` as the signals to reset, it spares the child reading each signal's action before
/// resetting it: one `rt_sigaction` per signal instead of two, for every child started.
static inline void tg_add_signals_not_ignored(sigset_t *set) {
    for (int sig = 1; sig < _NSIG; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        struct sigaction action;
        if (sigaction(sig, NULL, &action) == 0 && action.sa_handler != SIG_IGN) sigaddset(set, sig);
    }
}

/// Stops watching `fd` in `epoll`.
static inline void tg_epoll_remove(int epoll, int fd) {
    struct epoll_event unused = { 0 };
    (void)epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &unused);
}

/// Waits up to `timeout` milliseconds (-1: without limit) for watched descriptors to be ready
/// and stores the tokens of at most `capacity` of them in `tokens` (`struct epoll_event` is
/// packed on x86-64, which Swift does not import reliably). The count, or -1 with `errno` set.
static inline int tg_epoll_wait(int epoll, uint64_t *tokens, int capacity, int timeout) {
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(epoll, events, capacity, timeout);
    for (int index = 0; index < count; index++) tokens[index] = events[index].data.u64;
    return count;
}

/// A new eventfd counter, closed on exec and non-blocking; -1 with `errno` set on failure.
static inline int tg_eventfd_create(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}
#endif

#endif
