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

    @Test func timePausedDoesNotCountAgainstADeadline() async throws {
        let watchdog = TimeoutWatchdog(tick: .milliseconds(1))
        let fired = Counter()
        let expired = Latch()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await watchdog.run() }
            watchdog.pause()
            _ = watchdog.arm(after: .milliseconds(20)) {
                fired.increment()
                expired.signal()
            }
            try? await Task.sleep(for: .milliseconds(300))
            #expect(fired.value == 0, "a paused deadline never fires")
            watchdog.resume()
            await expired.wait()
            group.cancelAll()
        }
        #expect(fired.value == 1)
    }
}
