import TaskGraphCore

/// Prints each saved photo and each brightness as soon as its node ends, while the run goes on:
/// what a UI would do to show each photo when it is ready.
struct ArrivalPrinter: ResultSink {
    func receive(_ result: any OperationResult, of index: Int, id: String) {
        guard id.hasPrefix("save[") || id.hasPrefix("brightness[") else { return }
        print("ready: \(id): \(result.summary)")
    }
}
