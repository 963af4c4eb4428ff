import AccountClient
import Glibc
import LinuxGateway
import SharedLogic
import Storage

/// Runs one command against a context; each returns the process exit code.
struct Commands {
    let context: NotifContext
    let output: Output
    var service: ReminderService { ReminderService(context: context) }
    var presenter: Presenter {
        let service = self.service
        return Presenter(zone: context.zone, clock: context.clock, removalHint: service.removalHint)
    }
    var account: AccountService {
        AccountService(reminders: service, transport: CurlTransport(runner: context.runner), appVersion: NotifVersion.current)
    }

    func run(_ command: String, _ args: [String]) throws(UsageError) -> ExitCode {
        switch command {
        case "status": return try status(args)
        case "set": return try set(args)
        case "permission": return try permission(args)
        case "apply": return try apply(args)
        case "deliver": return try deliver(args)
        case "history": return try history(args)
        case "test": return try test(args)
        case "account": return try AccountCommands(account: account, output: output).run(args)
        case "daemon": return try daemon(args)
        case "reset": return try reset(args)
        case DetachedActionWaiter.command: return try reminderActions(args)
        default:
            throw UsageError(message: "unknown command '\(command)'", command: nil)
        }
    }

    // MARK: status

    func status(_ args: [String]) throws(UsageError) -> ExitCode {
        let json = try flags(args, allowed: ["--json"], command: "status").contains("--json")
        let report: StatusReport
        do {
            report = try service.status()
        } catch {
            output.error(error.description)
            return .failure
        }
        if json {
            var document = service.json(report)
            if report.preferences.mode == .account {
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
            return .success
        }
        if let notice = report.notice { output.warn(notice) }
        let p = report.preferences
        var rows: [(String, String)] = [("Mode", p.mode.rawValue)]
        for setting in Setting.all {
            var value = setting.value(in: p)
            if case .toggle(let toggle) = setting, toggle.dependsOnMaster, !p.pushNotifications { value += " (inactive: Push Notifications is off)" }
            if case .toggle(let toggle) = setting, let reminder = LocalReminders.all.first(where: { $0.preference == toggle }) {
                value = Self.reminderValue(reminder, report: report)
            }
            if setting == .scheduler && !report.choice.why.isEmpty { value += " — \(report.choice.why)" }
            rows.append((setting.label, value))
        }
        rows.append(("Permission", p.permission.word))
        let notes = (report.choice.forced ? ["forced"] : []) + (report.schedulerState.map { [$0] } ?? [])
        let scheduler = report.choice.kind.map { $0.rawValue + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))") } ?? "none"
        rows.append(("Scheduler", scheduler))
        // Each scheduler, indented under the one in use (no colon: these are not rows of their own).
        for usability in report.schedulers {
            rows.append(("  " + usability.kind.rawValue, usability.state.word + ": " + usability.reason))
        }
        rows.append(("Planned", report.planned.isEmpty ? "nothing" : report.planned.joined(separator: ", ")))
        rows.append(("Installed", report.installed.map { $0.isEmpty ? "nothing" : $0.joined(separator: ", ") } ?? "unknown"))
        let firing = report.firing.sorted { $0.key < $1.key }
        if !firing.isEmpty {
            rows.append(("Fires", firing.map { (firing.count > 1 ? "\($0.key): " : "") + $0.value }.joined(separator: "; ")))
        }
        let outOfSync = report.outOfSync
        rows.append(("In sync", report.inSync ? "yes" : "no" + (outOfSync.isEmpty ? "" : " (\(outOfSync.joined(separator: "; ")))")))
        rows.append(("Next reminder", report.nextReminder.map {
            "\($0.shortDisplay(in: context.zone)) (\(ISO8601.format($0, in: context.zone)))"
        } ?? "none — \(report.noReminderReason ?? "nothing planned")"))
        rows.append(("Last delivery", report.lastDelivery.map(presenter.recordLine) ?? "none yet"))
        if p.mode == .account {
            rows.append(("Account server", p.accountServer ?? "not set"))
            rows.append(("Device token", AccountCommands(account: account, output: output).describe(account.registrationState())))
        }
        for (label, value) in rows { output.line((label.hasPrefix(" ") ? label : label + ":").padded(to: 20) + value) }
        for warning in report.warnings { output.warn(warning) }
        return .success
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
        return "on, not scheduled yet: `notif apply` installs it"
    }

