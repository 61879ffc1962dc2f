import Foundation
import TaskGraphCore

extension SlurmExecutor {
    /// Submits queued attempts until cancelled: takes every attempt queued, and submits those
    /// with the same resource options with one `sbatch`, as a job array when there are several
    /// (one scheduler record while they wait, so one `scancel` request cancels them all), at
    /// most one `sbatch` per submission interval. Cancelled, fails what is left.
    func submitJobs(resources: RunResources) async {
        defer { submissions.close() }
        while !Task.isCancelled {
            let requests = await submissions.take()
            var batches: [[String]: [SubmissionQueue.Request]] = [:]
            var order: [[String]] = []
            for request in requests {
                if batches[request.options] == nil { order.append(request.options) }
                batches[request.options, default: []].append(request)
            }
            for options in order {
                let batch = batches[options] ?? []
                do {
                    try await waitForSubmissionSlot()
                    try await submit(batch, resources: resources)
                } catch {
                    let failure = Task.isCancelled ? CancellationError() : error
                    for request in batch { request.continuation.resume(throwing: failure) }
                }
            }
        }
    }

    /// One `sbatch` for `batch` (all with the same options); resumes each request with its job
    /// id (`65`, or `65_3` for task 3 of array 65) and its log's path.
    /// - Throws: `SlurmError` when `sbatch` fails or answers something else than a job id.
    private func submit(_ batch: [SubmissionQueue.Request], resources: RunResources) async throws {
        guard let first = batch.first else { return }
        let arguments: [String]
        let logs: [String]
        if batch.count == 1 {
            arguments = SbatchCommand.arguments(
                name: first.name, reference: first.reference, options: first.options, configuration: configuration)
            logs = [configuration.log(of: first.name)]
        } else {
            let name = jobs.nextArrayName()
            if configuration.exchange == nil {
                let list = "\(configuration.jobDirectory)/\(name).list"
                let lines = Data(batch.map { $0.reference + "\n" }.joined().utf8)
                try await resources.blockingIO.run { try FileIO.writeAtomically(lines, to: list) }
                arguments = SbatchCommand.arguments(
                    list: list, count: batch.count, options: first.options, configuration: configuration)
            } else {
                arguments = SbatchCommand.arguments(
                    array: name, references: batch.map(\.reference), options: first.options,
                    configuration: configuration)
            }
            logs = batch.indices.map { configuration.log(of: "\(name)_\($0)") }
        }
        let result = try await resources.childProcesses.run(
            arguments: arguments, environment: configuration.submissionEnvironment, workingDirectory: nil)
        let output = String(decoding: result.standardOutput, as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        guard result.status == .exited(0) else {
            let message = String(decoding: result.standardErrorTail, as: UTF8.self)
            throw SlurmError.submissionFailed(message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        // `--parsable` prints `id` or `id;cluster`.
        let id = String(output.prefix { $0 != ";" })
        guard !id.isEmpty, id.allSatisfy(\.isNumber) else { throw SlurmError.unexpectedSubmission(output) }
        jobs.submitted(batch.count)
        for (index, request) in batch.enumerated() {
            request.continuation.resume(returning: (batch.count == 1 ? id : "\(id)_\(index)", logs[index]))
        }
    }
}
