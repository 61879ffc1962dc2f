import ArgumentParser
import TaskGraphCore

/// Operation instances named on the command line: an instance id (`tilt[lake]`) or an
/// operation id, which names all its instances (`tilt`).
enum InstanceSelection {
    /// The instance ids `names` select in `graph`.
    /// - Throws: `ValidationError` naming `option` for a name that selects nothing.
    static func ids(_ names: [String], in graph: ExecutionGraph, option: String) throws -> Set<String> {
        var selected: Set<String> = []
        for name in names {
            do {
                selected.formUnion(try graph.indices(selecting: name).map { graph.nodes[$0].id })
            } catch {
                throw ValidationError("\(option): \(error)")
            }
        }
        return selected
    }
}
