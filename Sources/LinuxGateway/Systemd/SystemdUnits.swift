import SharedLogic

/// The two user units notif writes per reminder and configuration: `notif-ID-TAG.timer` (daily,
/// persistent) and the `notif-ID-TAG.service` it starts, which runs the catch-up delivery (TAG:
/// the `ConfigurationID`'s). Catch-up is right both at the reminder's time and when
/// `Persistent=true` fires a run missed while the machine was off: it shows the reminder only
/// once today's time has passed and only if today's was not shown, so a boot on a later day
/// before 09:00 shows nothing and the reminder still comes at 09:00. A clock that jumps over the
/// reminder's time wakes it too: `OnClockChange=` (the clock set) and `OnTimezoneChange=` (the
/// system zone changed) start the service at once, and `notif deliver` decides. So does each
/// login: the service is wanted by `default.target`, which the user manager starts then, so a
/// reminder whose waiter a logout ended after 09:00 comes at the next login that day (the
/// timer's stamp says it ran). The service runs only while notif's program is there
/// (`ConditionFileIsExecutable=`).
public enum SystemdUnits {
    /// First line of every unit file notif owns; files without it are never touched.
    public static let marker = "# Managed by notif: `notif apply` rewrites this file and removes it when the reminder is off."

    /// `notif-ID-TAG`, or `notif-ID` for the untagged units of earlier versions (`tag` nil).
    public static func baseName(_ id: String, tag: String?) -> String { "notif-\(id)" + (tag.map { "-" + $0 } ?? "") }
    public static func timerName(_ id: String, tag: String?) -> String { baseName(id, tag: tag) + ".timer" }
    public static func serviceName(_ id: String, tag: String?) -> String { baseName(id, tag: tag) + ".service" }

    /// The reminder id and configuration tag (nil: untagged) in a unit file name notif would
    /// write (`notif-tips-and-updates-1a2b3c4d.timer`), or nil.
    public static func parse(unitName name: String) -> (id: String, tag: String?)? {
        for suffix in [".timer", ".service"] where name.hasPrefix("notif-") && name.hasSuffix(suffix) {
            let base = name.dropFirst("notif-".count).dropLast(suffix.count)
            if let dash = base.lastIndex(of: "-"), ShortHash.isHash(base[base.index(after: dash)...]), dash != base.startIndex {
                return (String(base[..<dash]), String(base[base.index(after: dash)...]))
            }
            return base.isEmpty ? nil : (String(base), nil)
        }
        return nil
    }

    /// The `OnCalendar=` values for `entry`. With `TZ` unset, the reminder's time in the manager's
    /// own zone, which is the system zone notif shows (`*-*-* 09:00:00`); a manager with a `TZ` of
    /// its own gets each time in its zone that is the reminder's time in the system zone. With a `TZ` systemd knows
    /// by name, that time in that zone (`*-*-* 09:00:00 Asia/Kolkata`). With any other `TZ` (a
    /// POSIX rule such as `EST5EDT,M3.2.0,M11.1.0`, or a file outside the zone database), each time
    /// in the system zone that is the reminder's time in the user's zone (`SchedulerTimes`).
    ///
    /// A daylight-saving gap that leaves the reminder's time out of a day (09:00 in a zone whose
    /// clock jumps from 08:30 to 09:30) makes the first moment after it the firing; systemd skips
    /// that moment as a daily time, so each such day to the horizon gets a dated calendar in UTC
    /// (`2027-03-28 07:30:00 UTC`). No zone of today's database has such a gap.
    public static func calendars(for entry: ScheduledEntry, systemZone: ZoneRules, managerOwnZone: ZoneRules? = nil, now: Instant,
                                 zoneInfo: String = SystemdZone.zoneInfo) -> [String] {
        let userZone = entry.zoneVariable == nil ? systemZone : entry.zone
        let gaps = SchedulerTimes.gapEnds(of: entry.reminder, in: userZone, from: now).map(utcCalendar)
        // In the user's own zone the reminder's time is the only daily one (a gap's end is dated).
        let own = { (slot: SchedulerTimes.Slot) in slot.time == entry.reminder.time }
        if let variable = entry.zoneVariable, let name = SystemdZone.calendarName(forTZ: variable, zoneInfo: zoneInfo) {
            return SchedulerTimes.slots(of: entry.reminder, in: entry.zone, seenFrom: entry.zone, from: now).filter(own)
                .map { calendar($0) + " " + name } + gaps
        }
        // A calendar without a zone is read in the manager's zone.
        if entry.zoneVariable == nil && managerOwnZone == nil {
            return SchedulerTimes.slots(of: entry.reminder, in: systemZone, seenFrom: systemZone, from: now).filter(own).map(calendar) + gaps
        }
        return SchedulerTimes.slots(of: entry.reminder, in: userZone, seenFrom: managerOwnZone ?? systemZone, from: now).map(calendar) + gaps
    }

