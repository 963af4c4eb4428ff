import SharedLogic

/// What a scheduled entry runs: notif's own program, checked, and its arguments and environment.
extension ReminderService {
    /// What a scheduled entry runs: `notif deliver --quiet ID`, and `notif deliver --quiet
    /// --catch-up ID` for runs that may come late (boot, a missed timer), in the zone notif shows
    /// (`TZ` goes with the entry when set). Quiet: a scheduler's job writes nothing to stdout or
    /// stderr (cron mails it); the outcome is in the delivery log. Fails when notif's own program is gone.
    /// A `TZ` that names no zone is refused: the entry would carry it, and show the reminder in
    /// UTC, not the person's zone (the entries there stay as they are).
    public func entry(for reminder: LocalReminder) throws(GatewayError) -> ScheduledEntry {
        if context.zoneProblem != nil, let tz = context.lookup("TZ") {
            throw GatewayError("TZ=\(TerminalText.safe(tz)) is not a time zone notif can find, so notif writes no entry in it: "
                + "it would show the reminder in UTC; an entry already there stays as it was; set TZ to a zone such as Europe/Berlin, or unset it for the system zone")
        }
        return ScheduledEntry(reminder: reminder, command: try command(["deliver", "--quiet", reminder.id], carryingZone: true),
                       catchUpCommand: try command(["deliver", "--quiet", "--catch-up", reminder.id], carryingZone: true),
                       program: try program(), zone: context.zone, zoneVariable: context.lookup("TZ"), home: context.accountHome())
    }

    /// The path of notif's own program for an entry to run, checked now: it must exist and be
    /// executable. A binary removed while notif runs (or replaced by something else) would give
    /// an entry that never runs while the page shows the next reminder; installing fails instead.
    /// It and the places the entry's run reads must pass the trust rule (`untrusted(program:)`).
    public func program() throws(GatewayError) -> String {
        guard let path = context.executable else {
            throw GatewayError("notif cannot tell where its own program is (/proc/self/exe cannot be read), so nothing was scheduled; run notif by its full path")
        }
        guard context.isExecutable(path) else {
            throw GatewayError("notif's own program \(path) was removed or replaced; run the installed notif again (`notif apply`) so the entry names a program that exists; nothing was scheduled")
        }
        if let problem = untrusted(program: path) { throw GatewayError(problem) }
        return path
    }

    /// `notif ARGS` by absolute path. XDG locations (and with `carryingZone`, `TZ`) set for this
    /// process are passed on through `/usr/bin/env`, since schedulers and session managers start
    /// programs without them. `notif daemon` gets no `TZ`: its entries carry their own zones, and
    /// the others follow the system zone.
    public func command(_ arguments: [String], carryingZone: Bool = false) throws(GatewayError) -> [String] {
        var command: [String] = []
        // Where notif's files are: a HOME other than the one jobs get (the password database's),
        // and XDG directories, go with the entry so it reads the same files.
        var carried: [String] = []
        if let home = context.lookup("HOME"), home.hasPrefix("/"), let jobHome = context.accountHome(), home != jobHome {
            carried.append("HOME=\(home)")
        }
        carried += ["XDG_CONFIG_HOME", "XDG_STATE_HOME"].compactMap { name in
            context.lookup(name).flatMap { $0.hasPrefix("/") ? "\(name)=\($0)" : nil }
        }
        // The zone notif shows: a job started by a scheduler in another zone still counts the
        // reminder's day and time in it.
        if carryingZone, let zone = context.lookup("TZ") { carried.append("TZ=" + zone) }
        let executable = try program()
        if !carried.isEmpty {
            command = ["/usr/bin/env"] + carried
            // env takes every word holding '=' before the program for another assignment: a path
            // like /opt/a=b/notif would be swallowed and the next word ("deliver") run instead.
            if executable.contains("=") { command += Self.execTrampoline }
        }
        return command + [executable] + arguments
    }

    /// `sh -c 'exec "$0" "$@"' PROGRAM ARGS...`: runs PROGRAM with ARGS exactly, whatever its name.
    public static let execTrampoline = ["/bin/sh", "-c", "exec \"$0\" \"$@\""]
}
