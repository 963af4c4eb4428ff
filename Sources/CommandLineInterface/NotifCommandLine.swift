import SharedLogic

/// notif's command line, declared once: every command, option and argument with its value
/// kinds, which options go together, and the man page's other sections. Parsing, usage
/// lines, `--help`, error messages, doc/notif.1 and the shell completions come from it.
public enum NotifCommandLine {
    /// Hidden: the detached waiter `notif deliver` starts for a reminder with buttons.
    public static let reminderActionsCommand = "__reminder-actions"

    /// Setting names, each with the values `set` accepts after it (from `Setting.all`).
    static var settings: ValueKind {
        .choice(Setting.all.map { Choice($0.name, $0.label, next: $0.values) })
    }

    /// The reminder's time the help and the man page name (`\(reminderTime)`), from the reminder table.
    static let reminderTime = LocalReminders.tipsAndUpdates.time

    /// Reminder ids (from `LocalReminders.all`).
    static var reminders: ValueKind {
        .choice(LocalReminders.all.map { Choice($0.id, $0.title) })
    }

    /// The schedulers `--scheduler` names; `auto` is the saved setting's word only.
    static var schedulers: ValueKind {
        .choice(SchedulerPreference.allCases.map { preference in
            preference == .auto
                ? Choice(preference.rawValue, refusal: "names a scheduler for one run: "
                    + Wording.list(SchedulerPreference.allCases.filter { $0 != .auto }.map(\.rawValue))
                    + "; `notif set scheduler auto` lets notif pick")
                : Choice(preference.rawValue)
        })
    }

    public static let shells = ["bash", "zsh", "fish"]

    /// The declaration.
    public static var declaration: CommandLineDeclaration {
        CommandLineDeclaration(
            program: "notif", version: NotifVersion.current, date: "November 2026",
            summary: "the Notifications settings page and daily reminders, for the terminal",
            withoutCommand: "With no command, notif opens the Notifications settings page (onboarding first, on first start).",
            globalOptions: globalOptions, commands: commands, description: description, files: files,
            environment: environment, manualSections: manualSections,
            exitStatus: "0 success, 1 failure (the message says what is still true), 2 bad usage.",
            seeAlso: ["crontab(1)", "systemd.timer(5)", "dbus-update-activation-environment(1)"])
    }

    static var globalOptions: [OptionDeclaration] {
        [
            OptionDeclaration("--scheduler", value: ValueDeclaration("NAME", schedulers, noun: "scheduler"), summary: """
                use this scheduler for this run only: systemd, cron or embedded, even when its daemon is not \
                running. Nothing is saved (`notif set scheduler NAME` saves a choice); where it moves the \
                reminder, later plain runs leave it while that scheduler can hold it
                """, environment: "NOTIF_SCHEDULER"),
            OptionDeclaration("--help", short: "-h", summary: "show help (after a command: that command's help)"),
            OptionDeclaration("--version", short: "-V", summary: "show the version"),
        ]
    }