    // MARK: set / permission / apply

    func set(_ args: [String]) throws(UsageError) -> ExitCode {
        guard args.count == 2 else {
            throw UsageError(message: args.count < 2 ? "set needs a SETTING and a VALUE" : "set takes exactly a SETTING and a VALUE", command: "set")
        }
        guard let setting = Setting(name: args[0]) else {
            throw UsageError(message: "unknown setting '\(args[0])'; settings: \(Setting.all.map(\.name).joined(separator: ", "))", command: "set")
        }
        guard setting.applying(args[1], to: NotificationPreferences()) != nil else {
            throw UsageError(message: "'\(args[1])' is not a value for \(setting.name); use \(setting.values.joined(separator: " or "))", command: "set")
        }
        // Choosing a scheduler is honoured even when it was already the saved one: entries a
        // one-off `--scheduler` put elsewhere move to it.
        return change("\(setting.label): \(args[1])", choosing: setting == .scheduler) { setting.applying(args[1], to: $0)! }
    }

    func permission(_ args: [String]) throws(UsageError) -> ExitCode {
        guard args.count == 1 else {
            throw UsageError(message: "permission needs one of allow, deny, reset, status", command: "permission")
        }
        let target: NotificationPermission
        switch args[0] {
        case "allow", "grant": target = .granted
        case "deny": target = .denied
        case "reset": target = .notDetermined
        case "status":
            do {
                let loaded = try context.store.load()
                if let notice = loaded.notice { output.warn(notice) }
                output.line(loaded.preferences.permission.word)
                return .success
            } catch {
                output.error(error.description)
                return .failure
            }
        default:
            throw UsageError(message: "unknown permission action '\(args[0])'; use allow, deny, reset or status", command: "permission")
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
            let result = try context.store.update { $0 = transform($0) }
            if let notice = result.before.notice { output.warn(notice) }
        } catch {
            output.error("nothing was changed: \(error)")
            return .failure
        }
        output.line(summary)
        return applyAndReport(afterSave: true, choosing: choosing)
    }

    func apply(_ args: [String]) throws(UsageError) -> ExitCode {
        _ = try flags(args, allowed: [], command: "apply")
        let code = applyAndReport(afterSave: false)
        // Account projects: a registration that failed before is retried here.
        let registration = account.ensureRegistered()
        if registration != .none {
            output.line("Device token: " + AccountCommands(account: account, output: output).describe(registration))
        }
        return code
    }

    private func applyAndReport(afterSave: Bool, choosing: Bool = false) -> ExitCode {
        let outcome: ApplyOutcome
        do {
            outcome = try service.apply(choosing: choosing)
        } catch {
            output.error((afterSave ? "the setting was saved, but " : "") + "could not apply it: \(error)")
            return .failure
        }
        if let notice = outcome.notice { output.warn(notice) }
        // Scheduler warnings matter only when something should fire.
        if !LocalReminders.plan(outcome.preferences).isEmpty {
            for warning in outcome.choice.warnings { output.warn(warning) }
        }
        for line in presenter.applyLines(outcome) { output.line(line) }
        if !outcome.succeeded {
            let problem = outcome.mayStillFire
                ? "a reminder may still fire: an entry that should be gone could not be removed (see above)"
                : "the scheduler does not match " + (afterSave ? "it" : "the settings") + " yet"
            output.error((afterSave ? "the setting was saved, but " : "") + problem + "; `notif status` shows what differs and `notif apply` retries")
            return .failure
        }
        return .success
    }

    // MARK: deliver / test / history

