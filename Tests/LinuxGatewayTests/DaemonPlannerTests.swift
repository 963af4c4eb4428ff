import Testing
import SharedLogic
@testable import LinuxGateway

@Suite struct DaemonPlannerTests {
    let berlin = systemZone("Europe/Berlin")
    let tips = [EmbeddedEntry(id: "tips-and-updates", time: DailyTime(hour: 9, minute: 0))]
    func at(_ iso: String) -> Instant { ISO8601.parse(iso)! }

    @Test func startCatchesUpThenSleepsStraightUntilTheTime() {
        var planner = DaemonPlanner()
        #expect(planner.wake(now: at("2026-12-01T08:58:30+01:00"), zone: berlin, entries: tips)
            == [.init(id: "tips-and-updates", kind: .catchUp, reason: .start)])
        #expect(planner.nextWake(now: at("2026-12-01T08:58:30+01:00")) == at("2026-12-01T09:00:00+01:00"))
        // Woken early (a file changed): nothing to do, the same wake time.
        #expect(planner.wake(now: at("2026-12-01T08:59:30+01:00"), zone: berlin, entries: tips).isEmpty)
        #expect(planner.nextWake(now: at("2026-12-01T08:59:30+01:00")) == at("2026-12-01T09:00:00+01:00"))
        #expect(planner.wake(now: at("2026-12-01T09:00:00+01:00"), zone: berlin, entries: tips)
            == [.init(id: "tips-and-updates", kind: .scheduled, reason: .due)])
        #expect(planner.nextDue == at("2026-12-02T09:00:00+01:00"))
        #expect(planner.nextWake(now: at("2026-12-01T09:00:01+01:00")) == at("2026-12-02T09:00:00+01:00"))
    }

    @Test func aSlightlyLateWakeIsStillTheScheduledRunAndJumpsEitherWayAreNoticed() {
        var planner = DaemonPlanner()
        _ = planner.wake(now: at("2026-12-01T08:59:00+01:00"), zone: berlin, entries: tips)
        _ = planner.nextWake(now: at("2026-12-01T08:59:00+01:00"))
        // Woken 80 s late (within the jump tolerance): still the scheduled run.
        #expect(planner.wake(now: at("2026-12-01T09:01:20+01:00"), zone: berlin, entries: tips).map(\.kind) == [.scheduled])
        _ = planner.nextWake(now: at("2026-12-01T09:01:20+01:00"))
        #expect(planner.wake(now: at("2026-12-04T07:00:00+01:00"), zone: berlin, entries: tips).map(\.reason) == [.clockJump])
        _ = planner.nextWake(now: at("2026-12-04T07:00:00+01:00"))
        #expect(planner.wake(now: at("2026-12-04T05:00:00+01:00"), zone: berlin, entries: tips).map(\.reason) == [.clockJump])
        _ = planner.nextWake(now: at("2026-12-04T05:00:00+01:00"))
        #expect(planner.wake(now: at("2026-12-04T05:01:00+01:00"), zone: berlin, entries: tips).isEmpty)
    }

    @Test func aZoneChangeCatchesUpAndRearmsAtNineInTheNewZone() {
        var planner = DaemonPlanner()
        _ = planner.wake(now: at("2026-12-01T12:00:00+01:00"), zone: berlin, entries: tips)
        _ = planner.nextWake(now: at("2026-12-01T12:00:00+01:00"))
        let newYork = systemZone("America/New_York")
        #expect(planner.wake(now: at("2026-12-01T12:01:00+01:00"), zone: newYork, entries: tips).map(\.reason) == [.zoneChange])
        #expect(planner.nextDue == at("2026-12-01T09:00:00-05:00"))
    }

    /// The trial's case: the daemon runs without TZ, and `TZ=... notif apply` writes the entry
    /// again with a zone; it was still armed at 09:00 in the daemon's zone, and 09:00 in the
    /// entry's zone came and went without a word.
    @Test func anEntryWrittenAgainInAnotherZoneIsCaughtUpAndArmedThere() {
        var planner = DaemonPlanner()
        let utc = systemZone("UTC"), kolkata = systemZone("Asia/Kolkata")
        _ = planner.wake(now: at("2026-12-01T03:00:00Z"), zone: utc, entries: tips)
        #expect(planner.nextWake(now: at("2026-12-01T03:00:00Z")) == at("2026-12-01T09:00:00Z"))
        var inKolkata = tips
        inKolkata[0].zone = "Asia/Kolkata"
        #expect(planner.wake(now: at("2026-12-01T03:01:00Z"), zone: utc, entries: inKolkata, zoneOf: { $0.zone == nil ? nil : kolkata })
            == [.init(id: "tips-and-updates", kind: .catchUp, reason: .zoneChange)])
        #expect(planner.nextWake(now: at("2026-12-01T03:01:00Z")) == at("2026-12-01T09:00:00+05:30"))
        #expect(planner.wake(now: at("2026-12-01T09:00:00+05:30"), zone: utc, entries: inKolkata, zoneOf: { $0.zone == nil ? nil : kolkata })
            == [.init(id: "tips-and-updates", kind: .scheduled, reason: .due)])
    }

    @Test func aNewEntryIsArmedWithoutACatchUpAndARemovedOneIsForgotten() {
        var planner = DaemonPlanner()
        _ = planner.wake(now: at("2026-12-01T12:00:00+01:00"), zone: berlin, entries: [])
        #expect(planner.nextWake(now: at("2026-12-01T12:00:00+01:00")) == nil)
        #expect(planner.wake(now: at("2026-12-01T12:01:00+01:00"), zone: berlin, entries: tips).isEmpty)
        #expect(planner.nextDue == at("2026-12-02T09:00:00+01:00"))
        _ = planner.nextWake(now: at("2026-12-01T12:01:00+01:00"))
        _ = planner.wake(now: at("2026-12-01T12:02:00+01:00"), zone: berlin, entries: [])
        #expect(planner.nextDue == nil)
    }
}