    static var commands: [CommandDeclaration] {
        [
            CommandDeclaration("onboarding", .onboarding, summary: "the first-start wizard, including the permission prompt", details: """
                Runs the onboarding wizard in the terminal: a welcome, then for Guest projects the offer to \
                turn on Tips & Updates (which asks for permission), for Account projects the permission \
                prompt. Finishing saves onboardingCompleted; `notif` runs it by itself on first start.
                """),
            CommandDeclaration("status", .status, summary: "settings, permission, scheduler, planned vs installed, next reminder, last delivery", details: """
                Shows the saved settings, the notification permission, the project mode, the scheduler \
                choice and which scheduler holds notif's entries (with whether each scheduler can be used \
                here, and why), what the settings plan and what is installed, whether plan and entries \
                agree, when the next reminder fires (local time) and the last delivery. Fires: says when \
                each installed entry really fires, in the scheduler's own terms, e.g. "cron at 03:30 \
                system time (Etc/UTC), 09:00 in Asia/Kolkata". The next reminder is when the installed \
                entries really show it; when that is not the reminder's time in your zone, as with \
                entries written for another zone, both are shown and `notif apply` brings them together. \
                When settings.json cannot be read, status says why, still shows what is installed and \
                when it fires, and exits 1.
                """, options: [
                    OptionDeclaration("--json", summary: """
                        one JSON object with the keys mode, preferences, permission, scheduler (the one in \
                        use), schedulerChoice (the saved choice), planned, installed, inSync, nextReminder \
                        (ISO 8601 with offset, or null) and lastDelivery, plus lastAttempt (the last \
                        attempt when it is not lastDelivery: one that waits, was missed, failed or was skipped; \
                        or null), \
                        waiting (a waiter waits now to send it), holder (the scheduler installed \
                        was read from: where the last apply put the entries), schedulerForced, \
                        schedulerReason, schedulers, schedulerState, outOfSync, firing (reminder id to the \
                        Fires: words), firingSchedule (the same as facts: the scheduler, its times and \
                        zone, the reminder's time in your zone), cannotFire (entries that are there but \
                        cannot fire: reason and \
                        message), nextReminderNone, nextReminderWaiting (while today's waits for a \
                        notification service: since when; nextReminder is then null), owedToday (the \
                        reminder whose today's is due and not sent while nothing waits to send it, or \
                        null), wantedReminder (the reminder's time in your zone when \
                        the installed entries fire at another: nextReminder is when they really do), \
                        settingsProblem (why settings.json cannot be read, or null: then mode, \
                        preferences, permission and planned are null and the command exits 1), warnings, \
                        and account (server and registration) in Account projects
                        """),
                ]),
            CommandDeclaration("set", .set, summary: "change a setting, then apply it", details: """
                The change is saved at once, then the scheduler is brought in line with the settings. \
                \(NotifCatalog.standard.remindersScheduled) while Push Notifications is on and \
                notifications are allowed (`notif permission allow`). Queue alerts, Promotions, Sound and \
                Vibration are saved preferences and never change what is scheduled.

                scheduler chooses where the reminder is kept: systemd, cron, embedded (notif's built-in \
                scheduler, run by `notif daemon`), or auto (the default: notif picks one and keeps the \
                reminder there while that scheduler can still hold it). Choosing one moves the reminder \
                there at once and says so.

                When an entry that should be gone cannot be removed (the scheduler's program missing, \
                failing or hanging), set says the reminder may still fire and how to stop it, and exits 1.
                """, arguments: [
                    ArgumentDeclaration("SETTING", noun: "setting", settings),
                    ArgumentDeclaration("VALUE", noun: "value", .followingChoice),
                ]),
            CommandDeclaration("permission", .permission, summary: "Allow or Don't allow notifications (reset: Not decided, asked again)", details: """
                The permission is one of Allow, Don't allow and Not decided, the words the page's prompt \
                and status use too. Until notifications are allowed, nothing is scheduled.
                """, arguments: [
                    ArgumentDeclaration(nil, noun: "permission action", .choice([
                        Choice("allow", "Allow: planned reminders are scheduled (grant is the same)"),
                        Choice("grant", "the same as allow", hidden: true),
                        Choice("deny", "Don't allow: every reminder is cancelled and blocked"),
                        Choice("reset", "back to Not decided: nothing is scheduled until allowed, and the page asks again the next time a reminder is turned on"),
                        Choice("status", "print the permission: Allow, Don't allow or Not decided"),
                    ])),
                ]),
            CommandDeclaration("apply", .apply, summary: "reconcile the scheduler with the saved settings (idempotent; run at login/boot)", details: """
                Installs the reminders the settings plan and that are missing, cancels entries that are not \
                planned, and changes nothing when everything already agrees. Run it from a login script or \
                at boot to re-arm reminders; it needs no terminal.
                """),
            CommandDeclaration("edit", .edit, summary: "edit settings.json in your editor, checked before it is saved, then apply it", details: """
                Works as `crontab -e` and `visudo` do: opens a private copy of settings.json (mode 0600, \
                beside it) in $VISUAL, else $EDITOR, else sensible-editor, else vi. When the editor exits \
                the copy is checked: a mistake is named with its line, column and how to fix it, and you can \
                edit again or keep the old file. Only a valid copy \
                replaces settings.json, atomically and exactly as you wrote it (keys notif does not know \
                included); then the scheduler is brought in line with it, as `notif apply` does. An \
                unchanged copy changes nothing; when settings.json still cannot be read, its mistake is named \
                again and the exit status is 1. When the editor fails, or settings.json changed meanwhile, \
                settings.json is left as it was and a changed copy is kept (its path is printed).
                """),
            CommandDeclaration("deliver", .deliver, summary: "what a scheduled entry runs: send reminder ID if it is due and not sent today", details: """
                Every scheduler's entry runs it (a cron line, a systemd timer and its catch-up, cron's \
                @reboot line, notif daemon), and one rule decides, by your clock (TZ, else the system \
                zone): the reminder of a day is due from the first moment the clock reads its time (\(reminderTime)) \
                or later that day, after a jump over it (a DST gap, a zone change, a resume) the first \
                moment after the jump, until the day ends. A due reminder is sent once, if the saved \
                settings still ask for it, and if its entry was there before that day's time (turned on \
                at 14:00, the first reminder is the next day's \(reminderTime)). A run outside that window, or after \
                the day's reminder was sent, does nothing and records nothing. notif knows only that the \
                notification service accepted the notification, not that it was seen (under Do Not \
                Disturb most servers keep it off the screen and say nothing).

                When no notification service can be reached (no session bus yet, no server), a detached \
                waiter waits for one (at most one per reminder), sends the reminder as soon as it comes \
                and records how late and why; at the end of the day without one it records the day as \
                missed. A run outside the graphical session never has the bus start a notification \
                server (see delivery in notif's documentation). Where the service supports actions, the \
                reminder has the buttons "Turn off" (what `notif set tips-and-updates off` does) and \
                "Settings" (the page in a terminal: x-terminal-emulator, else notif's desktop entry \
                through gio launch); the same waiter waits for them (until the notification closes or the \
                service leaves the session bus, at most 8 hours). Every outcome is in deliveries.jsonl \
                (notif history).
                """, options: [
                    OptionDeclaration("--catch-up", summary: "the same as without it (entries of notif 0.1.0 run it after a boot)"),
                    OptionDeclaration("--quiet", summary: """
                        write nothing to stdout or stderr, whatever happens (what schedulers run: cron mails \
                        output); the exit status and the delivery log say how it went
                        """),
                ], arguments: [ArgumentDeclaration("ID", noun: "reminder", reminders)]),
            CommandDeclaration("history", .history, summary: "recent delivery attempts, newest first", details: """
                Guest: the last delivery attempts from deliveries.jsonl, newest first: time, reminder, \
                outcome and detail. Account: the server's notification history (the last good copy, marked, \
                when the server cannot be reached). When settings.json cannot be read, its mistake is named, \
                this machine's own records are listed all the same, and the exit status is 1.
                """, options: [
                    OptionDeclaration("--limit", short: "-n", value: ValueDeclaration("COUNT", .wholeNumber(minimum: 1, maximum: .max, unit: nil)),
                                      summary: "show at most COUNT entries (default 20); -nCOUNT and --limit=COUNT work too"),
                    OptionDeclaration("--json", summary: "one JSON object per line"),
                ]),
            CommandDeclaration("test", .test, summary: "send a test notification now and say whether the service accepted it", details: """
                Sends a test notification through the same path scheduled reminders use and reports the \
                outcome (accepted by the notification service, or why not); exits 1 with the reason when it \
                could not be sent. It is logged, but it does not \
                count as the day's reminder. Nothing is sent while the permission is Not decided or Don't \
                allow: it says so and exits 1 (`notif permission allow` first).
                """),
            CommandDeclaration("daemon", .daemon, summary: "the built-in scheduler, for machines without systemd or cron", details: """
                Runs in the foreground and shows the reminders in notif's built-in schedule (the embedded \
                scheduler) at their time. Between reminders it sleeps: an absolute timer on the real-time \
                clock, which a clock change or a resume from suspend cancels, and file change notices for \
                the time zone (/etc/localtime or TZ's file), settings.json and the schedule wake it; nothing \
                else does. At start, after a clock jump and after a zone change it shows a reminder missed \
                earlier the same day, once. SIGTERM or Ctrl-C stops it (exit 0); SIGHUP makes it look again. \
                One runs per configuration (its state directory): a second one for the same one exits 1.

                Without a desktop, start it from a login script, e.g. in ~/.profile:

                  notif daemon >/dev/null 2>&1 &
                """, options: [
                    OptionDeclaration("--poll-interval", value: ValueDeclaration("SECONDS", .wholeNumber(minimum: 10, maximum: 7 * 24 * 3600, unit: "seconds")),
                                      summary: """
                                        Account projects: how often to ask the server for new notifications \
                                        (10 to 604800, default 300); new ones are shown while notifications \
                                        are allowed. Checked only in Account projects; with \
                                        --install-autostart it is written into the entry
                                        """, environment: "NOTIF_POLL_INTERVAL", checkedByCommand: true),
                    OptionDeclaration("--install-autostart", summary: """
                        write $XDG_CONFIG_HOME/autostart/notif-daemon.desktop, so the desktop starts the \
                        daemon at each login, and exit
                        """),
                    OptionDeclaration("--remove-autostart", summary: "remove that entry, and exit"),
                ], exclusive: [["--install-autostart", "--remove-autostart"], ["--remove-autostart", "--poll-interval"]]),
            CommandDeclaration("reset", .reset, summary: "remove every entry notif wrote for you, on every scheduler (before uninstalling)", details: """
                Removes every entry notif wrote for you, whichever configuration (XDG_CONFIG_HOME) wrote it, \
                and says what it removed and where it looked. Files notif did not write are left alone. \
                Your settings are kept: `notif apply` (or a change on the page) schedules the reminders again.

                Where it looks: your crontab and ~/.config/systemd/user hold the entries of every \
                configuration. Built-in schedules and autostart entries are kept under each configuration's \
                XDG_STATE_HOME and XDG_CONFIG_HOME: it looks under the defaults (~/.local/state, ~/.config), \
                the ones set now, those of every configuration on the configuration list \
                (~/.local/state/notif/configurations, see FILES), those of a running notif daemon, and every \
                one that an entry it finds names. Each removed reminder is named by its settings file. It \
                then drops the list's records of the configurations it cleaned. A list that cannot be read, \
                or a line of it that is not a record, is named and stops nothing else (exit 1: entries of a \
                configuration only it named may remain). A configuration of a notif from before the list, \
                named nowhere, is not found: run it again with that XDG_STATE_HOME and XDG_CONFIG_HOME set.

                Run it before removing notif, so no entry is left behind. Exits 1, saying what is still \
                there, when something could not be removed (it may still fire).
                """, options: [
                    OptionDeclaration("--entries", summary: """
                        remove every entry notif wrote: every notif block from your crontab (your own lines \
                        stay as they were), every notif systemd user timer and service (with their enable \
                        links and stamps; stopped first when a user manager runs), the built-in schedules and \
                        the autostart entries of `notif daemon`
                        """),
                ], required: ["--entries"]),
            CommandDeclaration("account", summary: "Account projects: log in to the server, log out, show the device registration", details: """
                In Account projects `notif history` shows the server's notification history and `notif \
                daemon` polls it.
                """, subcommands: [
                    CommandDeclaration("login", .accountLogin, summary: "switch to an Account project on URL", details: """
                        The URL is https://, or http:// on this machine only. The auth token is read from \
                        NOTIF_AUTH_TOKEN or stdin (typed without echo on a terminal), never from the command \
                        line, and kept 0600 in the state directory. Every Guest reminder is cancelled at \
                        once, and this device's token is registered with POST /api/v1/app/device-tokens \
                        (retried by `notif apply` if it fails).
                        """, options: [
                            OptionDeclaration("--server", value: ValueDeclaration("URL", .text), summary: "the server's address"),
                        ], required: ["--server"]),
                    CommandDeclaration("logout", .accountLogout, summary: "unregister this device (best effort), forget the token, switch back to Guest and re-apply the Guest settings"),
                    CommandDeclaration("status", .accountStatus, summary: "the server, whether a token is saved, and the registration state"),
                ], subcommandNoun: "account action"),
            CommandDeclaration("completion", .completion, summary: "print a shell completion script (bash, zsh or fish)", details: """
                The script completes commands, options, setting names and values: it asks notif itself, so \
                it always matches the notif installed. `make install` and the Debian package install them; \
                to try one in the running shell:

                  source <(notif completion bash)
                """, arguments: [
                    ArgumentDeclaration(nil, noun: "shell", .choice(shells.map { Choice($0) })),
                ]),
            CommandDeclaration("help", .help, summary: "this help, or one command's", details: """
                Shows the overview, or the details of COMMAND (the same as `notif COMMAND --help`).
                """, arguments: [ArgumentDeclaration("COMMAND", noun: "command", .commandName, optional: true)]),
            CommandDeclaration(CommandLineDeclaration.completeCommand, .complete, summary: "what the completion scripts ask: the words to offer at the end of LINE", arguments: [
                ArgumentDeclaration(nil, noun: "shell", .choice(shells.map { Choice($0) })),
                ArgumentDeclaration("LINE", noun: "command line", .text),
            ], hidden: true),
            CommandDeclaration(reminderActionsCommand, .reminderActions, summary: "the reminder's detached waiter: shows it, or waits for a notification service, then for its buttons", options: [
                OptionDeclaration("--day", value: ValueDeclaration("DAY", .text), summary: "the local day (YYYY-MM-DD) whose reminder it shows"),
                OptionDeclaration("--show-within", value: ValueDeclaration("MS", .positiveNumber), summary: "milliseconds the first try may take"),
                OptionDeclaration("--wait-at-most", value: ValueDeclaration("SECONDS", .positiveNumber), summary: "seconds to wait for a button"),
            ], arguments: [ArgumentDeclaration("ID", noun: "reminder", reminders)], hidden: true),
        ]
    }