    func deliver(_ args: [String]) throws(UsageError) -> ExitCode {
        var catchUp = false
        var ids: [String] = []
        for arg in args {
            // --quiet: NotifMain has already silenced the output.
            if arg == "--quiet" { continue }
            if arg == "--catch-up" { catchUp = true } else if arg.hasPrefix("-") {
                throw UsageError(message: "unknown option '\(arg)' for deliver", command: "deliver")
            } else { ids.append(arg) }
        }
        guard ids.count == 1 else { throw UsageError(message: "deliver needs exactly one reminder ID", command: "deliver") }
        guard let reminder = LocalReminders.reminder(id: ids[0]) else {
            throw UsageError(message: "unknown reminder '\(ids[0])'; reminders: \(LocalReminders.all.map(\.id).joined(separator: ", "))", command: "deliver")
        }
        let record = service.deliver(reminder, kind: catchUp ? .catchUp : .scheduled)
        output.line(presenter.recordLine(record))
        return record.outcome == .failed ? .failure : .success
    }

    func test(_ args: [String]) throws(UsageError) -> ExitCode {
        _ = try flags(args, allowed: [], command: "test")
        // Nothing is shown before notifications are allowed: say so, with the way to allow them.
        if let preferences = try? context.store.load().preferences, preferences.permission != .granted {
            output.error("the test notification was not sent: permission is \(preferences.permission.word); "
                + "`notif permission allow` allows notifications")
            return .failure
        }
        let record = service.deliver(LocalReminders.testNotification, kind: .test)
        switch record.outcome {
        case .delivered:
            output.line("Test notification \(record.detail).")
            return .success
        case .skipped, .failed:
            output.error("the test notification was not shown: \(record.detail)")
            return .failure
        }
    }

    func history(_ args: [String]) throws(UsageError) -> ExitCode {
        var limit = 20
        var json = false
        var index = 0
        while index < args.count {
            let arg = args[index]
            if arg == "--json" {
                json = true
            } else if let value = Self.optionValue(arg, short: "-n", long: "--limit") {
                // `-n 5`, `-n5`, `--limit 5`, `--limit=5`.
                let text: String
                if let value {
                    text = value
                } else {
                    index += 1
                    guard index < args.count else { throw UsageError(message: "\(arg) needs a number", command: "history") }
                    text = args[index]
                }
                limit = try Self.count(text, for: arg.hasPrefix("--") ? "--limit" : "-n", command: "history")
            } else {
                throw UsageError(message: "unknown argument '\(arg)' for history", command: "history")
            }
            index += 1
        }
        if (try? context.store.load().preferences.mode) == .account {
            return serverHistory(limit: limit, json: json)
        }
        do {
            let records = try context.deliveryLog.newest(limit)
            if records.isEmpty && !json { output.line("No deliveries yet.") }
            for record in records {
                if json { output.json(JSONWriter.compact(record.json)) } else { output.line(presenter.recordLine(record)) }
            }
            return .success
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

    /// For an option spelled `short`/`long`: nil when `arg` is neither; `.some(nil)` when the
    /// value is the next argument; `.some(value)` when it is attached (`-n5`, `--limit=5`).
    static func optionValue(_ arg: String, short: String, long: String) -> String?? {
        if arg == short || arg == long { return .some(nil) }
        if arg.hasPrefix(long + "=") { return .some(String(arg.dropFirst(long.count + 1))) }
        if arg.hasPrefix(short) && !arg.hasPrefix("--") && arg.count > short.count { return .some(String(arg.dropFirst(short.count))) }
        return nil
    }

    /// A positive whole number for `option`, or a usage error that says what is wrong with it.
    static func count(_ text: String, for option: String, command: String, minimum: Int = 1) throws(UsageError) -> Int {
        switch WholeNumber.parse(text, minimum: Int64(minimum)) {
        case .value(let n): return Int(n)
        case .tooLarge: throw UsageError(message: "\(option) \(text) is too large (at most \(Int64.max))", command: command)
        case .tooSmall: throw UsageError(message: "\(option) needs a number of \(minimum) or more, not \(text)", command: command)
        case .notANumber: throw UsageError(message: "\(option) needs a whole number, not '\(text)'", command: command)
        }
    }

    /// Checks that `args` are only the given flags.
    private func flags(_ args: [String], allowed: Set<String>, command: String) throws(UsageError) -> Set<String> {
        for arg in args where !allowed.contains(arg) {
            throw UsageError(message: "unexpected argument '\(arg)' for \(command)", command: command)
        }
        return Set(args)
    }
}
