#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// The process's limit on open files, which the command-line tool (the owner of the process,
/// unlike the library) raises for runs with many children at once.
enum FileDescriptorLimit {
    /// Raises the soft limit on open files to the hard limit, as make, ninja's users and most
    /// build tools expect: every running `exec` holds three descriptors (two pipes and a
    /// pidfd), so 1,000 children need about 3,000, past the common soft default of 1,024.
    /// A failure leaves the limit as it was; spawning then reports "too many open files".
    static func raiseToHardLimit() {
        var limit = rlimit()
        guard getrlimit(resourceLimitOpenFiles, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resourceLimitOpenFiles, &limit)
    }

    #if canImport(Glibc)
        private static let resourceLimitOpenFiles = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resourceLimitOpenFiles = RLIMIT_NOFILE
    #endif
}
