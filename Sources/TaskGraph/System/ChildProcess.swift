import Dispatch
import Foundation
import Synchronization

/// Runs programs in their own process group and reaps them, cancellable.
///
/// One `BlockingIO` thread per child reads both pipes and reaps it. Needing only one thread
/// keeps children from waiting on each other when `BlockingIO` is at its thread cap.
public enum ChildProcess {
    /// Milliseconds between checks for the leader's exit while its pipes are still open.
    private static let exitCheckInterval: Int32 = 50

    /// How long the pipes may stay open after the leader exited and its group was killed (only a
    /// process that left the group can hold them); later output is dropped.
    private static let drainTimeout = Duration.seconds(1)

    /// The children spawned and not yet reaped. A group is only signalled while its leader is in
    /// here: an unreaped leader keeps its pid, the group id, from being reused.
    private static let registry = Locked(Registry())

    /// Runs a program to completion and collects its output.
    ///
    /// - Parameters:
    ///   - arguments: argv; `arguments[0]` is looked up on the PATH of `environment` unless it
    ///     contains "/".
    ///   - environment: The complete environment for the child.
    ///   - workingDirectory: The child's working directory; nil inherits ours.
    ///   - outputLimit: The most bytes of standard output kept.
    ///   - errorTailLimit: How many bytes from the end of standard error are kept.
    ///   - gracePeriod: Time between SIGTERM and SIGKILL when the task is cancelled.
    /// - Throws: `ChildProcessError` when the program cannot be started; `CancellationError` if
    ///   the task was cancelled, only after the whole group was signalled and the child reaped.
    static func run(
        arguments: [String], environment: [String: String], workingDirectory: String?,
        outputLimit: Int = 64 << 20, errorTailLimit: Int = 64 << 10,
        gracePeriod: Duration = .seconds(2)
    ) async throws -> ProcessResult {
        let child = try await BlockingIO.run {
            try spawn(arguments: arguments, environment: environment, in: workingDirectory)
        }
        // Entered after spawning, so a cancellation during the spawn fires onCancel right away.
        let result = await withTaskCancellationHandler {
            await BlockingIO.runIgnoringCancellation {
                collect(child, outputLimit: outputLimit, errorTailLimit: errorTailLimit)
            }
        } onCancel: {
            terminate(child, gracePeriod: gracePeriod)
        }
        try Task.checkCancellation()
        return result
    }

    /// Sends SIGKILL to the process group of every child still running, and refuses to start
    /// any more (another thread may be about to spawn one). For a second Ctrl-C just before
    /// `_exit`.
    public static func killAllImmediately() {
        registry.withLock { registry in
            registry.closed = true
            for leader in registry.leaders.values {
                kill(-leader, SIGKILL)
            }
        }
    }

    /// Leaders of the process groups not reaped yet, by a number never reused (unlike pids).
    private struct Registry {
        /// The pid of each child still registered, by its spawn number.
        var leaders: [UInt64: pid_t] = [:]
        /// The number of children spawned so far.
        var spawnCount: UInt64 = 0
        /// Set by `killAllImmediately`: no child starts afterwards.
        var closed = false
    }

    /// A started child: its pid, which is also its process group id, and its pipes' read ends.
    private struct Child: Sendable {
        /// The child's key in `registry`.
        let spawnNumber: UInt64
        /// The pid of the child and the id of its process group.
        let pid: pid_t
        /// The read end of the child's standard output.
        let standardOutput: Int32
        /// The read end of the child's standard error.
        let standardError: Int32
    }

    /// Sends SIGTERM to the child's group now and SIGKILL after `gracePeriod`. Never blocks.
    private static func terminate(_ child: Child, gracePeriod: Duration) {
        signalGroup(of: child, SIGTERM)
        DispatchQueue.global().asyncAfter(deadline: .now() + gracePeriod / .seconds(1)) {
            signalGroup(of: child, SIGKILL)
        }
    }

