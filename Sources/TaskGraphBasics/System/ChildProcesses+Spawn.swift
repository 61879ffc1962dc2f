import CSystemShims
import Foundation

/// Starting a child: resolving the program, the pipes, and `vfork` and `exec` into a new process group
/// with default signal handling, registered before anyone can signal it.
extension ChildProcesses {
    /// Starts the program in a new process group and registers the group.
    ///
    /// - Parameters:
    ///   - feedingInput: Give the child a pipe as standard input, whose write end
    ///     (non-blocking) the caller writes; otherwise it reads /dev/null.
    ///   - programs: Where programs were found before; the program is looked up there first
    ///     (no `PATH` search), and what is found is remembered.
    /// - Throws: `ChildProcessError` when the program cannot be started; a working directory
    ///   that is missing or no directory is the reason given first, whatever else failed.
    static func spawn(
        arguments: [String], environment: [String: String], in workingDirectory: String?,
        feedingInput: Bool = false, programs: ProgramLocations = ProgramLocations(), registry: ChildRegistry
    ) throws -> Child {
        guard let name = arguments.first else { throw ChildProcessError.emptyCommand }
        do {
            let program = try locate(name, searchPath: environment["PATH"], in: workingDirectory, programs: programs)
            return try spawn(
                program, arguments: arguments, environment: environment, in: workingDirectory,
                feedingInput: feedingInput, registry: registry)
        } catch {
            // Checked only on failure: one `stat` less for every child started.
            if let workingDirectory, let problem = ChildProcessError.workingDirectoryProblem(workingDirectory) {
                throw problem
            }
            throw error
        }
    }

    /// The path of the program `name` to start: the regular file `programs` has found or
    /// finds for it, or else `name` as `ProgramLocator` finds it, for `exec` to fail on.
    /// - Throws: `ChildProcessError.programMissing` when the `PATH` has no such program,
    ///   `.programIsADirectory` when it names a directory.
    private static func locate(
        _ name: String, searchPath: String?, in workingDirectory: String?, programs: ProgramLocations
    ) throws -> String {
        if let found = programs.path(of: name, searchPath: searchPath, workingDirectory: workingDirectory) {
            return found
        }
        guard let program = ProgramLocator.locate(name, searchPath: searchPath) else {
            throw ChildProcessError.programMissing(name, in: nil)
        }
        if FileKind(at: program) == .directory { throw ChildProcessError.programIsADirectory(name) }
        return program
    }

    /// Starts `program` (found for `arguments[0]`) with pipes for its output, and its input
    /// when `feedingInput`.
    private static func spawn(
        _ program: String, arguments: [String], environment: [String: String], in workingDirectory: String?,
        feedingInput: Bool, registry: ChildRegistry
    ) throws -> Child {
        let name = arguments[0]
        // The ends the child gets are closed here once it has them; ours, if it was not spawned.
        var pipes: [(read: Int32, write: Int32)] = []
        var input: (read: Int32, write: Int32)?
        defer {
            for pipe in pipes { close(pipe.write) }
            if let input { close(input.read) }
        }
        do {
            for _ in 0..<2 {
                pipes.append(try makePipe(for: name))
            }
            if feedingInput {
                input = try makePipe(for: name)
                guard tg_set_nonblocking(input!.write) == 0 else {
                    throw ChildProcessError.spawnFailed(name, errorText(errno))
                }
            }
            let (spawnNumber, pid) = try startChild(
                program, arguments: arguments,
                environment: environment.map { "\($0.key)=\($0.value)" },
                workingDirectory: workingDirectory, standardInput: input?.read,
                standardOutput: pipes[0].write, standardError: pipes[1].write, registry: registry)
            return Child(
                spawnNumber: spawnNumber, pid: pid, standardInput: input?.write ?? -1,
                standardOutput: pipes[0].read, standardError: pipes[1].read)
        } catch {
            for pipe in pipes { close(pipe.read) }
            if let input { close(input.write) }
            throw error
        }
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
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        #endif
        guard created else { throw ChildProcessError.spawnFailed(program, errorText(errno)) }
        return (fds[0], fds[1])
    }

    /// The signals a child starts with at their default action: those this process may ignore
    /// or catch (SIGINT, SIGTERM, SIGPIPE, SIGQUIT, SIGHUP, SIGCHLD, SIGTSTP, SIGCONT, SIGUSR1)
    /// and, on Linux, every other signal not ignored when the first child started (a caught one
    /// is reset by `exec` anyway): the child then resets each with one `rt_sigaction` call
    /// instead of reading its action first, ~50 system calls less per child. A signal ignored
    /// then stays ignored in children, as through `exec`.
    private static let defaultedSignals: sigset_t = {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGQUIT, SIGHUP, SIGCHLD, SIGTSTP, SIGCONT, SIGUSR1] {
            sigaddset(&signals, signal)
        }
        #if os(Linux)
            tg_add_signals_not_ignored(&signals)
        #endif
        return signals
    }()

    /// Spawns `program` in a new process group, with an empty signal mask, default dispositions
    /// for the signals a parent may ignore or catch, stdin from `standardInput` (or /dev/null)
    /// and the given pipe ends as stdout and stderr (`tg_spawn`), registered in `registry`
    /// (`ChildRegistry.register`).
    ///
    /// - Parameters:
    ///   - environment: The complete environment as "NAME=value" strings.
    ///   - workingDirectory: The child's working directory; nil inherits ours.
    /// - Returns: The child's spawn number and pid.
    /// - Throws: `ChildProcessError` when the child cannot be started.
    private static func startChild(
        _ program: String, arguments: [String], environment: [String],
        workingDirectory: String?, standardInput: Int32?, standardOutput: Int32, standardError: Int32,
        registry: ChildRegistry
    ) throws -> (spawnNumber: UInt64, pid: pid_t) {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var defaults = defaultedSignals
        return try registry.register(arguments[0]) {
            var pid: pid_t = 0
            let code = tg_spawn(
                program, argv, envp, workingDirectory, standardInput ?? -1, standardOutput, standardError,
                &defaults, &pid)
            guard code == 0 else {
                throw code == ENOENT
                    ? ChildProcessError.programNotFound(arguments[0])
                    : ChildProcessError.spawnFailed(arguments[0], errorText(code))
            }
            return pid
        }
    }
}

#if os(Linux)
    /// glibc functions that Swift's Glibc module hides (they need `_GNU_SOURCE`), found at run time.
    private enum GNU {
        /// `pipe2(2)`, present since glibc 2.9.
        static let pipe2 = function(
            "pipe2", as: (@convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32).self)!

        /// Looks up the C function `name` in the loaded libraries.
        private static func function<F>(_ name: String, as type: F.Type) -> F? {
            // A nil handle is glibc's RTLD_DEFAULT: search every loaded object.
            dlsym(nil, name).map { unsafeBitCast($0, to: type) }
        }
    }
#endif
