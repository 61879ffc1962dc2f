import Foundation
import TaskGraphCore

extension SlurmExecutor {
    /// How job `id` ended: from its completion record, else from the scheduler's state; and its
    /// final status. Its times: from the record when it has one (the operation's start on the
    /// node and its run time), else from the queries (the first that saw it past waiting).
    func outcome(
        of id: String, job: SlurmJobTable.Waiting, entry: QueueSnapshot.Entry?, resources: RunResources
    ) async
        -> (Result<RemoteCompletion, any Error>, RemoteJobStatus)
    {
        let (completion, logTail) = await completionAndLogTail(of: job)
        // Left the queue unseen and wrote nothing: the accounting says how it ended, if kept.
        var entry = entry
        if entry == nil, completion == nil { entry = await accounting(of: id, resources: resources) }
        let now = ContinuousClock.now
        var status = RemoteJobStatus(
            job: id, state: entry?.state ?? "UNKNOWN", reason: entry?.reason,
            queueWait: (job.started ?? now) - job.submitted,
            runTime: now - (job.started ?? now))
        guard let completion else {
            guard let entry else { return (.failure(SlurmError.jobVanished(job: id, logTail: logTail)), status) }
            return (
                .failure(SlurmError.jobEnded(job: id, state: entry.state, reason: entry.reason, logTail: logTail)),
                status
            )
        }
        do {
            var completion = try completion.get()
            if let (step, message) = completion.failure, step == 0 {
                return (.failure(SlurmError.operationFailed(job: id, message: message)), status)
            }
            if case .fused(var steps) = completion, case .failed(let message)? = steps.last {
                steps[steps.count - 1] = .failed(
                    String(describing: SlurmError.operationFailed(job: id, message: message)))
                completion = .fused(steps)
            }
            let records = completion.records
            do {
                try await configuration.exchange?.receive(records)
            } catch {
                return (.failure(SlurmError.outputsUnavailable(job: id, reason: String(describing: error))), status)
            }
            if entry == nil { status.state = completion.failure == nil ? "COMPLETED" : "FAILED" }
            if let first = records.first {
                let seconds = records.reduce(0) { $0 + $1.seconds }
                status.runTime = .seconds(seconds)
                status.queueWait = .seconds(max(0, first.recordedAt - first.seconds - job.submittedAt))
            }
            return (.success(completion), status)
        } catch {
            return (.failure(SlurmError.unreadableCompletion(job: id, reason: String(describing: error))), status)
        }
    }

    /// The completion record of `job` (nil when it wrote none; a failure when it cannot be
    /// read), from the job directory or the run's exchange, and the last lines of its log.
    private func completionAndLogTail(of job: SlurmJobTable.Waiting) async -> (
        Result<RemoteCompletion, any Error>?, String
    ) {
        let (done, log) = ("\(configuration.jobDirectory)/\(job.name).done", job.log)
        let shared = configuration.exchange == nil
        let read = try? await BlockingIO.run { () -> (Data?, String) in
            let completion = shared && FileManager.default.fileExists(atPath: done) ? try FileIO.read(done) : nil
            return (completion, Self.tail(ofLog: log))
        }
        let (data, logTail) = read ?? (nil, "")
        if let exchange = configuration.exchange {
            do {
                return (try await exchange.completion(of: job.reference).map { .success($0) }, logTail)
            } catch {
                return (.failure(error), logTail)
            }
        }
        return (data.map { data in Result { try RemoteCompletion(encoded: data) } }, logTail)
    }

    /// What `sacct` says of job `id`; nil where the cluster keeps no accounting.
    private func accounting(of id: String, resources: RunResources) async -> QueueSnapshot.Entry? {
        guard
            let result = try? await resources.childProcesses.run(
                arguments: QueueSnapshot.accountingArguments(job: id), environment: configuration.environment,
                workingDirectory: nil),
            result.status == .exited(0)
        else { return nil }
        return QueueSnapshot(parsingAccounting: String(decoding: result.standardOutput, as: UTF8.self)).entries[id]
    }

    /// The last lines of a job's log, joined with ` | ` (blocking).
    static func tail(ofLog path: String, lines: Int = 4) -> String {
        guard let data = try? FileIO.read(path) else { return "" }
        let text = String(decoding: data.suffix(4096), as: UTF8.self)
        return text.split(separator: "\n").suffix(lines).joined(separator: " | ")
    }
}
