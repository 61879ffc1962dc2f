import Testing
@testable import TaskGraphCore

/// The watchdog fires deadlines only while its `run()` runs in the caller's task group, and
/// `run()` returns once cancelled.
@Suite struct TimeoutWatchdogTests {
    @Test func firesAnArmedDeadlineAndKeepsADisarmedOneQuiet() async {
        let watchdog = TimeoutWatchdog(tick: .milliseconds(1))
        let expired = Latch()
        let disarmedFired = Counter()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await watchdog.run() }
            let quiet = watchdog.arm(after: .milliseconds(50)) { disarmedFired.increment() }
            watchdog.disarm(quiet)
            _ = watchdog.arm(after: .milliseconds(100)) { expired.signal() }
            await expired.wait()
            group.cancelAll()
        }
        #expect(disarmedFired.value == 0)
    }

    @Test func runReturnsWhenCancelledWhileIdle() async {
        let watchdog = TimeoutWatchdog()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await watchdog.run() }
            group.cancelAll()
        }
    }

    @Test func runReturnsWhenCancelledWhileTicking() async {
        let watchdog = TimeoutWatchdog()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await watchdog.run() }
            _ = watchdog.arm(after: .seconds(3600)) {}
            group.cancelAll()
        }
    }
}
