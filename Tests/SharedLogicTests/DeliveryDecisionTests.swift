import Testing
@testable import SharedLogic
import TestSupport

/// The one rule of `notif deliver`, whichever scheduler or run wakes it: the reminder of local
/// day D is due from the first moment the clock reads 09:00 or later on D until D ends, shown
/// once, and only when its entry was there before D's 09:00 came.
@Suite struct DeliveryDecisionTests {
    let tips = LocalReminders.tipsAndUpdates
    var on: NotificationPreferences { .tipsOnAndAllowed }

    func decide(_ now: String, in zone: ZoneRules, shown: ShownDay? = nil, since: EntrySince? = nil,
                waiting: Bool = false, preferences: NotificationPreferences? = nil) -> DeliveryDecision {
        DeliveryDecision.decide(tips, preferences: preferences ?? on, now: ISO8601.parse(now)!, zone: zone,
                                shown: shown, entrySince: since, waiting: waiting)
    }

    /// A zone at a fixed offset (`AAA-1` is UTC+01:00; the sign is POSIX's).
    func fixed(_ posix: String) -> ZoneRules { ZoneRules(posix: posix)! }

    func since(_ text: String) -> EntrySince { EntrySince(text: text)! }

    func day(_ text: String) -> CivilDate { CivilDate(text)! }

    // MARK: The window

    /// cron's lines for a Berlin user on a UTC machine run at 07:00 and 08:00 UTC: the one
    /// before 09:00 Berlin does nothing, the first at or after it shows the reminder, and the
    /// other that day does nothing once it was shown (issue 23: the other half of the year).
    @Test(arguments: [
        ("2026-12-01T07:00:00Z", false),   // winter: 08:00 CET, before the time
        ("2026-12-01T08:00:01Z", true),    // winter: 09:00 CET
        ("2026-07-01T07:00:00Z", true),    // summer: 09:00 CEST
        ("2026-07-01T08:00:00Z", true),    // summer: 10:00 CEST, not shown yet (09:00's run did not come)
        ("2026-03-29T07:00:00Z", true),    // the first CEST day
        ("2026-03-28T07:00:00Z", false),   // the last CET day: 08:00
        ("2026-10-25T08:00:00Z", true),    // the first CET day
        ("2026-12-01T07:59:59Z", false),   // a second early
        ("2026-12-01T22:59:59Z", true),    // 23:59:59: the last second of the day
        ("2026-12-01T23:00:00Z", false),   // midnight: the next day, before its time
    ])
    func dueFromNineUntilTheDayEnds(now: String, due: Bool) throws {
        let berlin = try TestSupport.zone("Europe/Berlin")
        let decision = decide(now, in: berlin)
        if due {
            #expect(decision == .deliver, "\(now)")
        } else {
            guard case .notDue(.beforeTime(_, _, "Europe/Berlin")) = decision else {
                Issue.record("\(now): \(decision)")
                return
            }
        }
    }

    @Test func theOtherLineOfTheDayDoesNothingOnceShown() throws {
        let berlin = try TestSupport.zone("Europe/Berlin")
        let shown = ShownDay(day: day("2026-07-01"), at: ISO8601.parse("2026-07-01T07:00:01Z"))
        #expect(decide("2026-07-01T08:00:00Z", in: berlin, shown: shown) == .notDue(.shownToday(day("2026-07-01"))))
        #expect(DeliveryDecision.NotDue.shownToday(day("2026-07-01")).message == "already sent today (2026-07-01)")
        // Winter: the 07:00 UTC line (08:00 CET) comes first and does nothing.
        #expect(decide("2026-12-01T07:00:00Z", in: berlin).notDueMessage == "not due yet: 08:00 in Europe/Berlin, before 09:00")
        // The next day it is due again.
        #expect(decide("2026-07-02T07:00:00Z", in: berlin, shown: shown) == .deliver)
    }

