import Foundation
import Synchronization
import TaskGraphCore

/// A serial writer to a file descriptor. Writes happen on a dispatch queue of their own, so event
/// sinks called from engine workers never block the cooperative thread pool on a slow terminal
/// or a full pipe. Text written while a write is pending joins it, so a burst of lines costs one
/// system call, not one per line.
public final class TextOutput: Sendable {
    private let descriptor: Int32
    private let queue: DispatchQueue
    /// Text not yet handed to the queue, and whether a drain is already scheduled.
    private let pending = Locked((text: "", scheduled: false))
    /// The `errno` of the first write that failed, and what is told of it.
    private let failed = Locked<(code: Int32?, handler: (@Sendable (Int32) -> Void)?)>((nil, nil))

    /// Standard error.
    public static let standardError = TextOutput(descriptor: STDERR_FILENO)
    /// Standard output.
    public static let standardOutput = TextOutput(descriptor: STDOUT_FILENO)

    /// A writer to `descriptor`, which it does not close.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
        queue = DispatchQueue(label: "taskgraph.output.\(descriptor)")
    }

    /// A writer to a new (or truncated) file at `path`, or to the FIFO or character device
    /// there, written in place (`RequestedOutputFile.openForStreaming`), open until the process
    /// exits.
    /// - Throws: `OperationError.writeFailed` with the system's reason.
    public convenience init(creatingFile path: String) throws {
        self.init(descriptor: try RequestedOutputFile.openForStreaming(path))
    }

    /// The `errno` of the first write that failed (`ENOSPC`, `EPIPE`…), nil while every write
    /// succeeded. Once one failed, later text is dropped.
    public var failure: Int32? { failed.withLock { $0.code } }

    /// Calls `handler` with the `errno` of the first write that fails, once, on the writing
    /// queue.
    public func onFailure(_ handler: @escaping @Sendable (Int32) -> Void) {
        failed.withLock { $0.handler = handler }
    }

    /// Whether the descriptor is a terminal.
    public var isTerminal: Bool { isatty(descriptor) == 1 }

    /// The terminal's width in columns, or nil if it is not a terminal.
    public var terminalWidth: Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Queues `text` for writing.
    public func write(_ text: String) {
        let schedule = pending.withLock { pending in
            pending.text += text
            defer { pending.scheduled = true }
            return !pending.scheduled
        }
        if schedule { queue.async { self.drain() } }
    }

    /// Waits until everything queued so far is written.
    public func flush() {
        queue.sync { drain() }
    }

    private func drain() {
        let text = pending.withLock { pending in
            defer { pending = ("", false) }
            return pending.text
        }
        guard !text.isEmpty, failure == nil, let code = Self.writeAll(text, to: descriptor) else { return }
        let handler = failed.withLock { failed in
            failed.code = code
            return failed.handler
        }
        handler?(code)
    }

    /// Writes all of `text`; returns the `errno` of a failed write, or nil.
    private static func writeAll(_ text: String, to descriptor: Int32) -> Int32? {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            bytes = bytes.dropFirst(written)
        }
        return nil
    }
}
