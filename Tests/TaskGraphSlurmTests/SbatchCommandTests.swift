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

    @Test func timeLimitsAreWholeMinutesRoundedUp() {
        #expect(SbatchCommand.minutes(.seconds(1)) == 1)
        #expect(SbatchCommand.minutes(.seconds(60)) == 1)
        #expect(SbatchCommand.minutes(.milliseconds(60_001)) == 2)
        #expect(SbatchCommand.minutes(.seconds(3600)) == 60)
    }
}
