import Foundation

/// What an operation used while it ran, summed over its attempts: CPU time, peak memory and
/// storage IO. For an `exec` these are the child's figures from `wait4` (its rusage, children it
/// waited for included); for a built-in operation only the CPU time its task spent on its threads
/// is measured (see `ResourceUsage.Meter`).
public struct ResourceUsage: Sendable, Hashable, Codable {
    /// CPU seconds in user mode.
    public var userCPU: Double
    /// CPU seconds in the kernel.
    public var systemCPU: Double
    /// Peak resident memory in bytes (`ru_maxrss`), when measured.
    public var maxResidentBytes: Int?
    /// Bytes the storage layer read for it (`ru_inblock` × 512: reads served from the page cache
    /// do not count), when measured.
    public var bytesRead: Int?
    /// Bytes the storage layer wrote for it (`ru_oublock` × 512), when measured.
    public var bytesWritten: Int?

    /// A usage record.
    public init(
        userCPU: Double, systemCPU: Double, maxResidentBytes: Int? = nil, bytesRead: Int? = nil,
        bytesWritten: Int? = nil
    ) {
        self.userCPU = userCPU
        self.systemCPU = systemCPU
        self.maxResidentBytes = maxResidentBytes
        self.bytesRead = bytesRead
        self.bytesWritten = bytesWritten
    }

    /// User plus system CPU seconds.
    public var cpuTime: Double { userCPU + systemCPU }
}

extension ResourceUsage {
    /// The figures `wait4` gave for a reaped child (`ru_maxrss` is in KiB, blocks are 512 bytes).
    init(childUsage usage: rusage) {
        self.init(
            userCPU: UsageMeter.seconds(usage.ru_utime), systemCPU: UsageMeter.seconds(usage.ru_stime),
            maxResidentBytes: Int(usage.ru_maxrss) * 1024, bytesRead: Int(usage.ru_inblock) * 512,
            bytesWritten: Int(usage.ru_oublock) * 512)
    }
}
