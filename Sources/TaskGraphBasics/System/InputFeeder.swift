import CSystemShims
import Foundation

/// Writes a child's standard input from the reaper thread: the write end of its stdin pipe is
/// non-blocking and watched in epoll for room, so a child that reads slowly (or writes its
/// output before reading everything) holds no thread and cannot deadlock against the reading
/// of its output. At the end of the bytes, or when the child closed its end (`EPIPE`), the
/// pipe is closed: the child then reads end of file.
struct InputFeeder {
    /// The write end; -1 once closed.
    private(set) var descriptor: Int32
    /// The bytes to write.
    private let bytes: Data
    /// How many have been written.
    private var written = 0

    /// Takes ownership of `descriptor`, the non-blocking write end of the child's stdin pipe.
    init(descriptor: Int32, bytes: Data) {
        self.descriptor = descriptor
        self.bytes = bytes
    }

    /// Whether bytes are left to write.
    var isOpen: Bool { descriptor >= 0 }

    /// Writes as much as the pipe takes; closes it (and stops watching it in `epoll`) once
    /// everything is written or the child can take no more.
    mutating func write(epoll: Int32) {
        while descriptor >= 0, written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if count > 0 {
                written += count
            } else if errno == EAGAIN {
                return
            } else if errno != EINTR {
                break
            }
        }
        close(epoll: epoll)
    }

    /// Closes the pipe if it is open, and stops watching it in `epoll`.
    mutating func close(epoll: Int32) {
        guard descriptor >= 0 else { return }
        tg_epoll_remove(epoll, descriptor)
        Foundation.close(descriptor)
        descriptor = -1
    }
}
