// Starting a child with vfork and execve (`tg_spawn`), as Go and musl do: glibc's posix_spawn
// maps a stack for every child and unmaps it after (a TLB shoot-down on every core running one
// of our threads), asks for the descriptor limit for every file action, and blocks and restores
// the signal mask: here the child runs on the parent's stack, which is suspended until the exec.
#define _GNU_SOURCE
#include <string.h>
#include <sys/wait.h>

#include "CSystemShims.h"

// ThreadSanitizer's runtime turns vfork into fork, where the child's error would not reach the
// parent through their shared memory: under it, posix_spawn starts children, as elsewhere.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TG_SPAWN_WITH_POSIX_SPAWN 1
#endif
#endif

#if defined(__linux__) && !defined(TG_SPAWN_WITH_POSIX_SPAWN)

/// Sets the calling thread's signal mask to `mask` and stores the old one in `old`, through the
/// system call: glibc's `pthread_sigmask` never blocks its own internal signals.
static void tg_set_mask(const sigset_t *mask, sigset_t *old) {
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, mask, old, _NSIG / 8);
}

/// Makes `from` the child's descriptor `to`, kept across exec: `dup2`, or, when `from` is `to`
/// already (a parent started with that standard descriptor closed gets a pipe end there), clears
/// its close-on-exec flag, which `dup2` onto itself would leave set, as glibc's posix_spawn does.
static int tg_move_descriptor(int from, int to) {
    if (from == to) return fcntl(to, F_SETFD, 0);
    return dup2(from, to) < 0 ? -1 : 0;
}

/// The kernel's `struct sigaction` (glibc's differs). Zeroed but for the handler, it means the
/// same with or without the restorer field an architecture has: no flags, an empty mask.
struct tg_kernel_sigaction {
    void (*handler)(int);
    unsigned long flags;
    void (*restorer)(void);
    uint64_t mask;
};

/// Ignores glibc's internal signals (32, thread cancellation and timers; 33, `setxid` across
/// threads) through the system call: glibc's `sigaction` refuses them, so their handlers would
/// stay in the child between unmasking and exec. Ignored, not defaulted (a real-time signal's
/// default kills), as glibc's posix_spawn does; glibc in the program started installs its own.
static void tg_ignore_internal_signals(void) {
    struct tg_kernel_sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.handler = SIG_IGN;
    for (int sig = 32; sig <= 33; sig++) syscall(SYS_rt_sigaction, sig, &ignore, NULL, sizeof ignore.mask);
}

/// In the vforked child: resets every signal in `defaults` and every other caught one to its
/// default action, and ignores glibc's internal ones (a handler must not run in the child, on
/// the parent's memory), joins a new process group, changes directory, sets up its standard
/// descriptors and execs. Returns only on failure, with the error number.
static int tg_child(
    const char *path, char *const argv[], char *const envp[], const char *directory, int input,
    int output, int error, const sigset_t *defaults
) {
    tg_ignore_internal_signals();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    for (int sig = 1; sig < _NSIG; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        if (!sigismember(defaults, sig)) {
            struct sigaction current;
            if (sigaction(sig, NULL, &current) != 0) continue;
            if (current.sa_handler == SIG_IGN || current.sa_handler == SIG_DFL) continue;
        }
        action.sa_handler = SIG_DFL;
        sigaction(sig, &action, NULL);
    }
    if (setpgid(0, 0) != 0) return errno;
    if (directory != NULL && chdir(directory) != 0) return errno;
    if (input < 0) {
        int null = open("/dev/null", O_RDONLY);
        if (null < 0) return errno;
        if (null != 0) {
            if (dup2(null, 0) < 0) return errno;
            close(null);
        }
    } else if (tg_move_descriptor(input, 0) != 0) {
        return errno;
    }
    if (tg_move_descriptor(output, 1) != 0 || tg_move_descriptor(error, 2) != 0) return errno;
    sigset_t empty;
    sigemptyset(&empty);
    tg_set_mask(&empty, NULL);
    execve(path, argv, envp);
    return errno;
}

int tg_spawn(
    const char *path, char *const argv[], char *const envp[], const char *directory, int input,
    int output, int error, const sigset_t *defaults, pid_t *pid
) {
    sigset_t all, old;
    memset(&all, 0xff, sizeof all);
    tg_set_mask(&all, &old);
    // Written by the child before it exits (the memory is shared), read once it has.
    volatile int failure = 0;
    pid_t child = vfork();
    if (child == 0) {
        failure = tg_child(path, argv, envp, directory, input, output, error, defaults);
        _exit(127);
    }
    int result = child < 0 ? errno : failure;
    if (child > 0 && result != 0) {
        // Started, but it could not exec: reap it, as posix_spawn does.
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {}
    }
    tg_set_mask(&old, NULL);
    if (child > 0) *pid = child;
    return result;
}

#else

#include <fcntl.h>
#include <spawn.h>

int tg_spawn(
    const char *path, char *const argv[], char *const envp[], const char *directory, int input,
    int output, int error, const sigset_t *defaults, pid_t *pid
) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
    int result = directory != NULL ? posix_spawn_file_actions_addchdir_np(&actions, directory) : 0;
    if (result == 0) {
        if (input < 0) {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        } else {
            posix_spawn_file_actions_adddup2(&actions, input, 0);
        }
        posix_spawn_file_actions_adddup2(&actions, output, 1);
        posix_spawn_file_actions_adddup2(&actions, error, 2);
        sigset_t empty;
        sigemptyset(&empty);
        posix_spawnattr_setsigmask(&attributes, &empty);
        posix_spawnattr_setsigdefault(&attributes, defaults);
        posix_spawnattr_setpgroup(&attributes, 0);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
        result = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    }
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return result;
}

#endif
