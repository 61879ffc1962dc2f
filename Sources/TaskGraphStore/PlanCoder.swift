import Foundation
import TaskGraphCore

/// A planned pipeline as bytes: what `plans/<invocation>` keeps, so that the same command on an
/// unchanged pipeline file skips reading, checking and planning it (docs/cache.md, "Plans").
///
/// Encoding: `TGPL`, version 1, the plan's key (32 bytes), a `u32` count of shared strings and
/// the strings; then, referring to shared strings by `u32` index (*ref*): the file, the name
/// and the output directory (strings), the executor and the store (each `u8` 0, or 1 and a
/// string), a `u32` count of pools, each a name and a depth (`u64`); then a `u32` count of
/// nodes and the nodes (`PlanNodeCoder`) in pieces of 1,024, each piece a `u64` length and its
/// bytes, so that pieces are read on several threads.
enum PlanCoder {
    static let magic: [UInt8] = Array("TGPL".utf8)
    static let version: UInt8 = 1
    /// Nodes per piece.
    static let piece = 1_024

    /// A plan read back: the pipeline's fields and every node's, the actions not made yet.
    struct Decoded {
        var file: String
        var name: String
        var outputDirectory: String
        var executor: String?
        var store: String?
        var pools: [String: Int]
        var nodes: [PlanNodeCoder.Node]
    }

    /// `pipeline` encoded under `key`, or nil when it cannot be kept: it has warnings (they are
    /// printed by every run that loads it), or a node without a setup or whose setup does not
    /// say what the node does.
    static func encode(_ pipeline: Pipeline, key: ContentDigest) -> Data? {
        guard pipeline.warnings.isEmpty else { return nil }
        var strings = SharedStrings()
        var body = ResultWriter(capacity: pipeline.graph.nodes.count * 300 + 256)
        body.append(string: pipeline.file)
        body.append(string: pipeline.name)
        body.append(string: pipeline.outputDirectory)
        for optional in [pipeline.executor, pipeline.store] {
            body.append(UInt8(optional == nil ? 0 : 1))
            if let optional { body.append(string: optional) }
        }
        body.append(count: pipeline.pools.count)
        for (name, depth) in pipeline.pools.sorted(by: { $0.key < $1.key }) {
            body.append(string: name)
            body.append(UInt64(truncatingIfNeeded: depth))
        }
        let nodes = pipeline.graph.nodes
        body.append(count: nodes.count)
        for start in stride(from: 0, to: nodes.count, by: piece) {
            var encoded = ResultWriter(capacity: piece * 300)
            for node in nodes[start..<min(nodes.count, start + piece)] {
                guard PlanNodeCoder.append(node, of: nodes, to: &encoded, strings: &strings) else { return nil }
            }
            body.append(lengthPrefixed: encoded.data)
        }
        var writer = ResultWriter(capacity: body.data.count + strings.byteCount + 64)
        writer.append(raw: magic)
        writer.append(version)
        writer.append(digest: key)
        writer.append(count: strings.all.count)
        for string in strings.all { writer.append(string: string) }
        writer.append(raw: body.data)
        return writer.data
    }

    /// The plan in `data`, if it is this version's encoding under `key`. Blocking: pieces of
    /// nodes are read on several threads.
    static func decode(_ data: Data, key: ContentDigest) -> Decoded? {
        guard let (head, strings, pieces) = decodeHead(data, key: key) else { return nil }
        let decoded = Locked([[PlanNodeCoder.Node]?](repeating: nil, count: pieces.count))
        ParallelBands.forEach(pieces.count) { index in
            let nodes = data.withUnsafeBytes { bytes -> [PlanNodeCoder.Node]? in
                var reader = ByteReader(UnsafeRawBufferPointer(rebasing: bytes[pieces[index].bytes]))
                var settings = PlanNodeCoder.SettingsTable()
                var nodes: [PlanNodeCoder.Node] = []
                nodes.reserveCapacity(pieces[index].count)
                do {
                    for _ in 0..<pieces[index].count {
                        nodes.append(try PlanNodeCoder.read(&reader, strings: strings, settings: &settings))
                    }
                    try reader.finish()
                    return nodes
                } catch {
                    return nil
                }
            }
            decoded.withLock { $0[index] = nodes }
        }
        var plan = head
        let parts = decoded.withLock { $0 }
        guard parts.allSatisfy({ $0 != nil }) else { return nil }
        plan.nodes = parts.flatMap { $0! }
        guard (try? PlanNodeCoder.resolveDependencies(of: &plan.nodes)) != nil else { return nil }
        return plan
    }

