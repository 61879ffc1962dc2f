import Dispatch
import Foundation
import FuzzDriver
import TaskGraphCore

/// Reading a file and saving it under any path a pipeline may write must never crash, hang or
/// leave the output directory, whose `link` entry is a symbolic link to a directory outside it.
///
/// Input layout: the first line is the `save` path (validated like any pipeline value); the rest
/// is the file `load` reads (with `max_bytes: 64`). After each run the directory `link` points
/// to must still be empty and nothing may exist beside the output directory but the pipeline's
/// own files: otherwise the harness stops with a fatal error, which libFuzzer reports.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOutputPath(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = Data(UnsafeBufferPointer(start: bytes, count: count))
    let line = input.prefix { $0 != UInt8(ascii: "\n") }
    let path = String(decoding: line, as: UTF8.self)
    let contents = Data(input.dropFirst(line.count + 1))
    Sandbox.shared.reset()
    _ = FileManager.default.createFile(atPath: Sandbox.shared.root + "/in.bin", contents: contents)
    let yaml = """
        version: 1
        operations:
          l: {op: load, path: in.bin, max_bytes: 64}
          s: {op: save, needs: [l], path: \(quoted(path))}
        """
    let options = PipelineOptions(environment: [:], outputDirectory: Sandbox.shared.output, registry: .core)
    if let pipeline = try? Pipeline.load(
        bytes: Data(yaml.utf8), file: Sandbox.shared.root + "/p.yaml", options: options)
    {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            _ = await Engine(options: EngineOptions(jobs: 1)).run(pipeline.graph)
            done.signal()
        }
        done.wait()
    }
    Sandbox.shared.checkNothingEscaped()
    return 0
}

/// `text` as a YAML double-quoted scalar: JSON's escapes, which YAML reads the same way.
private func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
            result += String(format: "\\u%04X", scalar.value)
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

/// The directories of the harness: `root` holds the pipeline's files, `root/out` the output
/// directory with `out/link -> root/elsewhere`.
private final class Sandbox: Sendable {
    static let shared = Sandbox()

    let root: String
    let output: String
    let elsewhere: String

    private init() {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-paths-\(getpid())").path
        output = root + "/out"
        elsewhere = root + "/elsewhere"
        try? FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
    }

    /// Empties the output directory and puts the link back.
    func reset() {
        try? FileManager.default.removeItem(atPath: output)
        try? FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        try? FileManager.default.createSymbolicLink(atPath: output + "/link", withDestinationPath: elsewhere)
    }

    /// Stops the process if a file was written outside the output directory.
    func checkNothingEscaped() {
        let outside = (try? FileManager.default.contentsOfDirectory(atPath: elsewhere)) ?? []
        let beside = Set((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
        guard outside.isEmpty, beside.isSubset(of: ["elsewhere", "in.bin", "out"]) else {
            fatalError("a save escaped the output directory: \(outside) in elsewhere, \(beside.sorted()) beside it")
        }
    }
}

/// SwiftPM links executables with `main` aliased to `<module>_main`; hand control to libFuzzer.
@_cdecl("FuzzOutputPath_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc: argc, argv: argv) { bytes, size in fuzzOutputPath(bytes, size) }
}
