import Dispatch
import Foundation
import FuzzDriver
import TaskGraphImaging

/// Decoding any bytes as an image (JPEG or PNG, chosen by signature) must never crash, hang or
/// exhaust memory: it returns an image or throws `ImageError`. The limit keeps a hostile header
/// from asking for a huge allocation, as `max_pixels` does in pipelines.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzImage(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Data(UnsafeBufferPointer(start: bytes, count: count))
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        _ = try? await ImageCodec.decode(data, maxPixels: 16_000_000)
        done.signal()
    }
    done.wait()
    return 0
}

/// SwiftPM links executables with `main` aliased to `<module>_main`; hand control to libFuzzer.
@_cdecl("FuzzImage_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc: argc, argv: argv) { bytes, size in fuzzImage(bytes, size) }
}
