import Synchronization

#if os(Linux)
    import Glibc
#endif

/// A value behind a `Synchronization.Mutex`, with the lock made visible to ThreadSanitizer.
///
/// On Linux, `Mutex` takes and releases a contended lock inside the kernel (a priority-inheritance
/// futex, called from the uninstrumented Synchronization library), so ThreadSanitizer sees no
/// synchronization between two threads that hold the lock one after the other and reports a
/// data race on the value it guards. Under ThreadSanitizer this type tells it about every
/// acquisition (`__tsan_acquire`/`__tsan_release` on the lock's address); otherwise it is a
/// plain `Mutex`. Use it wherever the project would use `Mutex`.
///
/// It is public, not a plain `package` type, for speed: this toolchain (Swift 6.3) does not
/// inline or specialise in another module an `@inlinable` member of a `package` type that is not
/// `@usableFromInline` (its body is not serialised), so every `withLock` of the engine's run
/// state went through the unspecialised generic and looked up `Mutex<Value>`'s metadata (about
/// 1 % of a 100,000-node run's CPU in `perf`); a public one is specialised.
public struct Locked<Value: ~Copyable>: ~Copyable, Sendable {
    @usableFromInline let mutex: Mutex<Value>
    /// Resolved once per lock, so an uninstrumented build pays one nil check per `withLock`.
    @usableFromInline let sanitizer = ThreadSanitizerAnnotations.shared

    /// A lock guarding `initialValue`.
    @inlinable public init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with exclusive access to the value. Never `await` (or block on another
    /// thread holding this lock) inside `body`.
    @inlinable public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        guard let sanitizer else { return try mutex.withLock(body) }
        // A noncopyable value is borrowed in place, so this is the lock's own, stable address.
        let address = withUnsafePointer(to: self) { UnsafeMutableRawPointer(mutating: $0) }
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            sanitizer.acquire(address)
            defer { sanitizer.release(address) }
            return try body(&value)
        }
    }
}

/// ThreadSanitizer's `__tsan_acquire` and `__tsan_release`, found at run time: present only in
/// a process built with `-sanitize=thread`.
@usableFromInline struct ThreadSanitizerAnnotations: Sendable {
    @usableFromInline typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// Makes everything the thread does next happen after every `release` of the address.
    @usableFromInline let acquire: Annotation
    /// Publishes everything the thread did so far to later `acquire`s of the address.
    @usableFromInline let release: Annotation

    /// The annotations, or nil when the process is not built with ThreadSanitizer. Always nil
    /// off Linux: there `Mutex` is a lock ThreadSanitizer intercepts (`os_unfair_lock`).
    @usableFromInline static let shared: ThreadSanitizerAnnotations? = {
        #if os(Linux)
            // A nil handle is glibc's RTLD_DEFAULT: search every loaded object.
            guard let acquire = dlsym(nil, "__tsan_acquire"), let release = dlsym(nil, "__tsan_release")
            else { return nil }
            return ThreadSanitizerAnnotations(
                acquire: unsafeBitCast(acquire, to: Annotation.self),
                release: unsafeBitCast(release, to: Annotation.self))
        #else
            return nil
        #endif
    }()
}
