/// Heap memory for the samples of one image (or a kernel's intermediate plane).
///
/// `@unchecked Sendable` is safe because of how it is used: a codec or kernel fills it once,
/// with parallel workers writing disjoint row or column ranges, and `ParallelBands.run` returns
/// only after every worker has finished; from then on it is only read (`Image` never writes).
final class PixelStorage<Element>: @unchecked Sendable {
    /// The first element.
    let base: UnsafeMutablePointer<Element>
    /// How many elements.
    let count: Int

    /// Allocates `count` uninitialized elements (kernels write every one before reading).
    init(count: Int) {
        base = .allocate(capacity: count)
        self.count = count
    }

    deinit {
        base.deallocate()
    }
}
