import SharedLogic

/// One command's help: the table `notif --help`, `notif help COMMAND` and the man page share.
struct CommandSpec {
    let name: String
    let usage: String
    let summary: String
    let details: String

    static let all: [CommandSpec] = [
        CommandSpec(
            name: "onboarding", usage: "notif onboarding",
            summary: "the first-start wizard, including the permission prompt",
            details: """
            Runs the onboarding wizard in the terminal: a welcome, then for Guest projects the offer
            to turn on Tips & Updates (which asks for permission), for Account projects the
            permission prompt. Finishing saves onboardingCompleted; `notif` runs it by itself on
            first start.
            """),
        CommandSpec(
            name: "status", usage: "notif status [--json]",
            summary: "settings, permission, scheduler, planned vs installed, next reminder, last delivery",
            details: """
            Shows the saved settings, the notification permission, the project mode, the scheduler
            choice and which scheduler holds notif's entries (with whether each scheduler can be
            used here, and why), what the settings plan and what is installed, when each installed
            entry really fires (Fires: in the scheduler's own terms, e.g. "cron at 03:30 system time
            (Etc/UTC), 09:00 in Asia/Kolkata"), whether plan and entries agree, when the next
            reminder fires (local time) and the last delivery.
            --json prints one JSON object with the keys mode, preferences, permission, scheduler
            (the one in use), schedulerChoice (the saved choice), planned, installed, inSync,
            nextReminder (ISO 8601 with offset, or null) and lastDelivery, plus schedulerForced,
            schedulerReason, schedulers, schedulerState, outOfSync, firing (reminder id to the
            Fires: words), cannotFire (entries that are there but cannot fire: reason and
            message), nextReminderNone, warnings, and account (server and registration) in
            Account projects.
            """),
        CommandSpec(
            name: "set", usage: "notif set SETTING VALUE",
            summary: "change a setting, then apply it",
            details: """
            Settings and values:
            \(Setting.all.map { "  \($0.name.padded(to: 20)) \($0.values.joined(separator: "|"))" }.joined(separator: "\n"))
            The change is saved at once, then the scheduler is brought in line with the settings.
            \(NotifCatalog.standard.reminders.map { "\($0.title) schedules a reminder \($0.schedule) local time" }.joined(separator: "; ")) while Push Notifications
            is on and notifications are allowed (`notif permission allow`). Queue alerts,
            Promotions, Sound and Vibration are saved preferences and never change what is scheduled.
            scheduler chooses where the reminder is kept: systemd, cron, embedded (notif's built-in
            scheduler, run by `notif daemon`), or auto (the default: notif picks one and keeps the
            reminder there while that scheduler can still hold it). Choosing one moves the reminder
            there at once and says so.
            When an entry that should be gone cannot be removed, set says the reminder may still
            fire and how to stop it, and exits 1.
            """),
        CommandSpec(
            name: "permission", usage: "notif permission allow|deny|reset|status",
            summary: "Allow or Don't allow notifications (reset: Not decided, asked again)",
            details: """
            The permission is one of Allow, Don't allow and Not decided, the words the page's
            prompt and status use too.
            allow   Allow: planned reminders are scheduled (grant is the same)
            deny    Don't allow: every reminder is cancelled and blocked
            reset   back to Not decided: nothing is scheduled until allowed, and the page
                    asks again the next time a reminder is turned on
            status  print the permission: Allow, Don't allow or Not decided
            """),
        CommandSpec(
            name: "apply", usage: "notif apply",
            summary: "reconcile the scheduler with the saved settings (idempotent; run at login/boot)",
            details: """
            Installs the reminders the settings plan and that are missing, cancels entries that
            are not planned, and changes nothing when everything already agrees. Run it from a
            login script or at boot to re-arm reminders; it needs no terminal.
            """),
        CommandSpec(
            name: "deliver", usage: "notif deliver [--catch-up] [--quiet] ID",
            summary: "what a scheduled entry runs: show reminder ID now if the settings still ask for it",
            details: """
            Checks the saved settings again (an entry left behind delivers nothing), shows the
            reminder at most once per local day through the desktop notification service, and
            records the outcome in deliveries.jsonl. Without --catch-up it shows the reminder only
            at its time in your zone (TZ, else the system zone), up to 30 minutes late; at other
            times it does nothing and records nothing (an entry for a zone other than the
            scheduler's has a run for each half of the year). --catch-up delivers whenever today's
            time has passed and today's reminder was not shown (used after a boot). --quiet writes
            nothing to stdout or stderr, whatever happens (what schedulers run: cron mails output);
            the exit status and the delivery log say how it went.
            When the service supports actions, the reminder has the buttons "Turn off" (what
            `notif set tips-and-updates off` does) and "Settings" (the page in a terminal); a
            detached process waits for them (until the notification closes, at most 8 hours),
            and deliver exits as soon as the service has accepted the notification.
            Reminder ids: \(LocalReminders.all.map(\.id).joined(separator: ", ")).
            """),
        CommandSpec(
            name: "history", usage: "notif history [-n COUNT] [--json]",
            summary: "recent delivery attempts, newest first",
            details: """
            Guest: the last COUNT (default 20) delivery attempts from deliveries.jsonl, newest
            first: time, reminder, outcome and detail. Account: the server's notification history
            (the last good copy, marked, when the server cannot be reached). --json prints JSON lines.
            -n COUNT, -nCOUNT, --limit COUNT and --limit=COUNT are the same.
            """),
        CommandSpec(
            name: "test", usage: "notif test",
            summary: "show a test notification now and say whether it worked",
            details: """
            Sends a test notification through the same path scheduled reminders use and reports
            the outcome; exits 1 with the reason when it could not be shown. It is logged, but it
            does not count as the day's reminder. Nothing is sent while the permission is Not
            decided or Don't allow: it says so and exits 1 (`notif permission allow` first).
            """),
        CommandSpec(
            name: "daemon", usage: "notif daemon [--poll-interval SECONDS] [--{install,remove}-autostart]",
            summary: "the built-in scheduler, for machines without systemd or cron",
            details: """
            Runs in the foreground and shows the reminders in notif's built-in schedule (the
            embedded scheduler) at their time. Between reminders it sleeps: an absolute timer on
            the real-time clock, which a clock change or a resume from suspend cancels, and file
            change notices for the time zone (/etc/localtime or TZ's file), settings.json and the
            schedule wake it; nothing else does. At start, after a clock jump and after a zone
            change it shows a reminder missed earlier the same day, once. SIGTERM or Ctrl-C stops
            it (exit 0); SIGHUP makes it look again. Only one runs per user: a second one exits 1.
            --install-autostart  write $XDG_CONFIG_HOME/autostart/notif-daemon.desktop, so the
                                 desktop starts it at each login
            --remove-autostart   remove that entry
            --poll-interval S    Account projects: how often to ask the server for new
                                 notifications (10 to 604800 s, default 300, also
                                 NOTIF_POLL_INTERVAL); new ones are shown while notifications
                                 are allowed. Checked only in Account projects
            Without a desktop, start it from a login script, e.g. in ~/.profile:
              notif daemon >/dev/null 2>&1 &
            """),
        CommandSpec(
            name: "reset", usage: "notif reset --entries",
            summary: "remove every entry notif wrote for you, on every scheduler (before uninstalling)",
            details: """
            --entries  removes notif's block from your crontab, its systemd user timers and
                       services (with their enable links and timer stamps), the built-in schedule
                       and the autostart entry of `notif daemon`, and says what it removed. Files
                       notif did not write are left alone. Your settings are kept: `notif apply`
                       (or a change on the page) schedules the reminders again.
            Run it before removing notif, so no entry is left behind. Exits 1, saying what is
            still there, when something could not be removed.
            """),
        CommandSpec(
            name: "account", usage: "notif account login --server URL | logout | status",
            summary: "Account projects: log in to the server, log out, show the device registration",
            details: """
            login --server URL   switch to an Account project on URL (https://, or http:// on
                                 this machine only). The auth token is read from NOTIF_AUTH_TOKEN
                                 or stdin (typed without echo on a terminal), never from the command
                                 line, and kept 0600 in the state directory. Every Guest reminder is
                                 cancelled at once, and this device's token is registered with
                                 POST /api/v1/app/device-tokens (retried by `notif apply` if it fails).
            logout               unregister this device (best effort), forget the token, switch back
                                 to Guest and re-apply the Guest settings.
            status               the server, whether a token is saved, and the registration state.
            In Account projects `notif history` shows the server's notification history.
            """),
        CommandSpec(
            name: "help", usage: "notif help [COMMAND]",
            summary: "this help, or one command's",
            details: "Shows the overview, or the details of COMMAND (same as `notif COMMAND --help`)."),
    ]

    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

