import Foundation
import TaskGraphCore

/// One node of a plan as bytes (`PlanCoder`), *ref* naming a shared string by its `u32` index:
/// its id (string), its type (ref), a `u32` count of dependencies (`u32` node indices), its
/// settings (ref: the JSON of `NodeSettings`, keys sorted), its location (`u8` 0, or 1, the
/// file (ref), line and column (`u32`)), then its setup: a `u32` count of parameters, each a
/// name (ref) and a value, the preferred input (`u8` 0, or 1 and a string), a `u32` count of
/// environment variables, each a name (ref) and a value (string), sorted by name, and the
/// pipeline and output directories (refs). The setup's type, id and dependencies are the
/// node's. A value is a `u8` tag and its payload: 0 a string, 1 an integer (`u64`, two's
/// complement), 2 a number (`u64`, IEEE 754 bits), 3 a boolean (`u8`), 4 a duration (seconds and
/// attoseconds, `u64` two's complement each), 5 a list (`u32` count, strings), 6 a map (`u32`
/// count, key and value strings, sorted by key).
enum PlanNodeCoder {
    /// A node read back, without its action.
    struct Node: Equatable {
        var id: String
        var type: String
        var dependencies: [Int]
        var settings: NodeSettings
        var setup: OperationSetup
        var location: SourceLocation?
    }

    /// The settings already decoded, by shared string index: most nodes share a few.
    struct SettingsTable {
        fileprivate var decoded: [UInt32: NodeSettings] = [:]
    }

    /// Appends `node` (one of `nodes`), or returns false when its setup is missing or does not
    /// say what the node does.
    static func append(
        _ node: ExecutionGraph.Node, of nodes: [ExecutionGraph.Node], to writer: inout ResultWriter,
        strings: inout SharedStrings
    ) -> Bool {
        guard let setup = node.setup, setup.type == node.type, setup.id == node.id,
            setup.dependencies == node.dependencies.map({ nodes[$0].id }),
            let settings = strings.index(of: node.settings)
        else { return false }
        writer.append(string: node.id)
        writer.append(strings.index(of: node.type))
        writer.append(count: node.dependencies.count)
        for dependency in node.dependencies { writer.append(UInt32(dependency)) }
        writer.append(settings)
        writer.append(UInt8(node.location == nil ? 0 : 1))
        if let location = node.location {
            writer.append(strings.index(of: location.file))
            writer.append(UInt32(truncatingIfNeeded: location.line))
            writer.append(UInt32(truncatingIfNeeded: location.column))
        }
        writer.append(count: setup.parameters.values.count)
        for (name, value) in setup.parameters.values.sorted(by: { $0.key < $1.key }) {
            writer.append(strings.index(of: name))
            append(value, to: &writer)
        }
        writer.append(UInt8(setup.preferredInput == nil ? 0 : 1))
        if let input = setup.preferredInput { writer.append(string: input) }
        writer.append(count: setup.environment.count)
        for (name, value) in setup.environment.sorted(by: { $0.key < $1.key }) {
            writer.append(strings.index(of: name))
            writer.append(string: value)
        }
        writer.append(strings.index(of: setup.pipelineDirectory))
        writer.append(strings.index(of: setup.outputDirectory))
        return true
    }

