import Foundation
import TaskGraphCore

/// The body of a transfer as libcurl's write callback hands it over, capped at a byte limit.
///
/// Only the thread running the transfer touches it: curl calls the callback from inside
/// `curl_multi_perform` on that thread.
final class ReceiveBuffer {
    /// The bytes so far.
    private(set) var data = Data()
    /// The most bytes accepted.
    let limit: Int64
    /// Whether the body grew past `limit` (the transfer is then aborted).
    private(set) var exceededLimit = false

    /// A buffer accepting at most `limit` bytes.
    init(limit: Int64) {
        self.limit = limit
    }

    /// Appends `count` bytes, or refuses them all if that would pass the limit.
    /// - Returns: the number of bytes taken, which curl treats as an error when short.
    func append(_ pointer: UnsafeRawPointer, count: Int) -> Int {
        guard Int64(data.count) + Int64(count) <= limit else {
            exceededLimit = true
            return 0
        }
        data.append(pointer.assumingMemoryBound(to: UInt8.self), count: count)
        return count
    }

    /// libcurl's `CURLOPT_WRITEFUNCTION`: `userdata` is an unretained `ReceiveBuffer`.
    static func write(
        _ pointer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?
    ) -> Int {
        guard let pointer, let userdata else { return 0 }
        return Unmanaged<ReceiveBuffer>.fromOpaque(userdata).takeUnretainedValue()
            .append(pointer, count: size * count)
    }
}