    /// `2027-03-28 07:30:00 UTC`: one moment.
    static func utcCalendar(_ moment: Instant) -> String {
        let utc = ZoneRules.utc.localDateTime(of: moment)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(utc.date) \(two(utc.hour)):\(two(utc.minute)):\(two(utc.second)) UTC"
    }

    /// `*-*-* 09:00:00`
    public static func calendar(_ time: DailyTime) -> String { "*-*-* \(time):00" }

    /// `*-*-* 09:00:00`, or `Mon *-*-* 10:00:00` for a weekly slot.
    public static func calendar(_ slot: SchedulerTimes.Slot) -> String {
        (slot.weekday.map { $0.short + " " } ?? "") + calendar(slot.time)
    }

    public static func timer(for entry: ScheduledEntry, owner: ConfigurationID, calendars: [String]) -> String {
        let reminder = entry.reminder
        let zone = entry.zoneVariable == nil ? "local time" : entry.zone.name
        return """
            \(marker)
            [Unit]
            Description=\(SystemdCommand.escapeSpecifiers("notif reminder: \(reminder.title), \(reminder.schedule) \(zone)"))

            [Timer]
            \(calendars.map { "OnCalendar=" + $0 }.joined(separator: "\n"))
            OnClockChange=true
            OnTimezoneChange=true
            Persistent=true
            AccuracySec=1s
            Unit=\(serviceName(reminder.id, tag: owner.tag))

            [Install]
            WantedBy=timers.target

            """
    }

    /// The service that runs the catch-up delivery. An entry without `TZ` is in the system zone:
    /// its service drops any `TZ` the manager has (`UnsetEnvironment=TZ`: its own, or one set
    /// with `systemctl --user set-environment`), so `notif deliver` counts the day there too.
    public static func service(for entry: ScheduledEntry) throws(GatewayError) -> String {
        """
        \(marker)
        [Unit]
        Description=\(SystemdCommand.escapeSpecifiers("notif reminder: \(entry.reminder.title)"))
        ConditionFileIsExecutable=\(try conditionPath(entry.program))

        [Service]
        Type=oneshot
        \(entry.zoneVariable == nil ? unsetZone + "\n" : "")ExecStart=\(try SystemdCommand.render(entry.catchUpCommand))

        [Install]
        WantedBy=default.target

        """
    }

    /// The line of a service that runs `notif deliver` in the system zone whatever the manager's.
    static let unsetZone = "UnsetEnvironment=TZ"

    /// `path` as a `ConditionFileIsExecutable=` value: specifiers doubled. systemd takes the rest of
    /// the line as it is (no quotes, no escapes), so a path with a line break, or ending in a
    /// backslash or a space, cannot be written and is refused.
    static func conditionPath(_ path: String) throws(GatewayError) -> String {
        guard path.hasPrefix("/") else {
            throw GatewayError("cannot schedule \(path.debugDescription) with systemd: the program needs an absolute path")
        }
        if path.contains("\n") || path.contains("\r") || path.hasSuffix("\\") || path.hasSuffix(" ") || path.hasSuffix("\t") {
            throw GatewayError("cannot schedule \(path.debugDescription) with systemd: a unit file cannot name a program whose path holds a line break or ends in a backslash or a space (ConditionFileIsExecutable=); install notif to a plain path (make install)")
        }
        return SystemdCommand.escapeSpecifiers(path)
    }

    /// The program in an installed service's `ConditionFileIsExecutable=` line (specifiers undone).
    static func conditionProgram(inService text: String) -> String? {
        let key = "ConditionFileIsExecutable="
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return nil }
        return String(line.dropFirst(key.count)).replacing("%%", with: "%")
    }

    /// The `OnCalendar=` values in an installed timer's text.
    static func calendars(inTimer text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix("OnCalendar=") }.map { String($0.dropFirst("OnCalendar=".count)) }
    }
}
