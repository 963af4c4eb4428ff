import AccountClient
import CommandLineInterface
import Glibc
import LinuxGateway
import SharedLogic
import Storage

/// Runs one command against a context; each returns the process exit code.
struct Commands {
    let context: NotifContext
    let output: Output
    var service: ReminderService { ReminderService(context: context) }
    var presenter: Presenter { Presenter(service: service) }
    var account: AccountService {
        AccountService(reminders: service, transport: CurlTransport(runner: context.runner), appVersion: NotifVersion.current)
    }

    /// Runs a command the declaration has already checked (`NotifCommandLine`): its words and values are valid.
    func run(_ parsed: ParsedCommand) throws(UsageError) -> ExitCode {
        let accounts = AccountCommands(account: account, output: output)
        switch parsed.action {
        case .status: return status(json: parsed.flag("--json"))
        case .set: return set(Setting(name: parsed.arguments[0])!, parsed.arguments[1])
        case .permission: return permission(parsed.arguments[0])
        case .apply: return apply()
        case .edit: return edit()
        // --catch-up (what entries of notif 0.1.0 run after a boot) is accepted: one rule decides every run.
        case .deliver: return deliver(LocalReminders.reminder(id: parsed.arguments[0])!)
        case .history: return history(limit: parsed.number("--limit").map { Int(clamping: $0) } ?? 20, json: parsed.flag("--json"))
        case .test: return test()
        case .accountLogin: return try accounts.login(server: parsed.value("--server")!.text)
        case .accountLogout: return accounts.logout()
        case .accountStatus: return accounts.status()
        case .daemon: return try daemon(parsed)
        case .reset: return reset()
        case .reminderActions: return reminderActions(parsed, reminder: LocalReminders.reminder(id: parsed.arguments[0])!)
        case .onboarding, .completion, .complete, .help: preconditionFailure("NotifMain runs \(parsed.name) before a context is made")
        }
    }

    // MARK: status

