import Foundation
import TaskGraphCore

/// Engine benchmark: runs one DAG shape with taskgraph's engine or Foundation's OperationQueue,
/// or times cycle detection, or writes a large pipeline file for `taskgraph validate`.
///
///     engine-bench run chain|fan|random taskgraph|operationqueue [nodes] [jobs]
///     engine-bench cycles [edges]
///     engine-bench yaml PATH [operations] [mixed|groups]
///
/// Each run prints one line: `<what> <seconds>`; the script around it measures peak memory.
@main
enum EngineBenchmark {
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "run":
            guard arguments.count >= 3, let shape = BenchmarkShape(rawValue: arguments[1]) else { usage() }
            let count = arguments.count > 3 ? Int(arguments[3]) ?? 100_000 : 100_000
            let jobs = arguments.count > 4 ? Int(arguments[4]) ?? 2 : ProcessInfo.processInfo.activeProcessorCount
            let dependencies = shape.dependencies(count: count)
            let timing: Timing
            switch arguments[2] {
            case "taskgraph": timing = try await runTaskGraph(dependencies, jobs: jobs)
            case "operationqueue": timing = runOperationQueue(dependencies, jobs: jobs)
            default: usage()
            }
            // The wall seconds stay the last field: the script reads that one.
            print(
                "\(shape.rawValue) \(arguments[2]) cpu=\(String(format: "%.3f", timing.cpu)) "
                    + "\(String(format: "%.4f", timing.wall))"
            )
        case "cycles":
            let edges = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
            print("cycles \(String(format: "%.4f", CycleBenchmark.run(edges: edges)))")
        case "yaml":
            guard arguments.count >= 2 else { usage() }
            let operations = arguments.count > 2 ? Int(arguments[2]) ?? 100_000 : 100_000
            try PipelineFileGenerator.write(
                operations: operations, to: arguments[1], groupsOnly: arguments.count > 3 && arguments[3] == "groups")
        default:
            usage()
        }
    }

    /// Wall time and the process's CPU time (all threads) of the timed part, in seconds. CPU
    /// time moves less than wall time when other work shares the machine.
    struct Timing {
        var wall: Double
        var cpu: Double

        static func measure(_ body: () async throws -> Void) async rethrows -> Timing {
            let cpuStart = processCPUSeconds()
            let start = ContinuousClock.now
            try await body()
            let wall = seconds(ContinuousClock.now - start)
            return Timing(wall: wall, cpu: processCPUSeconds() - cpuStart)
        }
    }

    /// Runs no-op actions on taskgraph's engine, timing `Engine.run`.
    static func runTaskGraph(_ dependencies: [[Int]], jobs: Int) async throws -> Timing {
        var graph = ExecutionGraph()
        let action = ClosureAction { _ in EmptyResult() }
        var handles: [ExecutionGraph.NodeHandle] = []
        handles.reserveCapacity(dependencies.count)
        for (index, needs) in dependencies.enumerated() {
            handles.append(try graph.add("n\(index)", action: action, needs: needs.map { handles[$0] }))
        }
        var succeeded = false
        let timing = await Timing.measure {
            succeeded = await Engine(options: EngineOptions(jobs: jobs)).run(graph).succeeded
        }
        precondition(succeeded)
        return timing
    }

    /// Runs no-op BlockOperations with the same dependencies, timing from adding them to the
    /// queue until all finished.
    static func runOperationQueue(_ dependencies: [[Int]], jobs: Int) -> Timing {
        let operations = dependencies.map { _ in BlockOperation {} }
        for (index, needs) in dependencies.enumerated() {
            for need in needs { operations[index].addDependency(operations[need]) }
        }
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = jobs
        let cpuStart = processCPUSeconds()
        let start = ContinuousClock.now
        queue.addOperations(operations, waitUntilFinished: true)
        let elapsed = Timing(wall: seconds(ContinuousClock.now - start), cpu: processCPUSeconds() - cpuStart)
        // Untimed: break the dependency chains so releasing 100,000 operations does not recurse
        // through every dependency at once and overflow the stack.
        for (index, needs) in dependencies.enumerated() {
            for need in needs { operations[index].removeDependency(operations[need]) }
        }
        return elapsed
    }

    /// CPU time the whole process has used so far, in seconds.
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    static func usage() -> Never {
        FileHandle.standardError.write(
            Data(
                ("usage: engine-bench run SHAPE taskgraph|operationqueue [nodes] [jobs] | cycles [edges] "
                    + "| yaml PATH [operations]\n").utf8))
        exit(64)
    }
}
