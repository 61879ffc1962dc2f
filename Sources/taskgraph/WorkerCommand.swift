import ArgumentParser
import Foundation
import TaskGraphCore
import TaskGraphReporting
import TaskGraphStore

/// `taskgraph worker`: runs one job of a cluster run on a node (what `--executor slurm` submits).
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run one job of a cluster run: what `run --executor slurm` submits (docs/cluster.md).",
        discussion: """
            Reads the job file, runs its operation (or a fused chain's operations, in order) with its \
            inputs from the store, writes the result (and the action record) to the store, then the \
            completion record beside the job file (NAME.done for NAME.job). Exits 0 when every \
            operation succeeded, 1 when one failed.
            """)

    @Option(help: ArgumentHelp("The store shared with the driver.", valueName: "dir"))
    var store: String

    @Argument(help: "The job file (NAME.job).")
    var jobFile: String

    func run() async throws {
        let path = jobFile
        guard path.hasSuffix(".job") else { throw ValidationError("the job file's name must end in .job") }
        let job: RemoteJob
        do {
            job = try JSONDecoder().decode(RemoteJob.self, from: try await BlockingIO.run { try FileIO.read(path) })
        } catch {
            TextOutput.standardError.write("taskgraph: error: cannot read the job file \(path): \(error)\n")
            throw ExitCode(CLIExitCode.operationFailed)
        }
        let worker = RemoteWorker(registry: .builtIn, store: ContentStore(root: store, registry: .builtIn))
        let resources = RunResources()
        let outcome = await InterruptibleRun.run(resources: resources) { await worker.run(job, resources: resources) }
        await resources.shutDown()
        if let signal = outcome.signal { InterruptibleRun.endProcess(by: signal) }
        let completion = try outcome.report.encoded()
        let done = String(path.dropLast(".job".count)) + ".done"
        try await BlockingIO.run { try FileIO.writeAtomically(completion, to: done) }
        if let (step, message) = outcome.report.failure {
            let id = ([job.setup] + (job.chain ?? []))[step].id
            TextOutput.standardError.write("taskgraph: error: \(id): \(message)\n")
            throw ExitCode(CLIExitCode.operationFailed)
        }
    }
}
