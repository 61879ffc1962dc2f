import Testing

@testable import TaskGraphSlurm

@Suite struct QueueSnapshotTests {
    @Test func readsEveryJobsStateAndReason() {
        let snapshot = QueueSnapshot(parsing: "12|PENDING|Resources\n13|RUNNING|None\n14|TIMEOUT|TimeLimit\ngarbage\n")
        #expect(
            snapshot.entries == [
                "12": .init(state: "PENDING", reason: "Resources"), "13": .init(state: "RUNNING", reason: "None"),
                "14": .init(state: "TIMEOUT", reason: "TimeLimit"),
            ])
    }

    @Test func oneQuerySelectsTheRunsJobsByName() {
        #expect(
            QueueSnapshot.arguments(runName: "taskgraph-1") == [
                "squeue", "--noheader", "--array", "--states=all", "--name=taskgraph-1", "--format=%i|%T|%r",
            ])
    }

    @Test func theIntervalBacksOffWhileNothingChangesAndResetsOnAChange() {
        var interval = PollInterval(minimum: .milliseconds(200), maximum: .seconds(1))
        interval.backOff()
        #expect(interval.current == .milliseconds(300))
        for _ in 0..<10 { interval.backOff() }
        #expect(interval.current == .seconds(1))
        interval.reset()
        #expect(interval.current == .milliseconds(200))
    }

    @Test func accountingGivesTheStatesFirstWordAndTheExitCodeAsReason() {
        let snapshot = QueueSnapshot(parsingAccounting: "65|CANCELLED by 1000|0:15\n66_2|OUT_OF_MEMORY|0:125\n")
        #expect(
            snapshot.entries == [
                "65": QueueSnapshot.Entry(state: "CANCELLED", reason: "exit code 0:15"),
                "66_2": QueueSnapshot.Entry(state: "OUT_OF_MEMORY", reason: "exit code 0:125"),
            ])
    }
}