    /// A DST gap over 09:00 (the clock goes from 08:30 to 09:30): the reminder is due from the
    /// first moment after the jump, and that is on time.
    @Test func aGapOverTheTimeIsDueAtItsEnd() {
        // Standard +01:00; daylight +02:00 from 08:30 local on the last Sunday of March.
        let gap = fixed("AAA-1BBB-2,M3.5.0/8:30,M10.5.0/3")
        #expect(decide("2026-03-29T07:29:59Z", in: gap).notDueMessage == "not due yet: 08:29 in AAA-1BBB-2,M3.5.0/8:30,M10.5.0/3, before 09:00")
        #expect(decide("2026-03-29T07:30:00Z", in: gap) == .deliver, "09:30, the first moment after the jump")
        #expect(DeliveryLateness.late(tips, day: day("2026-03-29"), shownAt: ISO8601.parse("2026-03-29T07:30:00Z")!, waitingSince: nil, zone: gap) == nil)
    }

    /// The fall-back day of a zone whose clock repeats 09:00: shown at the first pass, the
    /// second pass is no attempt.
    @Test func theFallBackDayShowsItOnce() {
        // Daylight +02:00 until 09:30 local on the last Sunday of October, then +01:00: 09:00 to 09:30 twice.
        let twice = fixed("AAA-1BBB-2,M3.5.0/2,M10.5.0/9:30")
        #expect(decide("2026-10-25T07:00:00Z", in: twice) == .deliver, "09:00, the first pass")
        let shown = ShownDay(day: day("2026-10-25"), at: ISO8601.parse("2026-10-25T07:00:00Z"))
        #expect(decide("2026-10-25T08:00:00Z", in: twice, shown: shown) == .notDue(.shownToday(day("2026-10-25"))), "09:00, the second pass")
    }

    @Test func aWeeklyReminderIsDueOnItsDayOnly() throws {
        let weekly = LongerTable.reminder
        var preferences = NotificationPreferences()
        preferences[LongerTable.toggle] = true
        preferences.permission = .granted
        let berlin = try TestSupport.zone("Europe/Berlin")
        func decide(_ iso: String) -> DeliveryDecision {
            DeliveryDecision.decide(weekly, preferences: preferences, now: ISO8601.parse(iso)!, zone: berlin)
        }
        #expect(decide("2026-12-07T10:00:30+01:00") == .deliver)
        #expect(decide("2026-12-07T18:00:00+01:00") == .deliver)
        #expect(decide("2026-12-08T10:00:30+01:00") == .notDue(.notTheDay(.tuesday, zone: "Europe/Berlin", recurrence: "every Monday")))
        #expect(decide("2026-12-07T09:59:30+01:00") != .deliver)
    }

    // MARK: Once, waiting, the settings

    @Test func aWaiterWaitingOrTheSettingsDecideTheRest() throws {
        let berlin = try TestSupport.zone("Europe/Berlin")
        #expect(decide("2026-12-01T08:30:00Z", in: berlin, waiting: true) == .notDue(.waiting))
        var off = on
        off[.tipsAndUpdates] = false
        #expect(decide("2026-12-01T08:30:00Z", in: berlin, preferences: off) == .skip("Tips & Updates is off"))
        // Before the time even a blocked reminder is no attempt.
        #expect(decide("2026-12-01T07:30:00Z", in: berlin, preferences: off) != .skip("Tips & Updates is off"))
    }

    /// Shown at 09:10 in Asia/Tokyo, then the zone becomes America/Los_Angeles, where it is the
    /// evening before: that earlier day has had its reminder. A showing recorded in the future
    /// (the clock was ahead) counts for its own day only.
    @Test func aShowingCoversEarlierDaysOnceItHasPassed() throws {
        let angeles = try TestSupport.zone("America/Los_Angeles")
        let shown = ShownDay(day: day("2026-12-02"), at: ISO8601.parse("2026-12-02T09:10:00+09:00"))
        #expect(decide("2026-12-02T09:15:00+09:00", in: angeles, shown: shown) == .notDue(.shownToday(day("2026-12-01"))))
        let ahead = ShownDay(day: day("2027-01-05"), at: ISO8601.parse("2027-01-05T09:00:00+01:00"))
        #expect(decide("2026-12-01T12:00:00-08:00", in: angeles, shown: ahead) == .deliver)
        // A day alone (an earlier notif's record) covers that day only.
        #expect(decide("2026-12-01T12:00:00-08:00", in: angeles, shown: ShownDay(day: day("2026-12-02"))) == .deliver)
    }

    // MARK: The entry was there before the day's time

