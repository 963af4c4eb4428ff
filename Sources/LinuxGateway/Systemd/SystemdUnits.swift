import SharedLogic

/// The two user units notif writes per reminder: `notif-ID.timer` (daily, persistent) and the
/// `notif-ID.service` it starts, which runs the catch-up delivery. Catch-up is right both at the
/// reminder's time and when `Persistent=true` fires a run missed while the machine was off: it
/// shows the reminder only once today's time has passed and only if today's was not shown, so a
/// boot on a later day before 09:00 shows nothing and the reminder still comes at 09:00.
public enum SystemdUnits {
    /// First line of every unit file notif owns; files without it are never touched.
    public static let marker = "# Managed by notif: `notif apply` rewrites this file and removes it when the reminder is off."

    public static func timerName(_ id: String) -> String { "notif-\(id).timer" }
    public static func serviceName(_ id: String) -> String { "notif-\(id).service" }

    /// The reminder id in a unit file name notif would write (`notif-tips-and-updates.timer`), or nil.
    public static func id(inUnitName name: String) -> String? {
        for suffix in [".timer", ".service"] where name.hasPrefix("notif-") && name.hasSuffix(suffix) {
            let id = String(name.dropFirst("notif-".count).dropLast(suffix.count))
            return id.isEmpty ? nil : id
        }
        return nil
    }

    /// `OnCalendar=` for a daily wall-clock time in the manager's local zone (`*-*-* 09:00:00`).
    public static func calendar(_ time: DailyTime) -> String { "*-*-* \(time):00" }

    public static func timer(for entry: ScheduledEntry) -> String {
        let reminder = entry.reminder
        return """
            \(marker)
            [Unit]
            Description=\(SystemdCommand.escapeSpecifiers("notif reminder: \(reminder.title), daily at \(reminder.time) local time"))

            [Timer]
            OnCalendar=\(calendar(reminder.time))
            Persistent=true
            AccuracySec=1s
            Unit=\(serviceName(reminder.id))

            [Install]
            WantedBy=timers.target

            """
    }

    public static func service(for entry: ScheduledEntry) throws(GatewayError) -> String {
        """
        \(marker)
        [Unit]
        Description=\(SystemdCommand.escapeSpecifiers("notif reminder: \(entry.reminder.title)"))

        [Service]
        Type=oneshot
        ExecStart=\(try SystemdCommand.render(entry.catchUpCommand))

        """
    }
}