    func status(json: Bool) -> ExitCode {
        let report = service.status()
        let code: ExitCode = report.settingsProblem == nil ? .success : .failure
        if let problem = report.settingsProblem { settingsFailure(problem) }
        if json {
            var document = service.json(report)
            if report.preferences.mode == .account && report.settingsProblem == nil {
                let registration: JSONValue
                switch account.registrationState() {
                case .registered(let at): registration = .object([JSONMember("state", .string("registered")), JSONMember("time", .string(at))])
                case .pending(let reason): registration = .object([JSONMember("state", .string("pending")), JSONMember("reason", .string(reason))])
                case .none: registration = .object([JSONMember("state", .string("none"))])
                }
                document = document.setting("account", to: .object([
                    JSONMember("server", report.preferences.accountServer.map { .string($0) } ?? .null),
                    JSONMember("registration", registration),
                ]))
            }
            output.json(JSONWriter.pretty(document).dropLast().description)
            return code
        }
        let p = report.preferences
        // What the settings say, when they can be read; what is installed and when it fires, always.
        var rows: [(String, String)] = []
        if report.settingsProblem == nil {
            rows.append(("Mode", p.mode.rawValue))
            for setting in Setting.all {
                var value = setting.value(in: p)
                if case .toggle(let toggle) = setting, toggle.dependsOnMaster, !p[.pushNotifications] { value += " (inactive: Push Notifications is off)" }
                if case .toggle(let toggle) = setting, let reminder = LocalReminders.all.first(where: { $0.preference == toggle }) {
                    value = Self.reminderValue(reminder, report: report)
                }
                if setting == .scheduler && !report.choice.why.isEmpty { value += " — \(report.choice.why)" }
                rows.append((setting.label, value))
            }
            rows.append(("Permission", p.permission.word))
        }
        let notes = (report.choice.forced ? ["forced"] : []) + (report.schedulerState.map { [$0] } ?? [])
        let scheduler = report.choice.kind.map { $0.rawValue + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))") } ?? "none"
        rows.append(("Scheduler", scheduler))
        // Each scheduler, indented under the one in use (no colon: these are not rows of their own).
        let inUse = report.reminders.scheduler ?? report.choice.kind
        for usability in report.schedulers {
            let label = usability.label(inUse: usability.choice.rawValue == inUse?.rawValue, forThisRun: report.choice.forced)
            rows.append(("  " + usability.choice.rawValue, label + ": " + usability.reason))
        }
        if report.settingsProblem == nil {
            rows.append(("Planned", report.planned.isEmpty ? "nothing" : report.planned.joined(separator: ", ")))
        }
        // Entries still on another scheduler than the one in use (the next apply moves them) say where.
        let holder = report.reminders.scheduler.flatMap { $0 == report.choice.kind ? nil : " (on \($0.rawValue))" } ?? ""
        rows.append(("Installed", report.installed.map { $0.isEmpty ? "nothing" : $0.joined(separator: ", ") + holder } ?? "unknown"))
        let firing = report.firing.sorted { $0.key < $1.key }
        if !firing.isEmpty {
            rows.append(("Fires", firing.map { (firing.count > 1 ? "\($0.key): " : "") + $0.value }.joined(separator: "; ")))
        }
        if report.settingsProblem == nil {
            let outOfSync = report.outOfSync
            rows.append(("In sync", report.inSync ? "yes" : "no" + (outOfSync.isEmpty ? "" : " (\(outOfSync.joined(separator: "; ")))")))
        }
        let zone = context.zone
        func when(_ time: Instant) -> String { "\(time.shortDisplay(in: zone)) (\(ISO8601.format(time, in: zone)))" }
        // Today's, owed: said before the next run, which is tomorrow's.
        let waits = report.waitingSince != nil ? ": it is sent as soon as one comes, until the day ends" : ""
        rows.append(("Next reminder", (report.reminders.owedWords ?? "")
            + (Presenter.next(report, zone: zone, when: when).map { $0 + waits } ?? "none — \(report.noReminderReason ?? "nothing planned")")))
        rows.append(("Last delivery", report.lastDelivery.map(presenter.recordLine) ?? "none yet"))
        if let attempt = report.lastAttempt {
            rows.append(("Last attempt", presenter.recordLine(attempt) + service.waiterGone(attempt, waiting: report.waiting, on: report.reminders.scheduler)))
        }
        if p.mode == .account && report.settingsProblem == nil {
            rows.append(("Account server", p.accountServer ?? "not set"))
            rows.append(("Device token", AccountCommands(account: account, output: output).describe(account.registrationState())))
        }
        for (label, value) in rows { output.line(Wording.padded(label.hasPrefix(" ") ? label : label + ":", to: 20) + value) }
        for warning in report.warnings { output.warn(warning) }
        return code
    }

    /// Says why the settings cannot be used, and for a file with a mistake in it what to do and
    /// what stays true meanwhile.
    func settingsFailure(_ problem: PreferencesError, prefix: String = "") {
        output.error(prefix + problem.description)
        if problem.isInvalid {
            output.error("fix it with `notif edit`, which checks it before it is saved; until it can be read, notif leaves it and the scheduled reminders as they are")
        }
    }

    /// A reminder's row says what is scheduled, not what would be: `off (09:00 daily when on)`,
    /// `on: 09:00 daily`, or on and why nothing is scheduled.
    static func reminderValue(_ reminder: LocalReminder, report: StatusReport) -> String {
        let p = report.preferences
        let when = reminder.timeFirst
        guard p[reminder.preference] else {
            return p.mode == .account ? "off" : "off (\(when) when on)"
        }
        if let block = LocalReminders.blockReason(for: reminder, in: p) {
            switch block {
            case .masterSwitchOff: return "on, not scheduled: Push Notifications is off"
            case .accountProject: return "on, not scheduled: Account project, reminders come from the server"
            case .permissionDenied, .permissionNotDetermined: return "on, not scheduled: \(block.message(for: reminder))"
            case .preferenceOff: return "off"
            }
        }
        if report.reminders.cannotFire[reminder.id] != nil { return "on: \(when), but its entry cannot fire (see Fires)" }
        if report.installed?.contains(reminder.id) == true { return "on: \(when)" }
        if case .none(.cannotWrite) = report.reminders.next { return "on, not scheduled: notif cannot write its entry; the warnings say why" }
        return "on, not scheduled yet: `notif apply` installs it"
    }

    // MARK: set / permission / apply

    /// `notif set SETTING VALUE`, the value one `setting` takes (the declaration checked it).
    func set(_ setting: Setting, _ value: String) -> ExitCode {
        // Choosing a scheduler is honoured even when it was already the saved one: entries a
        // one-off `--scheduler` put elsewhere move to it.
        var summary = "\(setting.label): \(value)"
        if setting == .scheduler, let kind = context.forcedScheduler, let words = context.forcedSchedulerWords {
            // The override wins this run: the choice is saved, and moves nothing until a run without it.
            summary += "\n" + Self.savedUnderOverride(value, kind: kind, words: words)
        }
        return change(summary, choosing: setting == .scheduler) { setting.applying(value, to: $0)! }
    }

    /// What saving a scheduler choice does while a one-off override is given.
    static func savedUnderOverride(_ value: String, kind: SchedulerKind, words: String) -> String {
        "The choice \(value) is saved; this run uses \(kind.rawValue) because \(words) was given, so the choice takes effect the next time notif runs without it."
    }

    /// `notif permission ACTION`, one the declaration lists: allow (or grant), deny, reset or status.
    func permission(_ action: String) -> ExitCode {
        let target: NotificationPermission
        switch action {
        case "deny": target = .denied
        case "reset": target = .notDetermined
        case "status":
            do {
                output.line(try context.store.load().preferences.permission.word)
                return .success
            } catch {
                settingsFailure(error)
                return .failure
            }
        default: target = .granted
        }
        let said: String
        switch target {
        case .granted: said = "Permission: \(target.word)."
        case .denied: said = "Permission: \(target.word). Reminders are blocked; `notif permission allow` changes it."
        case .notDetermined: said = "Permission: \(target.word). notif asks again the next time a reminder is turned on."
        }
        return change(said) { prefs in
            var copy = prefs
            copy.permission = target
            return copy
        }
    }

    /// Saves a change, then applies the saved settings and reports both.
    func change(_ summary: String, choosing: Bool = false, _ transform: (NotificationPreferences) -> NotificationPreferences) -> ExitCode {
        do {
            try context.store.update { $0 = transform($0) }
        } catch {
            settingsFailure(error, prefix: "nothing was changed: ")
            return .failure
        }
        output.line(summary)
        return applyAndReport(afterSave: true, choosing: choosing)
    }

    func apply() -> ExitCode {
        let code = applyAndReport(afterSave: false)
        // Account projects: a registration that failed before is retried here.
        let registration = account.ensureRegistered()
        if registration != .none {
            output.line("Device token: " + AccountCommands(account: account, output: output).describe(registration))
        }
        return code
    }

    /// `notif edit`: the edit checked and saved (`SettingsEditor`), then applied.
    func edit() -> ExitCode {
        switch SettingsEditor(store: context.store, lookup: context.lookup, output: output).run() {
        case .unchanged:
            // A file left as it was that still does not parse is still the failure it was.
            do throws(PreferencesError) {
                _ = try context.store.load()
                return .success
            } catch {
                output.error("\(error)")
                return .failure
            }
        case .notSaved, .stopped: return .failure
        case .saved: return applyAndReport(afterSave: true)
        }
    }

    private func applyAndReport(afterSave: Bool, choosing: Bool = false) -> ExitCode {
        let outcome: ApplyOutcome
        do {
            outcome = try service.apply(choosing: choosing)
        } catch {
            settingsFailure(error, prefix: (afterSave ? "the setting was saved, but " : "") + "could not apply it: ")
            return .failure
        }
        if let notice = outcome.notice { output.warn(notice) }
        // An entry this notif may not write is refused on every retry, whatever the scheduler.
        let refused = service.untrustedRun() != nil
        // Scheduler warnings matter only when something should fire.
        if !LocalReminders.plan(outcome.preferences).isEmpty && !refused {
            for warning in outcome.choice.warnings { output.warn(warning) }
        }
        for line in presenter.applyLines(outcome) { output.line(line) }
        if !outcome.succeeded {
            let problem = outcome.mayStillFire
                ? "a reminder may still fire: an entry that should be gone could not be removed (see above)"
                : "the scheduler does not match " + (afterSave ? "it" : "the settings") + " yet"
            output.error((afterSave ? "the setting was saved, but " : "") + problem + "; `notif status` shows what differs"
                         + (refused ? "" : " and `notif apply` retries"))
            return .failure
        }
        return .success
    }

    // MARK: deliver / test / history

    /// `--quiet` is not seen here: `NotifMain` has already silenced the output.
    func deliver(_ reminder: LocalReminder) -> ExitCode {
        // A scheduled run is where entries that drifted out of sync (a changed system zone) mend.
        service.mendEntries()
        let record = service.deliver(reminder)
        output.line(presenter.recordLine(record))
        return record.outcome == .failed ? .failure : .success
    }

    func test() -> ExitCode {
        // Nothing is sent before notifications are allowed: say so, with the way to allow them.
        let preferences: NotificationPreferences
        do {
            preferences = try context.store.load().preferences
        } catch {
            settingsFailure(error, prefix: "the test notification was not sent: ")
            return .failure
        }
        if preferences.permission != .granted {
            output.error("the test notification was not sent: permission is \(preferences.permission.word); "
                + "`notif permission allow` allows notifications")
            return .failure
        }
        let record = service.test()
        switch record.outcome {
        case .delivered:
            output.line("Test notification \(record.detail).")
            return .success
        case .skipped, .failed, .turnedOff, .waiting, .missed:
            output.error("the test notification was not sent: \(record.detail)")
            return .failure
        }
    }

    func history(limit: Int, json: Bool) -> ExitCode {
        // Settings that cannot be read are said, as `status` says them, and exit 1; this
        // machine's own records are listed all the same (they need no settings).
        var code = ExitCode.success
        do {
            if try context.store.load().preferences.mode == .account { return serverHistory(limit: limit, json: json) }
        } catch {
            settingsFailure(error)
            code = .failure
        }
        do {
            let records = try json ? context.deliveryLog.newest(limit) : service.history(limit)
            if records.isEmpty && !json { output.line("No deliveries yet.") }
            for record in records {
                if json { output.json(JSONWriter.compact(record.json)) } else { output.line(presenter.recordLine(record)) }
            }
            return code
        } catch {
            output.error(error.description)
            return .failure
        }
    }

    /// Account projects: the server's notification history (or the cached copy, marked).
    func serverHistory(limit: Int, json: Bool) -> ExitCode {
        do {
            let history = try account.history()
            if let cachedAt = history.cachedAt {
                output.warn("showing the copy from \(cachedAt): \(history.problem?.message ?? "the server could not be reached")")
            }
            if history.items.isEmpty && !json { output.line("No notifications from the server yet.") }
            for item in history.items.prefix(limit) {
                if json {
                    output.json(JSONWriter.compact(item.json.setting("cached", to: .bool(history.cachedAt != nil))))
                } else {
                    // The server's words, with any control characters shown, never sent to the terminal.
                    let (sentAt, title, body) = (TerminalText.safe(item.sentAt, limit: .max), TerminalText.safe(item.title, limit: .max),
                                                 TerminalText.safe(item.body, limit: .max))
                    output.line("\(sentAt)  \(title)" + (body.isEmpty ? "" : ": \(body)"))
                }
            }
            return .success
        } catch {
            output.error(error.message)
            return .failure
        }
    }
}