    @Test(arguments: [
        // now, entry since, zone now, shown?
        ("2026-12-01T16:00:00+01:00", "2026-12-01T14:05:00+01:00", "AAA-1", false),   // turned on at 14:05: a boot at 16:00 shows nothing
        ("2026-12-02T09:00:01+01:00", "2026-12-01T14:05:00+01:00", "AAA-1", true),    // the next day's 09:00
        ("2026-12-01T13:00:00+01:00", "2026-12-01T09:00:01+01:00", "AAA-1", false),   // a second after 09:00
        ("2026-12-01T13:00:00+01:00", "2026-12-01T09:00:00+01:00", "AAA-1", true),    // there at 09:00 exactly
        ("2026-12-01T13:00:00+01:00", "2026-12-01T08:30:00+01:00", "AAA-1", true),    // turned on at 08:30, machine off at 09:00
        ("2026-12-01T13:00:00+01:00", "2026-11-20T12:00:00+01:00", "AAA-1", true),    // an entry of long ago
        ("2026-12-01T13:00:00+01:00", "2026-12-05T13:00:00+01:00", "AAA-1", true),    // written while the clock was days ahead: not believed
        ("2026-12-01T13:00:00+01:00", "2026-12-01T14:05:00+01:00", "AAA-1", false),   // the clock set back two hours that day: still after 09:00
        // A zone swap (the daemon's bug in issue 23): written at 08:45 at +01:00, the zone becomes
        // +01:30 at 08:50 (09:20 there). 08:45 then reads 09:15, but 09:00 came after the entry.
        ("2026-12-01T09:20:00+01:30", "2026-12-01T08:45:00+01:00", "BBB-1:30", true),
        // The other way: written at 09:15 at +01:00, the zone becomes +00:30 (09:20 → 08:50): the
        // 09:00 that comes then is after the entry, and is shown.
        ("2026-12-01T08:50:00+00:30", "2026-12-01T09:15:00+01:00", "CCC-0:30", false),   // before it: not due yet
        ("2026-12-01T09:00:00+00:30", "2026-12-01T09:15:00+01:00", "CCC-0:30", true),
        // Written at 09:15 at +01:00, the zone becomes +01:30 (09:45): no 09:00 came after it.
        ("2026-12-01T09:50:00+01:30", "2026-12-01T09:15:00+01:00", "BBB-1:30", false),
    ])
    func aReminderIsShownOnlyForA9000ThatCameAfterItsEntry(now: String, since text: String, zone: String, shown: Bool) {
        let decision = decide(now, in: fixed(zone), since: since(text))
        #expect((decision == .deliver) == shown, "\(now), since \(text): \(decision)")
    }

