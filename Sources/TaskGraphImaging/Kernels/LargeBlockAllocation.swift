import CImageShims
import TaskGraphCore

/// Makes glibc give large freed blocks back to the system at once, for the whole process; done
/// once, when the first `PixelStorage` is made.
///
/// Images, kernel planes and libjpeg's coefficient arrays are blocks of megabytes, freed after
/// each operation. By default glibc raises its mmap threshold to the size of the first such
/// block freed (up to 32 MiB), so later ones come from its per-thread arenas, which keep the
/// memory after `free`: on the imaging benchmark, 20–40 MiB of a run's peak resident memory was
/// memory freed but kept. A fixed threshold of 1 MiB maps every large block and unmaps it when
/// freed, at the cost of page faults on the first touch of each new block (a few percent of CPU
/// time on the benchmark).
enum LargeBlockAllocation {
    /// Sets the threshold, once per process; later calls do nothing.
    static func returnFreedBlocksToTheSystem() {
        _ = configured
    }

    private static let configured = tg_malloc_set_mmap_threshold(1 << 20) == 1
}
