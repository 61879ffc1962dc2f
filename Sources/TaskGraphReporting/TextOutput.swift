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

    /// Standard error.
    public static let standardError = TextOutput(descriptor: STDERR_FILENO)
    /// Standard output.
    public static let standardOutput = TextOutput(descriptor: STDOUT_FILENO)

    /// A writer to `descriptor`, which it does not close.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
        queue = DispatchQueue(label: "taskgraph.output.\(descriptor)")
    }

    /// A writer to a new (or truncated) file at `path`, open until the process exits.
    /// - Throws: `OperationError.writeFailed` with the system's reason.
    public convenience init(creatingFile path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OperationError.writeFailed(path: path, reason: FileIO.lastErrorText()) }
        self.init(descriptor: descriptor)
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
        if !text.isEmpty { Self.writeAll(text, to: descriptor) }
    }

    private static func writeAll(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