    static let description = """
        notif keeps the Notifications settings of a Guest project (Push Notifications, Tips & \
        Updates, Queue alerts, Promotions, Sound, Vibration) and turns them into real scheduled \
        entries. While Push Notifications is on, Tips & Updates is on and notifications are allowed, a \
        reminder is shown every day at \(reminderTime) local time through the desktop notification service. Only \
        Tips & Updates schedules anything; the other settings are saved preferences.

        With no command, notif opens the Notifications page in the terminal (the onboarding wizard \
        first, on first start). Keys: Up/Down (k/j, Tab) move, Space/Enter toggle or open the Sound \
        list, Left/Right (h/l) turn off/on or cycle the sound, p permission, t test notification, s the \
        scheduler chooser (also a click on the Scheduler: line), H history, r retry after an error, ? \
        help, q or Esc quit, or close a dialog or list first (with a change that could not be saved, \
        quitting asks: Save again or Quit anyway), Ctrl-C quits from anywhere, Ctrl-Z suspends (fg returns); \
        Shift-Tab moves back. In dialogs Left/Right/Tab move, Enter chooses, a/d answer the permission \
        prompt. In History, Enter shows an entry whole. Alt with a key does nothing: only Esc alone \
        closes or quits. A mouse click acts like Space. Quitting with a change that is not saved prints \
        what was lost and exits 1.

        The saved choice of scheduler is the scheduler setting (`notif set scheduler`). With auto (the \
        default) notif keeps the entries on the scheduler that holds them while it can still hold them \
        (its program is there and allowed; for systemd, the machine runs systemd; for the built-in \
        scheduler, `notif daemon` runs or starts at login); when it cannot, or when nothing holds them \
        yet, it picks systemd when a user manager runs, then cron when its daemon runs and crontab is \
        allowed, else the built-in scheduler. --scheduler and NOTIF_SCHEDULER override it for one run.
        """

