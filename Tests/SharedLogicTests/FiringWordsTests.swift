import Testing
import SharedLogic

/// The words for each kind of `EntryFiring` (`status`'s `Fires:` row), written out by hand, and
/// the typed JSON beside them.
@Suite struct FiringWordsTests {
    static let nine = DailyTime(hour: 9, minute: 0)
    static func time(_ hour: Int, _ minute: Int) -> DailyTime { DailyTime(hour: hour, minute: minute) }

    static func cron(_ times: [DailyTime], _ zone: String = "Etc/UTC", matches: Bool = true, hourly: Bool = false,
                     wanted: String? = "Asia/Kolkata", earlier: Bool = false) -> EntryFiring {
        EntryFiring(.cron(times: times, systemZone: zone, matchesWanted: matches, hourlyOnFallBack: hourly),
                    wanted: wanted.map { WantedTime(time: nine, zone: $0) }, earlierNotif: earlier)
    }

    @Test(arguments: [
        (cron([time(3, 30)]), "cron at 03:30 system time (Etc/UTC), 09:00 in Asia/Kolkata"),
        (cron([nine], wanted: "Etc/UTC"), "cron at 09:00 system time (Etc/UTC)"),
        // The same time in another zone with the same rules still names the user's zone.
        (cron([nine], wanted: "UTC"), "cron at 09:00 system time (Etc/UTC), 09:00 in UTC"),
        (cron([time(11, 30), time(12, 30)], wanted: "America/St_Johns"),
         "cron at 11:30 and 12:30 system time (Etc/UTC); the run that is 09:00 in America/St_Johns shows it"),
        (cron([time(11, 30), time(12, 30)], matches: false, wanted: "Etc/UTC"),
         "cron at 11:30 and 12:30 system time (Etc/UTC), not 09:00 in Etc/UTC; `notif apply` fixes it, or says what stops it"),
        (cron([nine], matches: false, earlier: true),
         "cron at 09:00 system time (Etc/UTC); an entry of an earlier notif, which `notif apply` replaces"),
        (cron([time(2, 0), time(3, 0)], "Europe/Berlin", hourly: true, wanted: "Asia/Shanghai"),
         "cron at 02:00 and 03:00 system time (Europe/Berlin); the run that is 09:00 in Asia/Shanghai shows it; also hourly on the days the system clock falls back through that time (cron skips fixed times in a repeated hour)"),
        // An entry for a reminder notif does not know: only its times.
        (cron([time(1, 0), time(2, 0), time(3, 0)], matches: false, hourly: true, wanted: nil),
         "cron at 01:00, 02:00 and 03:00 system time (Etc/UTC)"),
    ])
    func cronSaysTheSystemZoneTimesAndWhichOneIsTheUsers(_ firing: EntryFiring, _ words: String) {
        #expect(FiringWords.text(firing) == words)
        #expect(firing.scheduler == .cron)
    }

    static func systemd(_ calendars: [SystemdCalendar], wanted: String? = "America/St_Johns", earlier: Bool = false) -> EntryFiring {
        EntryFiring(.systemd(calendars: calendars, managerZone: "Etc/UTC"), wanted: wanted.map { WantedTime(time: nine, zone: $0) },
                    earlierNotif: earlier)
    }

    @Test(arguments: [
        (systemd([SystemdCalendar(calendar: "*-*-* 09:00:00", zone: "Asia/Kolkata")]), "systemd timer at *-*-* 09:00:00 Asia/Kolkata"),
        (systemd([SystemdCalendar(calendar: "*-*-* 09:00:00")]), "systemd timer at *-*-* 09:00:00 (the user manager's zone, Etc/UTC)"),
        (systemd([SystemdCalendar(calendar: "*-*-* 11:30:00"), SystemdCalendar(calendar: "*-*-* 12:30:00")]),
         "systemd timer at *-*-* 11:30:00 and *-*-* 12:30:00 (the user manager's zone, Etc/UTC); the first run at or after 09:00 in America/St_Johns shows it"),
        (systemd([SystemdCalendar(calendar: "Mon *-*-* 10:00:00")], earlier: true),
         "systemd timer at Mon *-*-* 10:00:00 (the user manager's zone, Etc/UTC); units of an earlier notif, which `notif apply` replaces"),
        (systemd([SystemdCalendar(calendar: "*-*-* 11:30:00"), SystemdCalendar(calendar: "*-*-* 12:30:00")], wanted: nil),
         "systemd timer at *-*-* 11:30:00 and *-*-* 12:30:00 (the user manager's zone, Etc/UTC)"),
    ])
    func systemdSaysItsCalendarsAndTheirZone(_ firing: EntryFiring, _ words: String) {
        #expect(FiringWords.text(firing) == words)
        #expect(firing.scheduler == .systemd)
    }