    /// Sends `signal` to the child's process group unless the child was already reaped.
    private static func signalGroup(of child: Child, _ signal: Int32) {
        registry.withLock { registry in
            if registry.leaders[child.spawnNumber] != nil {
                kill(-child.pid, signal)
            }
        }
    }

    /// Starts the program in a new process group and registers the group.
    ///
    /// - Throws: `ChildProcessError` when the program cannot be started.
    private static func spawn(
        arguments: [String], environment: [String: String], in workingDirectory: String?
    ) throws -> Child {
        guard let name = arguments.first else { throw ChildProcessError.emptyCommand }
        if let workingDirectory, !hasFileType(S_IFDIR, at: workingDirectory) {
            throw ChildProcessError.workingDirectoryMissing(workingDirectory)
        }
        let program = try resolve(name, searchPath: environment["PATH"])
        var pipes: [(read: Int32, write: Int32)] = []
        defer { pipes.forEach { close($0.write) } }
        do {
            for _ in 0..<2 {
                pipes.append(try makePipe(for: name))
            }
            let (spawnNumber, pid) = try posixSpawn(
                program, arguments: arguments,
                environment: environment.map { "\($0.key)=\($0.value)" },
                workingDirectory: workingDirectory,
                standardOutput: pipes[0].write, standardError: pipes[1].write)
            return Child(
                spawnNumber: spawnNumber, pid: pid,
                standardOutput: pipes[0].read, standardError: pipes[1].read)
        } catch {
            pipes.forEach { close($0.read) }
            throw error
        }
    }

    /// The path to run for `name`: itself if it contains "/", else the first executable regular
    /// file of that name in the directories of `searchPath` (like `execvp`).
    ///
    /// - Throws: `ChildProcessError.programNotFound` if there is none.
    private static func resolve(_ name: String, searchPath: String?) throws -> String {
        if name.contains("/") {
            return name
        }
        let directories = (searchPath ?? "/usr/bin:/bin")
            .split(separator: ":", omittingEmptySubsequences: false)
        for directory in directories {
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + name
            if hasFileType(S_IFREG, at: candidate), access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        throw ChildProcessError.programNotFound(name)
    }

    /// Whether a file of `type` (`S_IFDIR`, `S_IFREG`, ...) exists at `path`.
    private static func hasFileType(_ type: mode_t, at path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == type
    }

    /// Creates a pipe whose ends are closed on exec.
    ///
    /// - Throws: `ChildProcessError.spawnFailed` naming `program` if no pipe can be made.
    private static func makePipe(for program: String) throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        #if os(Linux)
        let created = GNU.pipe2(&fds, O_CLOEXEC) == 0
        #else
        // No pipe2 here: another thread forking between these calls could inherit the fds.
        let created = pipe(&fds) == 0
        fds.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
        #endif
        guard created else { throw ChildProcessError.spawnFailed(program, errorText(errno)) }
        return (fds[0], fds[1])
    }

    /// Reads both pipes to their end while watching for the leader's exit; once it exited,
    /// kills what is left of its group, reaps it and returns what it left behind.
    private static func collect(
        _ child: Child, outputLimit: Int, errorTailLimit: Int
    ) -> ProcessResult {
        var collector = OutputCollector(
            standardOutput: child.standardOutput, standardError: child.standardError,
            outputLimit: outputLimit, errorTailLimit: errorTailLimit)
        var drainDeadline: ContinuousClock.Instant?
        while collector.isOpen {
            var timeout = exitCheckInterval
            if let drainDeadline {
                timeout = Int32((drainDeadline - .now) / .milliseconds(1))
                if timeout <= 0 {
                    break
                }
            }
            collector.readAvailable(timeout: timeout)
            if drainDeadline == nil, leaderExited(child.pid, waiting: false) {
                signalGroup(of: child, SIGKILL)
                drainDeadline = .now + drainTimeout
            }
        }
        if drainDeadline == nil {
            leaderExited(child.pid, waiting: true)
            signalGroup(of: child, SIGKILL)
        }
        registry.withLock { $0.leaders[child.spawnNumber] = nil }
        var status: Int32 = 0
        while waitpid(child.pid, &status, 0) < 0 {
            precondition(errno == EINTR, "waitpid(\(child.pid)): \(errorText(errno))")
        }
        return collector.finish(status: ExitStatus(waitStatus: status))
    }

