import TaskGraphCore
import TaskGraphCrypto
import TaskGraphImaging
import TaskGraphNetwork

/// The photos demo's chain built in Swift: for each photo, download → decrypt → tilt-shift →
/// sepia → save, and a brightness measure of each toned photo (an action of this program's own).
struct PhotoChain {
    /// The folder holding `NAME.jpg.enc` and `demo.key` (the repository's `pipelines/photos`).
    var sourceDirectory: String
    /// Where the toned photos are saved.
    var outputDirectory: String
    /// The photos' names.
    var photos: [String]

    /// The graph: every node keyed as the same operation in `pipelines/photos.yaml`.
    func graph() throws -> ExecutionGraph {
        var graph = ExecutionGraph()
        for photo in photos {
            let download = try graph.add(
                "download[\(photo)]", action: Download(url: "\(photo).jpg.enc", directory: sourceDirectory))
            let decrypt = try graph.add(
                "decrypt[\(photo)]", action: Decrypt(key: .file("demo.key", directory: sourceDirectory)),
                needs: [download])
            let tilt = try graph.add(
                "tilt[\(photo)]", action: TiltShift(blurRadius: 6, topFocus: 0.4, bottomFocus: 0.65), needs: [decrypt])
            let tone = try graph.add("tone[\(photo)]", action: Sepia(intensity: 0.8), needs: [tilt])
            try graph.add(
                "save[\(photo)]",
                action: Save(
                    path: "\(photo).jpg", outputDirectory: outputDirectory, encoder: ImagingOperations.saveEncoder),
                needs: [tone])
            try graph.add("brightness[\(photo)]", action: BrightnessAction(), needs: [tone])
        }
        return graph
    }
}
