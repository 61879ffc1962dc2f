import TaskGraphCore
import TaskGraphImaging

/// An action of this program's own: measures the brightness of the image among its inputs,
/// whoever produced it. It opts in to the cache: its result depends only on its input.
struct BrightnessAction: CacheableAction {
    /// Bump when the same image would give another measure.
    var cacheVersion: Int { 1 }

    /// It is made with no value that could change its result.
    func addParameters(to key: inout KeyComponents) {}

    func run(in context: TaskContext) async throws -> any OperationResult {
        let image = try await context.input((any ImageDataProvider).self).image
        var total = 0
        for byte in image.pixels { total += Int(byte) }
        return Brightness(mean: Double(total) / Double(max(1, image.pixels.count)))
    }
}
