import TaskGraphCore
/// Heap memory for the samples of one image (or a kernel's intermediate plane).
///
/// `@unchecked Sendable` is safe because of how it is used: a codec or kernel fills it, with
/// parallel workers writing disjoint row or column ranges, and `ParallelBands.run` returns only
/// after every worker has finished; from then on it is only read. The one exception, a kernel
/// overwriting its own input in place, happens only after `isKnownUniquelyReferenced` proved
/// that the kernel's `Image` holds the sole reference (`Image.storageForResult()`): no other
/// thread can then be reading it, and the image that held it is consumed by the kernel.
final class PixelStorage<Element>: @unchecked Sendable {
    /// The first element.
    let base: UnsafeMutablePointer<Element>
    /// How many elements.
    let count: Int

    /// Allocates `count` uninitialized elements (kernels write every one before reading).
    init(count: Int) {
        LargeBlockAllocation.returnFreedBlocksToTheSystem()
        base = .allocate(capacity: count)
        self.count = count
    }

    deinit {
        base.deallocate()
    }
}
