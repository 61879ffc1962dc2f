import Foundation
import TaskGraphCore

/// Memory for the samples of one image (or a kernel's intermediate plane).
///
/// Blocks of `mappingThreshold` bytes or more are mapped with `mmap`; when freed, they are kept
/// for the next block of about their size (`MappingPool`, at most 16 MiB of them) or unmapped, so
/// an image's memory goes back to the system soon after the image is dropped, whatever thread
/// frees it, without changing how malloc behaves for the rest of the process. Smaller blocks
/// come from the heap.
///
/// `@unchecked Sendable` is safe because of how it is used: a codec or kernel fills it, with
/// parallel workers writing disjoint row or column ranges, and `ParallelBands.run` returns only
/// after every worker has finished; from then on it is only read. The one exception, a kernel
/// overwriting its own input in place, happens only after `isKnownUniquelyReferenced` proved
/// that the kernel's `Image` holds the sole reference (`Image.storageForResult()`): no other
/// thread can then be reading it, and the image that held it is consumed by the kernel.
final class PixelStorage<Element>: @unchecked Sendable {
    /// Blocks at least this large are mapped rather than taken from the heap: 1 MiB, glibc's
    /// default mmap threshold before it starts raising it.
    static var mappingThreshold: Int { 1 << 20 }

    /// The first element.
    let base: UnsafeMutablePointer<Element>
    /// How many elements.
    let count: Int
    /// The size of the mapping, or 0 for heap memory.
    private let mappedBytes: Int
    /// Where the mapping goes when freed, and whence it may have come.
    private let pool: MappingPool

    /// Allocates `count` uninitialized elements (kernels write every one before reading), a
    /// mapping `pool` kept where it has one of about the size.
    init(count: Int, pool: MappingPool = .shared) {
        self.count = count
        self.pool = pool
        let bytes = count * MemoryLayout<Element>.stride
        if bytes >= Self.mappingThreshold, let kept = pool.take(atLeast: bytes) {
            base = kept.address.bindMemory(to: Element.self, capacity: count)
            mappedBytes = kept.bytes
        } else if bytes >= Self.mappingThreshold,
            let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            mapped != UnsafeMutableRawPointer(bitPattern: -1)
        {
            // Transparent huge pages where the system allows them on request: a 2 MiB page
            // fault instead of 512 small ones for memory that is written from end to end.
            madvise(mapped, bytes, MADV_HUGEPAGE)
            base = mapped.bindMemory(to: Element.self, capacity: count)
            mappedBytes = bytes
        } else {
            base = .allocate(capacity: count)
            mappedBytes = 0
        }
    }

    deinit {
        if mappedBytes > 0 {
            pool.give(UnsafeMutableRawPointer(base), bytes: mappedBytes)
        } else {
            base.deallocate()
        }
    }
}
