import Foundation
import TaskGraphCore

/// The mappings of images freed last, kept for the next images of about the same size: a
/// pipeline makes image after image of the same few sizes (a decoded photo, its filtered copies,
/// a resize's intermediate plane), and a fresh mapping costs a page fault per page and the
/// zeroing of every page it touches, which was a sixth of `photos.yaml`'s CPU time with 100
/// photos (`perf record`, most under `tg_sepia`, libjpeg's decoder and the resize). A kept
/// mapping's pages are already there.
///
/// At most `capacity` bytes are kept, the oldest unmapped first, so what is kept stays a small
/// part of a run's working memory; a mapping larger than that is unmapped at once.
///
/// `shared`, the pool of every image's memory, is the one piece of process state the imaging
/// library keeps, at the level of an allocator (as malloc keeps freed blocks): it holds memory,
/// never results. A kept mapping still holds the samples of the image that used it, which no
/// output can show, because every codec and kernel writes each sample of its storage before
/// anything reads it (`PixelStorage`).
final class MappingPool: Sendable {
    /// The pool of every image's memory, 16 MiB. (With 32 MiB, `photos.yaml`'s peak RSS with 100
    /// photos grew by 27 MiB instead of 12, for about the same CPU time.)
    static let shared = MappingPool(capacity: 16 << 20)

    /// The most bytes kept.
    let capacity: Int

    /// A kept mapping: its address (as an integer, so the list is `Sendable`) and size.
    private struct Mapping: Sendable {
        let address: UInt
        let bytes: Int
    }

    /// The kept mappings, oldest first.
    private let kept = Locked<[Mapping]>([])

    /// A pool keeping at most `capacity` bytes.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Unmaps what is kept.
    deinit {
        for mapping in kept.withLock({ $0 }) {
            munmap(UnsafeMutableRawPointer(bitPattern: mapping.address), mapping.bytes)
        }
    }

    /// A kept mapping of at least `bytes` bytes and at most an eighth more, taken out of the pool,
    /// with its size; nil if none is kept.
    func take(atLeast bytes: Int) -> (address: UnsafeMutableRawPointer, bytes: Int)? {
        let found = kept.withLock { kept -> Mapping? in
            guard let index = kept.firstIndex(where: { $0.bytes >= bytes && $0.bytes - bytes <= bytes / 8 })
            else { return nil }
            return kept.remove(at: index)
        }
        guard let found, let address = UnsafeMutableRawPointer(bitPattern: found.address) else { return nil }
        return (address, found.bytes)
    }

    /// Keeps the mapping at `address` of `bytes` bytes for a later `take`, unmapping the oldest
    /// kept ones to make room (or this one, if larger than the pool).
    func give(_ address: UnsafeMutableRawPointer, bytes: Int) {
        guard bytes <= capacity else {
            munmap(address, bytes)
            return
        }
        let evicted = kept.withLock { kept -> [Mapping] in
            kept.append(Mapping(address: UInt(bitPattern: address), bytes: bytes))
            var total = kept.reduce(0) { $0 + $1.bytes }
            var evicted: [Mapping] = []
            while total > capacity {
                let oldest = kept.removeFirst()
                total -= oldest.bytes
                evicted.append(oldest)
            }
            return evicted
        }
        for mapping in evicted {
            munmap(UnsafeMutableRawPointer(bitPattern: mapping.address), mapping.bytes)
        }
    }
}
