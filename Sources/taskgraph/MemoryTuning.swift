import Foundation

/// How the process asks the C allocator to behave, set once at start.
enum MemoryTuning {
    /// On glibc, caps the allocator's arenas at one per core (its default is eight per core).
    ///
    /// Image buffers of tens of megabytes are freed on one blocking-IO thread and allocated again
    /// on another; with an arena per thread each keeps its own freed memory, and a run of 200
    /// photos peaked at 672 MiB where one of 10 peaked at 385 MiB. With one arena per core the
    /// freed buffers are reused (343 and 284 MiB, `bench/run-resources.sh`).
    static func apply() {
        #if os(Linux)
        // `mallopt` is declared in <malloc.h>, which Swift's Glibc module does not import; look it
        // up instead. M_ARENA_MAX is -8 in every glibc since 2.10. Other C libraries lack the
        // symbol, and then nothing changes.
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
        let arenaMaximum: Int32 = -8
        _ = mallopt(arenaMaximum, Int32(max(2, min(ProcessInfo.processInfo.activeProcessorCount, 64))))
        #endif
    }
}
