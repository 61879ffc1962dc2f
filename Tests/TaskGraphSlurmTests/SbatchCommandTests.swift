import TaskGraphCore
import Testing

@testable import TaskGraphSlurm

@Suite struct SbatchCommandTests {
    private let configuration = SlurmConfiguration(
        runName: "taskgraph-run", jobDirectory: "/shared/store/jobs/taskgraph-run", storeRoot: "/shared/store",
        workerProgram: "/opt/taskgraph's/bin/taskgraph", environment: [:])

    @Test func everyResourceKeyBecomesItsSbatchOption() {
        let settings = ClusterSettings(
            cpus: 4, memory: "2G", time: .seconds(90), partition: "gpu",
            executorSettings: ["slurm_args": .list(["--qos=short"])])
        #expect(
            SbatchCommand.arguments(
                name: "job-7", reference: "/shared/store/jobs/taskgraph-run/job-7.job",
                options: SbatchCommand.options(for: settings), configuration: configuration) == [
                    "sbatch", "--parsable", "--job-name=taskgraph-run",
                    "--output=/shared/store/jobs/taskgraph-run/job-7.log",
                    "--chdir=/shared/store/jobs/taskgraph-run", "--cpus-per-task=4", "--mem=2G", "--time=2",
                    "--partition=gpu",
                    "--qos=short",
                    "--wrap=exec '/opt/taskgraph'\\''s/bin/taskgraph' 'worker' '--store' '/shared/store' "
                        + "'/shared/store/jobs/taskgraph-run/job-7.job'",
                ])
    }

    @Test func withoutResourcesOnlyTheJobItselfIsNamed() {
        #expect(
            SbatchCommand.arguments(
                name: "job-1", reference: "/shared/store/jobs/taskgraph-run/job-1.job",
                options: SbatchCommand.options(for: ClusterSettings()), configuration: configuration
            ).count == 6)
    }

    @Test func jobsWithTheSameOptionsGoAsOneArrayWhoseTasksReadTheirJobFileFromTheList() {
        let list = "/shared/store/jobs/taskgraph-run/array-2.list"
        #expect(
            SbatchCommand.arguments(list: list, count: 3, options: ["--mem=2G"], configuration: configuration) == [
                "sbatch", "--parsable", "--job-name=taskgraph-run",
                "--output=/shared/store/jobs/taskgraph-run/array-2_%a.log",
                "--chdir=/shared/store/jobs/taskgraph-run", "--array=0-2", "--mem=2G",
                "--wrap=exec '/opt/taskgraph'\\''s/bin/taskgraph' 'worker' '--store' '/shared/store' "
                    + "\"$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" '/shared/store/jobs/taskgraph-run/array-2.list')\"",
            ])
    }

    /// Jobs through a remote cache: what the workers are given, and nothing else.
    private struct CacheExchange: JobExchange {
        var workerOptions: [String] { ["--remote-cache", "http://cache", "--remote-cache-key-env", "CLUSTER_KEY"] }
        var workerEnvironment: [String: String] { ["TASKGRAPH_REMOTE_HEADERS": "Authorization: Bearer secret"] }
        func publish(_ job: RemoteJob, as name: String) async throws -> String { name }
        func completion(of reference: String) async throws -> RemoteCompletion? { nil }
        func receive(_ records: [ActionRecord]) async throws {}
    }

    @Test func aWorkerThroughAnExchangeGetsItsHeadersInItsEnvironmentNotOnItsCommandLine() {
        var configuration = configuration
        configuration.environment = ["SLURM_CONF": "/etc/slurm.conf"]
        configuration.exchange = CacheExchange()
        let arguments = SbatchCommand.arguments(
            array: "array-1", references: ["sha256:ab/taskgraph-run-job-1"], options: [], configuration: configuration)
        #expect(
            arguments.last
                == "--wrap=set -- 'sha256:ab/taskgraph-run-job-1'; shift \"$SLURM_ARRAY_TASK_ID\"; exec "
                + "'/opt/taskgraph'\\''s/bin/taskgraph' 'worker' '--remote-cache' 'http://cache' "
                + "'--remote-cache-key-env' 'CLUSTER_KEY' \"$1\"")
        #expect(!arguments.joined(separator: " ").contains("Bearer"))
        #expect(
            configuration.submissionEnvironment == [
                "SLURM_CONF": "/etc/slurm.conf", "TASKGRAPH_REMOTE_HEADERS": "Authorization: Bearer secret",
            ])
    }

    @Test func timeLimitsAreWholeMinutesRoundedUp() {
        #expect(SbatchCommand.minutes(.seconds(1)) == 1)
        #expect(SbatchCommand.minutes(.seconds(60)) == 1)
        #expect(SbatchCommand.minutes(.milliseconds(60_001)) == 2)
        #expect(SbatchCommand.minutes(.seconds(3600)) == 60)
    }
}
