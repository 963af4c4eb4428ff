import Testing
@testable import SharedLogic
import TestSupport

/// A catch-up shows today's reminder only when the entry that asks existed at today's time: a
/// reminder turned on at 14:00 has missed nothing today, and its first showing is tomorrow's 09:00.
@Suite struct CatchUpSinceTests {
    let tips = LocalReminders.tipsAndUpdates
    var on: NotificationPreferences { .tipsOnAndAllowed }

    func decide(_ kind: DeliveryKind = .catchUp, at now: String, since: String?, last: CivilDate? = nil) throws -> DeliveryDecision {
        DeliveryDecision.decide(tips, kind: kind, preferences: on, lastDelivered: last, now: TestSupport.utc(now),
                                zone: try TestSupport.zone("Europe/Berlin"), entrySince: since.map(TestSupport.utc))
    }

    @Test(arguments: [
        // now (Berlin is +01:00 in December), since, shown?
        ("2026-12-01T13:00:00Z", "2026-12-01T13:00:00Z", false),  // turned on at 14:00, caught up at once
        ("2026-12-01T22:00:00Z", "2026-12-01T13:00:00Z", false),  // a clock jump or zone change later that day
        ("2026-12-01T13:00:00Z", "2026-12-01T08:00:01Z", false),  // one second after 09:00
        ("2026-12-01T13:00:00Z", "2026-12-01T08:00:00Z", true),   // there at 09:00 exactly: that run was missed
        ("2026-12-01T13:00:00Z", "2026-12-01T07:30:00Z", true),   // turned on at 08:30, machine off at 09:00
        ("2026-12-01T13:00:00Z", "2026-11-20T12:00:00Z", true),   // an entry of long ago
        ("2026-12-02T13:00:00Z", "2026-12-01T13:00:00Z", true),   // the next day, 09:00 missed: shown
        ("2026-12-01T13:00:00Z", "2026-12-05T13:00:00Z", true),   // written while the clock was days ahead: not believed
    ])
    func aCatchUpShowsOnlyARunMissedWhileTheEntryExisted(now: String, since: String, shown: Bool) throws {
        let decision = try decide(at: now, since: since)
        #expect((decision == .deliver) == shown, "\(decision)")
        if !shown, case .skip(let why) = decision {
            #expect(why.hasPrefix("turned on at ") && why.contains("after today's 09:00: nothing was missed"), "\(why)")
        }
    }

    @Test func theWordsNameTheLocalTimeItWasTurnedOn() throws {
        #expect(try decide(at: "2026-12-01T15:00:00Z", since: "2026-12-01T13:05:00Z")
            == .skip("turned on at 14:05 in Europe/Berlin, after today's 09:00: nothing was missed; the first reminder is the next 09:00"))
    }

    @Test func anEntryThatDoesNotSayWhenItBeganCatchesUpAsBefore() throws {
        #expect(try decide(at: "2026-12-01T13:00:00Z", since: nil) == .deliver)
    }

    @Test func theOtherRulesComeFirstAndAScheduledRunIsNotAsked() throws {
        // Before today's time, the catch-up is not due yet, whenever the entry began.
        #expect(try decide(at: "2026-12-01T07:00:00Z", since: "2026-12-01T06:00:00Z") == .skip("not due yet today (due 09:00)"))
        // Already shown today: that is the reason given.
        let today = CivilDate(year: 2026, month: 12, day: 1)
        #expect(try decide(at: "2026-12-01T13:00:00Z", since: "2026-12-01T12:00:00Z", last: today) == .skip("already delivered today (2026-12-01)"))
        // A scheduled run at 09:00 is the entry's own run, and `since` does not enter into it.
        #expect(try decide(.scheduled, at: "2026-12-01T08:00:05Z", since: "2026-12-01T08:00:03Z") == .deliver)
    }

    @Test func existedIsSinceAtOrBeforeTheRun() {
        let due = Instant(seconds: 1_000)
        #expect(DeliveryDecision.existed(since: Instant(seconds: 999), at: due))
        #expect(DeliveryDecision.existed(since: due, at: due))
        #expect(!DeliveryDecision.existed(since: Instant(seconds: 1_001), at: due))
    }
}
