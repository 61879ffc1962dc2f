import Foundation
import Synchronization

/// The temporary files of atomic writes in progress, so that a process about to end at once (a
/// second Ctrl-C) can remove them instead of leaving a half-written `.NAME.tmp-XXXXXX` behind.
///
/// Creating, renaming and removing a temporary file happen under one lock, so `abandonAll`
/// sees every temporary file that exists, and none is created or renamed after it.
public final class TemporaryFiles: Sendable {
    /// The temporary files that exist, and whether `abandonAll` was called.
    private struct State {
        var paths: Set<String> = []
        var isAbandoned = false
    }

    private let state = Locked(State())

    /// An empty registry; a run's is `RunResources.temporaryFiles`.
    public init() {}

    /// The most UTF-8 bytes of the final name a temporary name repeats, so that it stays
    /// within `NAME_MAX` (255) for every legal final name.
    static let nameStemLimit = 64

    /// Creates an empty file beside `path`, named `.NAME.tmp-XXXXXX` (`NAME` cut to
    /// `nameStemLimit` bytes), mode 0600, and registers it.
    ///
    /// - Returns: Its open descriptor and its path.
    /// - Throws: `FileError.writeFailed` naming `path`; `CancellationError` after `abandonAll`.
    package func create(beside path: String) throws -> (descriptor: Int32, path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        var name = Substring((path as NSString).lastPathComponent)
        while name.utf8.count > Self.nameStemLimit { name = name.dropLast() }
        var template = ((directory.isEmpty ? "" : directory + "/") + ".\(name).tmp-XXXXXX").utf8CString
        return try state.withLock { state in
            guard !state.isAbandoned else { throw CancellationError() }
            let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else {
                throw FileError.writeFailed(path: path, reason: FileIO.lastErrorText())
            }
            let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            state.paths.insert(temporary)
            return (descriptor, temporary)
        }
    }

    /// Renames `temporary` (from `create`) to `path` and forgets it.
    ///
    /// - Throws: `FileError.writeFailed` naming `path`; `CancellationError` after `abandonAll`
    ///   (the file is gone then).
    package func commit(_ temporary: String, to path: String) throws {
        try state.withLock { state in
            guard state.paths.contains(temporary) else { throw CancellationError() }
            guard rename(temporary, path) == 0 else {
                throw FileError.writeFailed(path: path, reason: FileIO.lastErrorText())
            }
            state.paths.remove(temporary)
        }
    }

    /// Removes `temporary` (from `create`) unless it was renamed or abandoned already.
    package func discard(_ temporary: String) {
        state.withLock { state in
            if state.paths.remove(temporary) != nil {
                unlink(temporary)
            }
        }
    }

    /// Removes every temporary file and refuses to create any more. For a process about to
    /// end at once; never blocks for longer than a write in progress takes to create or rename its file.
    public func abandonAll() {
        state.withLock { state in
            state.isAbandoned = true
            for path in state.paths {
                unlink(path)
            }
            state.paths.removeAll()
        }
    }

    /// The temporary files that exist now.
    var paths: Set<String> { state.withLock { $0.paths } }
}