    static let files: [(path: String, summary: String, more: String)] = [
        ("$XDG_CONFIG_HOME/notif/settings.json", "settings (default ~/.config/notif/settings.json)", """
            Written atomically, mode 0600; yours to edit too (`notif edit` checks an edit before it \
            is saved). A change counts once its write is finished. A file that does not parse, or holds \
            a wrong value, is never moved or rewritten: commands that need it name the line, column and \
            fix and exit 1, and scheduled entries stay as they are; only the page's "reset to defaults" \
            replaces it, keeping it as settings.json.before-reset-<UTC time>.
            """),
        ("$XDG_STATE_HOME/notif/", "delivery log and state (default ~/.local/state/notif/)", """
            The delivery log is deliveries.jsonl; among the state is scheduler: the scheduler holding \
            notif's entries and the saved choice they were put there under.
            """),
        ("~/.config/systemd/user/notif-*", "user timers and services for systemd", """
            There whatever XDG_CONFIG_HOME says (a user manager reads only that place). Per reminder and configuration a persistent daily timer (with your zone in OnCalendar= when TZ \
            is set) and the service it starts, which runs deliver --catch-up while notif's program is there \
            (ConditionFileIsExecutable=). Enabled with systemctl --user; without a running user manager \
            the timer starts with the manager at the next login.
            """),
        ("$XDG_STATE_HOME/notif/embedded/", "the built-in schedule run by `notif daemon`", """
            One file per reminder and configuration.
            """),
        ("~/.local/state/notif/configurations", "the configuration list, read by `notif reset --entries`", """
            Under HOME, whatever XDG_STATE_HOME says (a run with another HOME keeps its own). Every apply that \
            writes entries (and daemon --install-autostart) adds its configuration unless it is there, under \
            a lock (configurations.lock), atomically, keeping every other line. Lines starting with # are \
            comments; every other line is one JSON object with the keys settings (the settings file), tag \
            (the 8 hex digits its entries carry), home, configHome and stateHome (the HOME, XDG_CONFIG_HOME \
            and XDG_STATE_HOME its entries live under). A few hundred bytes per configuration; reset drops \
            the records it cleaned, and the file when none is left. Like the settings, it is yours: removing \
            the package leaves it.
            """),
        ("crontab", "with cron, notif's lines in your crontab", """
            Each configuration (settings file) keeps its entries between the lines "# BEGIN notif managed \
            block TAG" and "# END notif managed block TAG" (TAG: a hash of the settings path); other lines \
            are not touched. Each reminder has a daily line per system-zone time that is \(reminderTime) in your \
            zone (on the days the system clock falls back through that time, an hourly line as well: cron \
            runs no fixed-time line in a repeated hour), and an @reboot line running deliver --catch-up, \
            each run only while notif's program is there.
            """),
    ]

