import Foundation

/// What writing a result to the store costs, in seconds of CPU: a part for each byte and a part
/// for each blob.
///
/// `onThisMachine` is measured on the CPU that runs, so that `StoragePolicy` weighs it against
/// an operation's run time measured on that same CPU: a faster or slower machine, or one whose
/// cores other work shares, changes both sides alike, and the rule decides the same way
/// (docs/cache.md, "What is kept").
public struct StorageCost: Hashable, Sendable {
    /// Writing a byte: hashing it and copying it into the page cache.
    public var secondsPerByte: Double
    /// Creating a blob's file: system calls whose cost the byte count does not show.
    public var secondsPerBlob: Double

    /// A cost of `secondsPerByte` for each byte and `secondsPerBlob` for each blob.
    public init(secondsPerByte: Double, secondsPerBlob: Double) {
        self.secondsPerByte = secondsPerByte
        self.secondsPerBlob = secondsPerBlob
    }

    /// The cost on this machine, measured once per process, the first time a decision needs it
    /// (about 3 ms of CPU): `measured(hashing:copying:)` of the SHA-256 of 1 MiB and of copying
    /// 1 MiB into pages the system has just mapped, each the fastest of three tries by the
    /// thread's CPU clock (time the thread waited for a core is not counted). When a measurement
    /// cannot be made (no thread CPU clock, one too coarse to see a try, no memory to map), the
    /// project VM's figures stand in for both: `measured(hashing: 0.71e-9, copying: 0.40e-9)`.
    public static let onThisMachine: StorageCost = {
        let source = [UInt8](repeating: 0x5a, count: sampleByteCount)
        let hashing = fastest { () -> Bool in
            _ = ContentDigest.sha256(of: source)
            return true
        }
        let copying = fastest { () -> Bool in
            // Pages mapped for this copy alone, as the page cache's are for a new file (`malloc`
            // may hand back pages an earlier try touched).
            guard let pages = mmap(nil, sampleByteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                pages != MAP_FAILED
            else { return false }
            source.withUnsafeBytes { pages.copyMemory(from: $0.baseAddress!, byteCount: sampleByteCount) }
            munmap(pages, sampleByteCount)
            return true
        }
        guard let hashing, let copying else { return measured(hashing: 0.71e-9, copying: 0.40e-9) }
        return measured(hashing: hashing / Double(sampleByteCount), copying: copying / Double(sampleByteCount))
    }()

    /// The cost, given what hashing a byte and copying it into new pages take in a sample that
    /// fits the CPU's caches: twice their sum a byte, and 60 µs a blob. A blob is hashed and
    /// copied into the page cache; the system's own work on the page cache (allocating and
    /// indexing pages, the system calls) comes on top, and the sample does none of it. On the
    /// project's VM the sample measured 0.71 ns a byte hashing and 0.40 copying, and the store
    /// 2.3-2.6 ns a byte writing a 24 MB image (`perf record`): about twice the sample's sum.
    public static func measured(hashing: Double, copying: Double) -> StorageCost {
        StorageCost(secondsPerByte: 2 * (hashing + copying), secondsPerBlob: 60e-6)
    }

    /// What writing a result of `byteCount` bytes costs.
    public func seconds(toWrite byteCount: UInt64) -> Double {
        secondsPerBlob + Double(byteCount) * secondsPerByte
    }

    /// How many bytes each measurement hashes or copies.
    private static let sampleByteCount = 1 << 20

    /// The fewest CPU seconds `body` took in three runs on the calling thread; nil when a run
    /// failed (`body` returned false) or the thread's CPU clock could not time one.
    private static func fastest(_ body: () -> Bool) -> Double? {
        var fewest = Double.infinity
        for _ in 0..<3 {
            guard let start = threadCPUSeconds(), body(), let end = threadCPUSeconds() else { return nil }
            fewest = min(fewest, end - start)
        }
        return fewest > 0 && fewest.isFinite ? fewest : nil
    }

    /// The calling thread's CPU clock, in seconds; nil without one.
    private static func threadCPUSeconds() -> Double? {
        var now = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) == 0 else { return nil }
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