    /// Whether the leader has exited, leaving it unreaped so its group id stays reserved.
    ///
    /// - Parameter waiting: Whether to wait for the exit (then the answer is always true).
    @discardableResult
    private static func leaderExited(_ pid: pid_t, waiting: Bool) -> Bool {
        var info = siginfo_t()
        let options = WEXITED | WNOWAIT | (waiting ? 0 : WNOHANG)
        while waitid(P_PID, id_t(pid), &info, options) != 0 {
            precondition(errno == EINTR, "waitid(\(pid)): \(errorText(errno))")
        }
        // With WNOHANG and no exit to report, `info` stays zeroed.
        return info.si_signo == SIGCHLD
    }

    /// The system's text for the error number `code`.
    private static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Spawns `program` in a new process group, with an empty signal mask, default dispositions
    /// for the signals a parent may ignore or catch, stdin from /dev/null and the given pipe ends
    /// as stdout and stderr. The child is registered under the registry's lock, so
    /// `killAllImmediately` cannot miss a child that was just started.
    ///
    /// - Parameters:
    ///   - environment: The complete environment as "NAME=value" strings.
    ///   - workingDirectory: The child's working directory; nil inherits ours.
    /// - Returns: The child's spawn number and pid.
    /// - Throws: `ChildProcessError` when the child cannot be started.
    private static func posixSpawn(
        _ program: String, arguments: [String], environment: [String],
        workingDirectory: String?, standardOutput: Int32, standardError: Int32
    ) throws -> (spawnNumber: UInt64, pid: pid_t) {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        if let workingDirectory {
            #if os(Linux)
            guard let addChdir = GNU.addChdir else {
                throw ChildProcessError.spawnFailed(
                    arguments[0], "a working directory needs glibc 2.29 or later")
            }
            #else
            let addChdir = posix_spawn_file_actions_addchdir_np
            #endif
            let code = addChdir(&actions, workingDirectory)
            guard code == 0 else {
                throw ChildProcessError.spawnFailed(arguments[0], errorText(code))
            }
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        posix_spawn_file_actions_adddup2(&actions, standardError, 2)

        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGQUIT, SIGHUP, SIGCHLD] {
            sigaddset(&signals, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes,
            Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        return try registry.withLock { registry in
            guard !registry.closed else {
                throw ChildProcessError.spawnFailed(arguments[0], "taskgraph is exiting")
            }
            var pid: pid_t = 0
            let code = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
            guard code == 0 else {
                throw code == ENOENT
                    ? ChildProcessError.programNotFound(arguments[0])
                    : ChildProcessError.spawnFailed(arguments[0], errorText(code))
            }
            registry.spawnCount += 1
            registry.leaders[registry.spawnCount] = pid
            return (registry.spawnCount, pid)
        }
    }
}

#if os(Linux)
/// glibc functions that Swift's Glibc module hides (they need `_GNU_SOURCE`), found at run time.
private enum GNU {
    /// `pipe2(2)`, present since glibc 2.9.
    static let pipe2 = function(
        "pipe2", as: (@convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32).self)!

    /// `posix_spawn_file_actions_addchdir_np`, present since glibc 2.29.
    static let addChdir = function(
        "posix_spawn_file_actions_addchdir_np",
        as: (@convention(c) (
            UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?
        ) -> Int32).self)

    /// Looks up the C function `name` in the loaded libraries.
    private static func function<F>(_ name: String, as type: F.Type) -> F? {
        // A nil handle is glibc's RTLD_DEFAULT: search every loaded object.
        dlsym(nil, name).map { unsafeBitCast($0, to: type) }
    }
}
#endif
