import CSystemShims
import Foundation

/// How a child process ended.
public enum ExitStatus: Sendable, Hashable, Codable {
    /// The process called exit with this code (0...255).
    case exited(Int32)
    /// The process was terminated by this signal.
    case signalled(Int32)

    /// Decodes a status from `waitpid`, which Swift cannot do with the C macros (`WIFEXITED`,
    /// `WEXITSTATUS`, `WTERMSIG`): they are not imported. Stopped states never reach here because
    /// `WUNTRACED` is not used.
    ///
    /// - Parameter waitStatus: The raw status `waitpid` stored.
    init(waitStatus: Int32) {
        let signal = waitStatus & 0x7f
        self = signal == 0 ? .exited((waitStatus >> 8) & 0xff) : .signalled(signal)
    }
}

/// Everything a finished child left behind.
package struct ProcessResult: Sendable, Codable {
    /// How the process ended.
    package var status: ExitStatus
    /// The first `outputLimit` bytes the process wrote to standard output.
    package var standardOutput: [UInt8]
    /// Whether standard output had more bytes than `standardOutput` holds.
    package var standardOutputTruncated: Bool
    /// The last `errorTailLimit` bytes the process wrote to standard error.
    package var standardErrorTail: [UInt8]
    /// What the process (and the children it waited for) used, from `wait4`.
    var usage: ResourceUsage?
}

/// Collects a child's standard output and error from the read ends of its pipes, keeping the
/// head of the output and the tail of the errors, and shows each chunk to an observer. The reaper reads a pipe only
/// when `epoll` says
/// it is ready, so no read blocks.
struct OutputCollector {
    /// The read ends, standard output first; -1 once closed.
    private(set) var pipes: [Int32]
    /// The start of standard output.
    private var output: HeadBuffer
    /// The end of standard error.
    private var errorTail: TailBuffer
    /// Told each chunk as it is read.
    private let observer: ChildProcesses.OutputObserver?

    /// Takes ownership of the two read ends; `finish` closes those still open.
    init(
        standardOutput: Int32, standardError: Int32, outputLimit: Int, errorTailLimit: Int,
        observer: ChildProcesses.OutputObserver? = nil
    ) {
        pipes = [standardOutput, standardError]
        output = HeadBuffer(limit: outputLimit)
        errorTail = TailBuffer(limit: errorTailLimit)
        self.observer = observer
    }

    /// Whether either pipe has not reached its end yet.
    var isOpen: Bool { pipes.contains { $0 >= 0 } }

    /// Reads what pipe `index` (0: standard output, 1: standard error) holds, into `chunk` and
    /// from there into its buffer; at its end (or on an error) removes it from `epoll` and
    /// closes it.
    mutating func read(pipe index: Int, using chunk: inout [UInt8], epoll: Int32) {
        let fd = pipes[index]
        guard fd >= 0 else { return }
        let count = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
        if count > 0 {
            observer?(index == 0 ? .standardOutput : .standardError, chunk[..<count])
            if index == 0 {
                output.append(chunk[..<count])
            } else {
                errorTail.append(chunk[..<count])
            }
        } else if count == 0 || errno != EINTR {
            close(pipe: index, epoll: epoll)
        }
    }

    /// Closes the pipes still open (removing them from `epoll`) and returns what was collected,
    /// with `status` and `usage`.
    consuming func finish(status: ExitStatus, usage: ResourceUsage?, epoll: Int32) -> ProcessResult {
        for index in pipes.indices {
            close(pipe: index, epoll: epoll)
        }
        return ProcessResult(
            status: status, standardOutput: output.bytes,
            standardOutputTruncated: output.truncated, standardErrorTail: errorTail.bytes, usage: usage)
    }

    private mutating func close(pipe index: Int, epoll: Int32) {
        guard pipes[index] >= 0 else { return }
        tg_epoll_remove(epoll, pipes[index])
        Foundation.close(pipes[index])
        pipes[index] = -1
    }
}

/// Keeps the first `limit` bytes of a stream and notes whether more arrived.
private struct HeadBuffer {
    /// The most bytes kept.
    let limit: Int
    /// The bytes kept so far.
    private(set) var bytes: [UInt8] = []
    /// Whether bytes beyond `limit` arrived and were dropped.
    private(set) var truncated = false

    /// Creates an empty buffer keeping at most `limit` bytes.
    init(limit: Int) {
        self.limit = limit
    }

    /// Appends `chunk`, dropping whatever does not fit.
    mutating func append(_ chunk: ArraySlice<UInt8>) {
        let room = max(limit - bytes.count, 0)
        if chunk.count > room {
            truncated = true
        }
        bytes += chunk.prefix(room)
    }
}

/// Keeps the last `limit` bytes of a stream.
private struct TailBuffer {
    /// The most bytes kept.
    let limit: Int
    /// Recent bytes; up to twice `limit` plus one chunk, so trimming is amortised.
    private var storage: [UInt8] = []

    /// Creates an empty buffer keeping the last `limit` bytes.
    init(limit: Int) {
        self.limit = limit
    }

    /// The last `limit` bytes seen.
    var bytes: [UInt8] { Array(storage.suffix(limit)) }

    /// Appends `chunk`, forgetting bytes that can no longer be among the last `limit`.
    mutating func append(_ chunk: ArraySlice<UInt8>) {
        storage += chunk
        if storage.count > 2 * limit {
            storage.removeFirst(storage.count - limit)
        }
    }
}
