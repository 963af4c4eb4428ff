/// The words for an `EntryFiring` (`status`'s `Fires:` row, `status --json`'s `firing`):
/// the one place they are made.
public enum FiringWords {
    static let replacedByApply = "which `notif apply` replaces"

    /// `cron at 03:30 system time (Etc/UTC), 09:00 in Asia/Kolkata`,
    /// `systemd timer at *-*-* 09:00:00 Asia/Kolkata`, `notif daemon at 09:00 in Asia/Kolkata`.
    public static func text(_ firing: EntryFiring) -> String {
        switch firing.schedule {
        case .cron(let times, let systemZone, let matchesWanted, let hourlyOnFallBack):
            guard !times.isEmpty else { return "cron only when cron starts (the entry has no daily line); `notif apply` puts it back" }
            var text = "cron at \(SchedulerTimes.list(times)) system time (\(systemZone))"
            guard let wanted = firing.wanted else { return text }
            if firing.earlierNotif {
                text += "; an entry of an earlier notif, \(replacedByApply)"
            } else if !matchesWanted {
                text += ", not \(wanted.time) in \(wanted.zone); `notif apply` fixes it, or says what stops it"
            } else if times.count == 1 {
                text += times == [wanted.time] && wanted.zone == systemZone ? "" : ", \(wanted.time) in \(wanted.zone)"
            } else {
                text += "; the run that is \(wanted.time) in \(wanted.zone) shows it"
            }
            if hourlyOnFallBack {
                text += "; also hourly on the days the system clock falls back through that time (cron skips fixed times in a repeated hour)"
            }
            return text
        case .systemd(let calendars, let managerZone):
            var text = "systemd timer at " + calendars.map { $0.calendar + ($0.zone.map { " " + $0 } ?? "") }.joined(separator: " and ")
            if calendars.count > 1 || calendars.allSatisfy({ $0.zone == nil }) {
                text += " (the user manager's zone, \(managerZone))"
            }
            if calendars.count > 1, let wanted = firing.wanted {
                text += "; the first run at or after \(wanted.time) in \(wanted.zone) shows it"
            }
            if firing.earlierNotif { text += "; units of an earlier notif, \(replacedByApply)" }
            return text
        case .embedded(let time, let weekday, let zone):
            return "notif daemon \(weekday.map { "on \($0.name)s " } ?? "")at \(time) "
                + (zone.map { "in \($0.isEmpty ? "UTC" : $0)" } ?? "in the daemon's zone (its TZ, else the system zone)")   // TZ empty is UTC
                + (firing.earlierNotif ? "; an entry of an earlier notif, \(replacedByApply)" : "")
        }
    }
}