    static let environment: [(name: String, summary: String)] = [
        ("NOTIF_AUTH_TOKEN", "the auth token for `notif account login`"),
        ("VISUAL, EDITOR", "the editor `notif edit` and the page's e run (VISUAL first; else sensible-editor, else vi)"),
        ("XDG_CONFIG_HOME, XDG_STATE_HOME, TZ, NO_COLOR, ESCDELAY", """
            as usual; relative XDG values are ignored. Scheduled entries carry absolute XDG directories, a \
            HOME other than the password database's and TZ, so they read the same files and the reminder \
            comes at \(reminderTime) in your zone whatever zone the scheduler runs in. A TZ that names no zone \
            writes no entry: it would bring the reminder in UTC
            """),
    ]

    static let manualSections: [(title: String, text: String)] = [
        ("WHEN THE REMINDER COMES", """
            Schedulers only wake `notif deliver`; it decides by your clock. The reminder of a day is due \
            from the first moment the clock reads \(reminderTime) or later that day until the day ends, and is shown \
            once: at \(reminderTime), or at the first run after it (a boot, a resume, a login, a clock jump over \
            \(reminderTime)), if its entry was there before that day's \(reminderTime). Days that have ended are never shown, \
            and the next reminder stays at \(reminderTime). When no notification service can be reached, a waiter \
            shows it as soon as one comes, that day; the record says how late and why, or that the day \
            was missed. The bus is asked to start a notification server only from inside the graphical \
            session (DISPLAY or WAYLAND_DISPLAY set), or when the systemd user manager's environment has a \
            display.
            """),
    ]
}