    /// Reads a node; its setup's dependencies are filled in by `resolveDependencies(of:)`.
    static func read(
        _ reader: inout ByteReader, strings: [String], settings table: inout SettingsTable
    ) throws(ByteReader.Malformed) -> Node {
        func shared() throws(ByteReader.Malformed) -> String {
            let index = Int(try reader.uint32())
            guard index < strings.count else { throw ByteReader.Malformed() }
            return strings[index]
        }
        let id = try reader.string()
        let type = try shared()
        var dependencies: [Int] = []
        for _ in 0..<(try reader.count(minimumItemSize: 4)) { dependencies.append(Int(try reader.uint32())) }
        let settingsIndex = try reader.uint32()
        let settings: NodeSettings
        if let decoded = table.decoded[settingsIndex] {
            settings = decoded
        } else {
            settings = try decodeSettings(settingsIndex, strings)
            table.decoded[settingsIndex] = settings
        }
        let location =
            try reader.uint8() == 1
            ? SourceLocation(file: try shared(), line: Int(try reader.uint32()), column: Int(try reader.uint32())) : nil
        let parameterCount = try reader.count(minimumItemSize: 5)
        var parameters = [String: ParameterValue](minimumCapacity: parameterCount)
        for _ in 0..<parameterCount { parameters[try shared()] = try value(&reader) }
        let preferredInput = try reader.uint8() == 1 ? try reader.string() : nil
        var environment: [String: String] = [:]
        for _ in 0..<(try reader.count(minimumItemSize: 12)) { environment[try shared()] = try reader.string() }
        let setup = OperationSetup(
            type: type, id: id, parameters: Parameters(parameters), preferredInput: preferredInput,
            environment: environment, pipelineDirectory: try shared(), outputDirectory: try shared())
        return Node(
            id: id, type: type, dependencies: dependencies, settings: settings, setup: setup, location: location)
    }

    /// Fills in each setup's dependencies (the ids of the node's), checking every index.
    static func resolveDependencies(of nodes: inout [Node]) throws(ByteReader.Malformed) {
        for index in nodes.indices {
            guard nodes[index].dependencies.allSatisfy({ $0 < nodes.count }) else { throw ByteReader.Malformed() }
            nodes[index].setup.dependencies = nodes[index].dependencies.map { nodes[$0].id }
        }
    }

    private static func decodeSettings(_ index: UInt32, _ strings: [String]) throws(ByteReader.Malformed)
        -> NodeSettings
    {
        guard Int(index) < strings.count,
            let settings = try? JSONDecoder().decode(NodeSettings.self, from: Data(strings[Int(index)].utf8))
        else { throw ByteReader.Malformed() }
        return settings
    }

    private static func append(_ value: ParameterValue, to writer: inout ResultWriter) {
        switch value {
        case .string(let text):
            writer.append(UInt8(0))
            writer.append(string: text)
        case .integer(let number):
            writer.append(UInt8(1))
            writer.append(UInt64(bitPattern: Int64(number)))
        case .number(let number):
            writer.append(UInt8(2))
            writer.append(number.bitPattern)
        case .boolean(let flag):
            writer.append(UInt8(3))
            writer.append(UInt8(flag ? 1 : 0))
        case .duration(let duration):
            writer.append(UInt8(4))
            writer.append(UInt64(bitPattern: duration.components.seconds))
            writer.append(UInt64(bitPattern: duration.components.attoseconds))
        case .list(let items):
            writer.append(UInt8(5))
            writer.append(count: items.count)
            for item in items { writer.append(string: item) }
        case .map(let pairs):
            writer.append(UInt8(6))
            writer.append(count: pairs.count)
            for (key, value) in pairs.sorted(by: { $0.key < $1.key }) {
                writer.append(string: key)
                writer.append(string: value)
            }
        }
    }

    private static func value(_ reader: inout ByteReader) throws(ByteReader.Malformed) -> ParameterValue {
        switch try reader.uint8() {
        case 0: return .string(try reader.string())
        case 1: return .integer(Int(try reader.int64()))
        case 2: return .number(try reader.double())
        case 3: return .boolean(try reader.uint8() == 1)
        case 4:
            return .duration(Duration(secondsComponent: try reader.int64(), attosecondsComponent: try reader.int64()))
        case 5:
            return .list(
                try (0..<reader.count(minimumItemSize: 8)).map { _ throws(ByteReader.Malformed) in try reader.string() }
            )
        case 6:
            var pairs: [String: String] = [:]
            for _ in 0..<(try reader.count(minimumItemSize: 16)) { pairs[try reader.string()] = try reader.string() }
            return .map(pairs)
        default: throw ByteReader.Malformed()
        }
    }
}
