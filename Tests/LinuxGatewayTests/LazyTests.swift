import Foundation
import Synchronization
import Testing
@testable import LinuxGateway

/// A value looked up on first use is looked up once, however many threads ask at the same time,
/// and a probe's facts can be set while other threads read them.
@Suite struct LazyTests {
    @Test func manyThreadsAtOnceRunTheLookupOnceAndAllSeeItsValue() {
        let lookups = Atomic<Int>(0)
        let lazy = Lazy<String> {
            let n = lookups.add(1, ordering: .relaxed).newValue
            usleep(20_000) // keeps the lookup running while the other threads ask
            return "value \(n)"
        }
        let seen = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let value = lazy.value
            seen.withLock { $0.append(value) }
        }
        #expect(lookups.load(ordering: .relaxed) == 1)
        #expect(seen.withLock { $0 } == Array(repeating: "value 1", count: 8))
    }

    @Test func aKnownValueIsNeverLookedUp() {
        #expect(Lazy(42).value == 42)
    }

    @Test func probeFactsSetWhileOthersReadThemEndAsTheLastSet() {
        let probe = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: false, crontabProblem: "none yet")
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            for j in 0..<200 {
                if i % 2 == 0 {
                    probe.crontabProblem = "writer \(i) \(j)"
                } else {
                    #expect(probe.crontabProblem?.hasPrefix("writer") ?? false || probe.crontabProblem == "none yet")
                }
            }
        }
        #expect(probe.crontabProblem?.hasSuffix(" 199") == true)
    }
}