    @Test func theWordsNameTheLocalTimeItWasTurnedOn() throws {
        let berlin = try TestSupport.zone("Europe/Berlin")
        #expect(decide("2026-12-01T15:00:00Z", in: berlin, since: since("2026-12-01T14:05:00+01:00")).notDueMessage
                == "turned on at 14:05 in Europe/Berlin, after today's 09:00: nothing was missed; the first reminder is the next 09:00")
    }

    @Test func theRecordKeepsTheInstantAndTheWallClock() {
        let record = EntrySince(instant: ISO8601.parse("2026-12-01T07:45:00Z")!, zone: fixed("AAA-1"))
        #expect(record.text == "2026-12-01T08:45:00+01:00")
        #expect(EntrySince(text: record.text) == record)
        #expect(record.wall == LocalDateTime(date: day("2026-12-01"), hour: 8, minute: 45))
        #expect(EntrySince(text: "yesterday") == nil)
    }

    // MARK: Lateness

    @Test func lateWordsSayHowLateAndWhy() throws {
        let berlin = try TestSupport.zone("Europe/Berlin")
        let d = day("2026-12-01")
        func late(_ shown: String, waiting: String?) -> String? {
            DeliveryLateness.late(tips, day: d, shownAt: ISO8601.parse(shown)!, waitingSince: waiting.flatMap(ISO8601.parse), zone: berlin)
        }
        #expect(late("2026-12-01T09:00:59+01:00", waiting: nil) == nil, "the first run within a minute is on time")
        #expect(late("2026-12-01T09:00:12+01:00", waiting: "2026-12-01T09:00:00+01:00") == "sent 09:00, 12 s late: no notification service until then",
                "a waiter's seconds count")
        #expect(late("2026-12-01T09:00:00+01:00", waiting: "2026-12-01T09:00:00+01:00") == nil)
        #expect(late("2026-12-01T09:02:10+01:00", waiting: "2026-12-01T09:00:00+01:00")
                == "sent 09:02, 2 min late: no notification service until then")
        #expect(late("2026-12-01T13:05:00+01:00", waiting: "2026-12-01T13:00:00+01:00")
                == "sent 13:05, 4 h 5 min late: no run until 13:00, then no notification service until then")
        #expect(late("2026-12-01T10:00:00+01:00", waiting: nil)
                == "sent 10:00, 1 h late: the first run since 09:00 (the machine was off or asleep, its clock or zone changed, or no scheduler ran)")
        #expect(DeliveryLateness.waiting("this session: the notification service did not answer in time")
                == "not sent yet: this session: the notification service did not answer in time; it is sent as soon as a notification service takes it, until the day ends")
        // Said once: "no notification service" comes from WHY alone.
        #expect(DeliveryLateness.waiting("this session: no notification service runs")
                == "not sent yet: this session: no notification service runs; it is sent as soon as a notification service takes it, until the day ends")
        // A service that was there but did not answer is named, not called "no notification service".
        func hung(_ shown: String, waiting: String, problem: String) -> String? {
            DeliveryLateness.late(tips, day: d, shownAt: ISO8601.parse(shown)!, waitingSince: ISO8601.parse(waiting), waitingProblem: problem, zone: berlin)
        }
        #expect(hung("2026-12-01T09:06:00+01:00", waiting: "2026-12-01T09:00:00+01:00", problem: "this session: the notification service did not answer in time")
                == "sent 09:06, 6 min late: waited from 09:00: this session: the notification service did not answer in time")
        #expect(hung("2026-12-01T09:45:00+01:00", waiting: "2026-12-01T09:40:00+01:00", problem: "the notification service did not answer in time")
                == "sent 09:45, 45 min late: no run until 09:40, then the notification service did not answer in time")
        #expect(hung("2026-12-01T09:02:10+01:00", waiting: "2026-12-01T09:00:00+01:00", problem: "this session: no notification service runs, and the bus has none to start")
                == "sent 09:02, 2 min late: no notification service until then")
        let failed = (at: ISO8601.parse("2026-12-01T09:00:00+01:00")!, why: "cannot read settings: line 1, column 26")
        #expect(DeliveryLateness.late(tips, day: d, shownAt: ISO8601.parse("2026-12-01T09:10:00+01:00")!, waitingSince: nil, failedSince: failed, zone: berlin)
                == "sent 09:10, 10 min late: the run at 09:00 failed: cannot read settings: line 1, column 26")
        // The failure's advice was for then: not copied into the record of the sending (REPORT-26 B3).
        let stopped = (at: ISO8601.parse("2026-12-01T09:00:04+01:00")!, why: "stopped waiting (ended by a signal); a later run today still sends it: …")
        #expect(DeliveryLateness.late(tips, day: d, shownAt: ISO8601.parse("2026-12-01T09:10:00+01:00")!, waitingSince: nil, failedSince: stopped, zone: berlin)
                == "sent 09:10, 10 min late: the run at 09:00 failed: stopped waiting (ended by a signal)")
        let yesterday = (at: ISO8601.parse("2026-11-30T09:00:00+01:00")!, why: "older")
        #expect(DeliveryLateness.late(tips, day: d, shownAt: ISO8601.parse("2026-12-01T10:00:00+01:00")!, waitingSince: nil, failedSince: yesterday, zone: berlin)?
                    .hasSuffix("the first run since 09:00 (the machine was off or asleep, its clock or zone changed, or no scheduler ran)") == true, "a failure before 09:00 is no reason")
        #expect(DeliveryLateness.missed(waitingSince: ISO8601.parse("2026-12-01T09:00:00+01:00")!, lastProblem: "the user bus: no notification service runs", zone: berlin)
                == "no notification service from 09:00 until the day ended (the user bus: no notification service runs)")
    }
}

extension DeliveryDecision {
    /// The words of a `.notDue`, or nil.
    var notDueMessage: String? {
        if case .notDue(let why) = self { return why.message }
        return nil
    }
}
