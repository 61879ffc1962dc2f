import Foundation
import TaskGraphCore
import TaskGraphImaging
import TaskGraphReporting

/// Thumbnails of the images a run saved, for its HTML report: every `save` of a JPEG or PNG that
/// has its result, read back, shrunk with the imaging module's own resize and encoded as small
/// JPEGs, in graph order, until the page's budget is spent.
enum ReportPreviews {
    /// The longer side of a thumbnail, in pixels.
    static let maximumSide = 240
    /// At most this many bytes of JPEG go into a page (a third more once base64-encoded).
    static let budget = 1_500_000
    /// At most this many thumbnails go into a page.
    static let maximumCount = 48

    /// Thumbnails of what `report`'s run of `graph` saved. A file that cannot be read or decoded
    /// (moved, not an image) gets no thumbnail.
    static func make(graph: ExecutionGraph, report: RunReport) async -> [ReportPreview] {
        var previews: [ReportPreview] = []
        var spent = 0
        for (node, record) in zip(graph.nodes, report.nodes) where node.type == "save" && record.outcome.kind.isSuccess
        {
            guard previews.count < maximumCount, spent < budget, let path = savedImagePath(of: node) else { continue }
            guard let jpeg = try? await thumbnail(of: path), spent + jpeg.count <= budget else { continue }
            spent += jpeg.count
            previews.append(ReportPreview(operation: node.id, jpeg: jpeg))
        }
        return previews
    }

    private static func savedImagePath(of node: ExecutionGraph.Node) -> String? {
        guard let setup = node.setup, let path = node.parameters.string("path"),
            ["jpg", "jpeg", "png"].contains((path as NSString).pathExtension.lowercased())
        else { return nil }
        return (setup.outputDirectory as NSString).appendingPathComponent(path)
    }

    private static func thumbnail(of path: String) async throws -> Data {
        let data = try await BlockingIO.run { try FileIO.read(path) }
        let image = try await ImageCodec.decode(data).shrunk(toMaxSide: maximumSide)
        return try await ImageCodec.encode(image, as: .jpeg, quality: 75)
    }
}
