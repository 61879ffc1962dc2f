import Foundation
import Testing

@testable import TaskGraphCore
@testable import TaskGraphImaging

/// The bytes of `Fixtures/<name>` beside these tests.
func fixture(_ name: String) throws -> Data {
    guard let resources = Bundle.module.resourceURL else { throw CocoaError(.fileNoSuchFile) }
    return try Data(contentsOf: resources.appendingPathComponent("Fixtures").appendingPathComponent(name))
}

/// The path of `Fixtures/<name>`.
func fixturePath(_ name: String) throws -> String {
    guard let resources = Bundle.module.resourceURL else { throw CocoaError(.fileNoSuchFile) }
    return resources.appendingPathComponent("Fixtures").appendingPathComponent(name).path
}

/// The error message `body` throws, or nil if it succeeds.
func errorText(_ body: () async throws -> Void) async -> String? {
    do {
        try await body()
        return nil
    } catch {
        return String(describing: error)
    }
}

/// Whether every sample of `actual` is within `tolerance` of `expected`.
func close(_ actual: [UInt8], _ expected: [UInt8], tolerance: Int) -> Bool {
    actual.count == expected.count && zip(actual, expected).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
}

/// Peak signal-to-noise ratio of `a` against `b`, in dB.
func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    let squared = zip(a, b).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) }
    return 10 * log10(255 * 255 / (squared / Double(a.count)))
}

/// Every imaging suite, run one test at a time: the kernels use every core, and running them
/// side by side with the engine's timing tests on a 2-core machine starves those.
@Suite(.serialized) struct ImagingTests {}

extension OperationRegistry {
    /// The core operations, `save` encoding images, and the imaging operations.
    static let imaging = OperationRegistry(
        CoreOperations.types(saveEncoder: ImagingOperations.saveEncoder) + ImagingOperations.types)
}
