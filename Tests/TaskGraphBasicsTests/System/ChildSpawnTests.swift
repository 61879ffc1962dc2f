import CSystemShims
import Foundation
import Testing

/// Tests for `tg_spawn` itself (`ChildProcesses` starts every child with it), calling it as
/// `ChildProcesses+Spawn` does and reading what the child was started with.
struct ChildSpawnTests {
    /// Starts `path` with `arguments` through `tg_spawn`, no signal defaulted beyond those it
    /// resets itself, its output and errors into one pipe.
    /// - Returns: the error number (0 when it started), the child's pid as stored, and what it
    ///   printed once it has exited (nothing when it did not start).
    private static func spawn(_ path: String, _ arguments: [String]) -> (code: Int32, pid: pid_t, output: String) {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        var pid: pid_t = 0
        let code = tg_spawn(path, argv, envp, nil, -1, fds[1], fds[1], &defaults, &pid)
        close(fds[1])
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fds[0], &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output += buffer[..<count]
        }
        close(fds[0])
        if code == 0 {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        return (code, pid, String(decoding: output, as: UTF8.self))
    }

    /// A mask line of `/proc/<pid>/status` (`SigIgn`, `SigCgt`, …) in `status`.
    private static func mask(_ name: String, in status: String) -> UInt64? {
        status.split(separator: "\n").first { $0.hasPrefix(name + ":") }.flatMap {
            UInt64($0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces), radix: 16)
        }
    }

    /// glibc's internal signals (32 and 33, whose handlers its `sigaction` cannot reset) reach
    /// the program ignored, as glibc's posix_spawn leaves them; a signal the parent catches
    /// reaches it at its default action, neither caught nor ignored, even when `defaults` does
    /// not name it.
    @Test func ignoresGlibcsInternalSignalsAndResetsACaughtOne() {
        // SIGUSR2: nothing else in the test process uses it.
        var caught = sigaction()
        caught.__sigaction_handler.sa_handler = { _ in }
        var previous = sigaction()
        sigaction(SIGUSR2, &caught, &previous)
        defer { sigaction(SIGUSR2, &previous, nil) }
        let started = Self.spawn("/bin/cat", ["cat", "/proc/self/status"])
        #expect(started.code == 0)
        let ignored = Self.mask("SigIgn", in: started.output)
        #expect(ignored.map { $0 & (1 << 31 | 1 << 32) } == 1 << 31 | 1 << 32, "\(started.output)")
        #expect(ignored.map { $0 & (1 << UInt64(SIGUSR2 - 1)) } == 0)
        #expect(Self.mask("SigCgt", in: started.output).map { $0 & (1 << UInt64(SIGUSR2 - 1)) } == 0)
        #expect(Self.mask("SigBlk", in: started.output) == 0)
    }

    /// A child that starts but cannot exec its program returns the error number of the exec,
    /// and is reaped before `tg_spawn` returns: no zombie is left for anyone to wait for.
    @Test func aChildThatCannotExecIsReapedAndItsErrorReturned() {
        let started = Self.spawn("/etc/passwd", ["passwd"])
        #expect(started.code == EACCES)
        #expect(started.output.isEmpty)
        // Under ThreadSanitizer posix_spawn starts children, and stores no pid when one fails.
        // Reaped: no process of that id is left (not `waitpid`, which could collect another
        // test's child given the same id meanwhile).
        if started.pid != 0 {
            #expect(!FileManager.default.fileExists(atPath: "/proc/\(started.pid)"))
        }
    }
}