    /// `  usage   summary`, the summary on its own line when the usage is too long.
    var overviewLine: String {
        let usageText = String(usage.dropFirst(6))
        return usageText.count < 38 ? "  " + usageText.padded(to: 38) + " " + summary
                                    : "  " + usageText + "\n" + String(repeating: " ", count: 41) + summary
    }

    var helpText: String {
        "Usage: \(usage)\n\n\(summary.capitalizedFirst).\n\n\(details)\n"
    }

    static var overview: String {
        """
        notif: the Notifications settings page and daily reminders, for the terminal.

        Usage: notif [--scheduler systemd|cron|embedded] [COMMAND [ARGS]]

        Commands:
        \(all.map(\.overviewLine).joined(separator: "\n"))

        With no command, notif opens the Notifications settings page (onboarding first, on first start).

        Options:
          --scheduler NAME   use this scheduler for this run only (also NOTIF_SCHEDULER): systemd,
                             cron or embedded. Nothing is saved; where it moves the reminder, later
                             plain runs leave it while that scheduler can hold it.
                             `notif set scheduler NAME` saves a choice instead
          -h, --help         show help (after a command: that command's help)
          -V, --version      show the version

        Files:
          $XDG_CONFIG_HOME/notif/settings.json   settings (default ~/.config/notif/settings.json)
          $XDG_STATE_HOME/notif/                 delivery log and state (default ~/.local/state/notif/)
          $XDG_CONFIG_HOME/systemd/user/notif-*  systemd user timers and services
          $XDG_STATE_HOME/notif/embedded/        the built-in schedule run by `notif daemon`

        Exit status: 0 success, 1 failure (the message says what is still true), 2 bad usage.
        """ + "\n"
    }
}

extension StringProtocol {
    func padded(to width: Int) -> String {
        let text = String(self)
        return text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    var capitalizedFirst: String {
        guard let first else { return "" }
        return first.uppercased() + dropFirst()
    }
}
