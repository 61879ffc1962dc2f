import Foundation
import FuzzDriver
import TaskGraphCore
import TaskGraphCrypto
import TaskGraphImaging
import TaskGraphNetwork
import TaskGraphReporting

/// Loading any bytes as a pipeline file must never crash, hang or exhaust memory: it either
/// plans a graph or returns diagnostics. The bytes go through the same decoding as a file read
/// (UTF-8, NUL, other encodings), then variables, parameter checks and output-path checks.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzPipeline(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Data(UnsafeBufferPointer(start: bytes, count: count))
    let options = PipelineOptions(
        environment: ["HOME": "/home/fuzz"], outputDirectory: "/nonexistent/out", registry: registry)
    do {
        let pipeline = try Pipeline.load(bytes: data, file: "fuzz.yaml", options: options)
        _ = PlanPrinter(graph: pipeline.graph).render()
    } catch {
        _ = error.description
    }
    return 0
}

/// Every operation type, as the command-line tool assembles them.
let registry = OperationRegistry(
    CoreOperations.types(saveEncoder: ImagingOperations.saveEncoder)
        + ImagingOperations.types + NetworkOperations.types + CryptoOperations.types)

/// SwiftPM links executables with `main` aliased to `<module>_main`; hand control to libFuzzer.
@_cdecl("FuzzPipeline_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc: argc, argv: argv) { bytes, size in fuzzPipeline(bytes, size) }
}