    /// Everything before the nodes, the shared strings, and where each piece of nodes lies in
    /// `data` (byte offsets from its start) with its node count.
    private static func decodeHead(
        _ data: Data, key: ContentDigest
    ) -> (Decoded, [String], [(bytes: Range<Int>, count: Int)])? {
        data.withUnsafeBytes { bytes in
            var reader = ByteReader(bytes)
            do {
                try reader.header(magic, version: version)
                guard try reader.digest() == key else { return nil }
                var strings: [String] = []
                for _ in 0..<(try reader.count(minimumItemSize: 8)) { strings.append(try reader.string()) }
                var plan = Decoded(
                    file: try reader.string(), name: try reader.string(), outputDirectory: try reader.string(),
                    executor: try optionalString(&reader), store: try optionalString(&reader), pools: [:], nodes: [])
                for _ in 0..<(try reader.count(minimumItemSize: 16)) {
                    plan.pools[try reader.string()] = Int(truncatingIfNeeded: try reader.uint64())
                }
                let count = try reader.count(minimumItemSize: 0)
                var pieces: [(bytes: Range<Int>, count: Int)] = []
                for start in stride(from: 0, to: count, by: piece) {
                    let length = try reader.uint64()
                    guard length <= UInt64(Int.max) else { throw ByteReader.Malformed() }
                    let offset = reader.position
                    try reader.skip(Int(length))
                    pieces.append((offset..<reader.position, min(piece, count - start)))
                }
                try reader.finish()
                return (plan, strings, pieces)
            } catch {
                return nil
            }
        }
    }

    private static func optionalString(_ reader: inout ByteReader) throws(ByteReader.Malformed) -> String? {
        try reader.uint8() == 1 ? try reader.string() : nil
    }
}

extension PlanCoder.Decoded {
    /// Whether this plan says all that `pipeline` does, its actions aside: what is checked
    /// before a plan is kept, so that a plan read back is the plan the file gives.
    func matches(_ pipeline: Pipeline) -> Bool {
        let nodes = pipeline.graph.nodes
        guard file == pipeline.file, name == pipeline.name, outputDirectory == pipeline.outputDirectory,
            executor == pipeline.executor, store == pipeline.store, pools == pipeline.pools,
            pipeline.warnings.isEmpty, self.nodes.count == nodes.count
        else { return false }
        return zip(self.nodes, nodes).allSatisfy { decoded, node in
            decoded.id == node.id && decoded.type == node.type && decoded.dependencies == node.dependencies
                && decoded.settings == node.settings && decoded.setup == node.setup && decoded.location == node.location
        }
    }

    /// The pipeline, each action made by `registry` from its setup, on several threads; nil if
    /// one cannot be made. Blocking.
    func pipeline(registry: OperationRegistry) -> Pipeline? {
        let nodes = self.nodes
        let piece = 1_024
        let actions = Locked([(any TaskAction)?](repeating: nil, count: nodes.count))
        ParallelBands.forEach((nodes.count + piece - 1) / piece) { index in
            let range = index * piece..<min(nodes.count, (index + 1) * piece)
            let made = range.map { try? registry.makeAction(for: nodes[$0].setup).action }
            actions.withLock { $0.replaceSubrange(range, with: made) }
        }
        let made = actions.withLock { $0 }.compactMap { $0 }
        guard made.count == nodes.count else { return nil }
        let graph = ExecutionGraph(
            planned: zip(nodes, made).map { node, action in
                ExecutionGraph.Node(
                    id: node.id, type: node.type, action: action, dependencies: node.dependencies,
                    settings: node.settings,
                    setup: node.setup, location: node.location)
            })
        return Pipeline(
            file: file, name: name, graph: graph, outputDirectory: outputDirectory, pools: pools, warnings: [],
            executor: executor, store: store)
    }
}