    @Test(arguments: [
        (EntryFiring(.embedded(time: nine, weekday: nil, zone: "Asia/Kolkata")), "notif daemon at 09:00 in Asia/Kolkata"),
        // Written with TZ empty, which is UTC (trial 40, D4).
        (EntryFiring(.embedded(time: nine, weekday: nil, zone: "")), "notif daemon at 09:00 in UTC"),
        (EntryFiring(.embedded(time: time(10, 0), weekday: .monday, zone: nil)),
         "notif daemon on Mondays at 10:00 in the daemon's zone (its TZ, else the system zone)"),
        (EntryFiring(.embedded(time: nine, weekday: nil, zone: "EST5EDT"), earlierNotif: true),
         "notif daemon at 09:00 in EST5EDT; an entry of an earlier notif, which `notif apply` replaces"),
    ])
    func theBuiltInSchedulerSaysItsTimeDayAndZone(_ firing: EntryFiring, _ words: String) {
        #expect(FiringWords.text(firing) == words)
        #expect(firing.scheduler == .embedded)
    }

    @Test(arguments: [
        ("*-*-* 09:00:00 Asia/Kolkata", SystemdCalendar(calendar: "*-*-* 09:00:00", zone: "Asia/Kolkata")),
        ("*-*-* 09:00:00", SystemdCalendar(calendar: "*-*-* 09:00:00")),
        ("Mon *-*-* 10:00:00", SystemdCalendar(calendar: "Mon *-*-* 10:00:00")),
        ("Mon *-*-* 10:00:00 Europe/Berlin", SystemdCalendar(calendar: "Mon *-*-* 10:00:00", zone: "Europe/Berlin")),
        ("daily", SystemdCalendar(calendar: "daily")),
    ])
    func aCalendarsLastWordIsItsZoneWhenItIsNotATime(_ value: String, _ calendar: SystemdCalendar) {
        #expect(SystemdCalendar(parsing: value) == calendar)
    }

    @Test func theJSONHoldsTheFactsNotTheWords() {
        let cron = Self.cron([Self.time(11, 30), Self.time(12, 30)], wanted: "America/St_Johns")
        #expect(JSONWriter.compact(cron.json) == """
            {"scheduler":"cron","times":["11:30","12:30"],"zone":"Etc/UTC","matchesWanted":true,"hourlyOnFallBack":false,\
            "wanted":{"time":"09:00","zone":"America/St_Johns"},"earlierNotif":false}
            """)
        let systemd = Self.systemd([SystemdCalendar(calendar: "*-*-* 09:00:00", zone: "Asia/Kolkata")], wanted: nil, earlier: true)
        #expect(JSONWriter.compact(systemd.json) == """
            {"scheduler":"systemd","calendars":[{"calendar":"*-*-* 09:00:00","zone":"Asia/Kolkata"}],"managerZone":"Etc/UTC",\
            "wanted":null,"earlierNotif":true}
            """)
        let embedded = EntryFiring(.embedded(time: Self.time(10, 0), weekday: .monday, zone: nil))
        #expect(JSONWriter.compact(embedded.json) == """
            {"scheduler":"embedded","time":"10:00","weekday":"Monday","zone":null,"wanted":null,"earlierNotif":false}
            """)
    }
}
