import SharedLogic
import Storage

/// Everything `notif status` and the page's status area show: settings, scheduler, planned vs
/// installed entries, whether they agree, the next reminder and the last delivery.
public struct StatusReport: Sendable {
    public var preferences: NotificationPreferences
    public var notice: String?
    public var choice: SchedulerChoice
    /// Whether the chosen scheduler will fire now (`notif daemon is not running`...), or nil when nothing needs saying.
    public var schedulerState: String?
    public var planned: [String]
    /// Entries found on the chosen scheduler (nil when it could not be read or there is none).
    public var installed: [String]?
    /// Planned entries missing or different from what apply would write, and entries not planned.
    public var outOfSync: [String]
    /// When each installed entry really fires, in words, by reminder id
    /// (`cron at 03:30 system time (Etc/UTC), 09:00 in Asia/Kolkata`).
    public var firing: [String: String] = [:]
    public var nextReminder: Instant?
    /// Why there is no next reminder (`Tips & Updates is off`, `permission needed`...).
    public var noReminderReason: String?
    public var lastDelivery: DeliveryRecord?
    public var warnings: [String]
    /// Each scheduler: whether it can hold the entries here and fire them, and why.
    public var schedulers: [SchedulerUsability] = []

    /// Entries match the plan. With nothing planned and no readable scheduler there is nothing to disagree with.
    public var inSync: Bool { outOfSync.isEmpty && (installed != nil || planned.isEmpty) }
}

extension ReminderService {
    /// Reads the current state without changing anything (apart from moving a corrupt settings file aside).
    public func status() throws(PreferencesError) -> StatusReport {
        let loaded = try context.store.load()
        let preferences = loaded.preferences
        let probe = context.probe()
        let placed = placement()
        let choice = schedulerChoice(for: preferences, placement: placed, probe: probe, choosing: false)
        let planned = LocalReminders.plan(preferences)
        var warnings = choice.warnings
        var installed: [String: String]?
        var outOfSync: [String] = []
        var firing: [String: String] = [:]
        if let kind = choice.kind, let gateway = gateway(for: kind) {
            do {
                let found = try gateway.installed()
                installed = found
                for (id, text) in found {
                    if let words = gateway.firing(text, userZone: context.zone) { firing[id] = words }
                }
                for reminder in planned {
                    let want: String?
                    do {
                        want = try gateway.render(entry(for: reminder))
                    } catch {
                        want = nil
                        if !warnings.contains(error.message) { warnings.append(error.message) }
                    }
                    if found[reminder.id] == nil {
                        outOfSync.append("\(reminder.id) is planned but not installed")
                    } else if found[reminder.id] != want {
                        // systemd reports a timer whose files are right but whose link is missing this way.
                        let notEnabled = want.map { found[reminder.id] == $0 + "(not enabled)\n" } ?? false
                        outOfSync.append(notEnabled ? "\(reminder.id) is installed but its timer is not enabled" : "\(reminder.id) is installed with another command or for another zone")
                    }
                }
                for id in found.keys.sorted() where !planned.contains(where: { $0.id == id }) {
                    outOfSync.append("\(id) is installed but not planned")
                }
                for (id, text) in found.sorted(by: { $0.key < $1.key }) where text.contains("/.build/") {
                    warnings.append("the \(id) entry runs notif from a build folder; run `make install` and then `notif apply` so it points at a stable path")
                }
            } catch {
                // Unknown is not in sync, even with nothing planned: an entry may still be there.
                outOfSync.append("the \(gateway.name) entries could not be read")
                warnings.append("cannot read the \(gateway.name) entries: \(error.message)")
            }
            if let recorded = placed?.holder, recorded != kind {
                warnings.append("entries were last installed with \(recorded.rawValue); `notif apply` moves them to \(kind.rawValue) (\(choice.why))")
            }
        } else if !planned.isEmpty {
            outOfSync.append(contentsOf: planned.map { "\($0.id) is planned but no scheduler can hold it" })
        }

        let now = context.clock.now()
        let armed = planned.filter { installed?[$0.id] != nil }
        let next = armed.map { ReminderClock.nextFire(of: $0.time, after: now, in: context.zone) }.min()
        var reason: String?
        if next == nil {
            if let first = LocalReminders.all.first, let block = LocalReminders.blockReason(for: first, in: preferences) {
                reason = block == .preferenceOff || block == .masterSwitchOff ? "off (\(block.message(for: first)))" : block.message(for: first)
            } else if choice.kind == nil {
                reason = "no scheduler available"
            } else {
                reason = "not scheduled (`notif apply` installs it)"
            }
        }
        let last = try? context.deliveryLog.newest(1) { $0.kind != .test && $0.kind != .button }.first
        return StatusReport(
            preferences: preferences, notice: loaded.notice, choice: choice,
            schedulerState: choice.kind.flatMap { Self.state(of: $0, probe: probe) },
            planned: planned.map(\.id), installed: installed.map { $0.keys.sorted() },
            outOfSync: outOfSync, firing: firing, nextReminder: next, noReminderReason: reason,
            lastDelivery: last ?? nil, warnings: warnings, schedulers: SchedulerUsability.all(probe: probe))
    }

    /// A few words on whether `kind` fires on this machine now.
    static func state(of kind: SchedulerKind, probe: SchedulerProbe) -> String? {
        switch kind {
        case .systemd: return probe.systemdUserManagerRunning ? "user manager running" : "no systemd user manager: starts at next login"
        case .cron: return probe.cronDaemonRunning ? nil : "the cron daemon is not running"
        case .embedded: return probe.embeddedDaemonRunning ? "notif daemon running" : "notif daemon is not running"
        }
    }

    /// `status --json`.
    public func json(_ report: StatusReport) -> JSONValue {
        let preferences = report.preferences
        var prefs: [JSONMember] = PreferenceToggle.allCases.map { JSONMember($0.jsonKey, .bool(preferences[$0])) }
        prefs.insert(JSONMember("sound", .string(preferences.sound.rawValue)), at: prefs.count - 1)
        prefs.append(JSONMember("onboardingCompleted", .bool(preferences.onboardingCompleted)))
        return .object([
            JSONMember("mode", .string(preferences.mode.rawValue)),
            JSONMember("preferences", .object(prefs)),
            JSONMember("permission", .string(preferences.permission.rawValue)),
            JSONMember("scheduler", report.choice.kind.map { .string($0.rawValue) } ?? .null),
            JSONMember("schedulerChoice", .string(report.choice.preference.rawValue)),
            JSONMember("schedulerForced", .bool(report.choice.forced)),
            JSONMember("schedulerReason", .string(report.choice.why)),
            JSONMember("schedulers", .array(report.schedulers.map { usability in
                .object([
                    JSONMember("name", .string(usability.kind.rawValue)),
                    JSONMember("state", .string(usability.state.word)),
                    JSONMember("reason", .string(usability.reason)),
                ])
            })),
            JSONMember("schedulerState", report.schedulerState.map { .string($0) } ?? .null),
            JSONMember("planned", .array(report.planned.map { .string($0) })),
            JSONMember("installed", report.installed.map { .array($0.map { .string($0) }) } ?? .null),
            JSONMember("inSync", .bool(report.inSync)),
            JSONMember("outOfSync", .array(report.outOfSync.map { .string($0) })),
            JSONMember("firing", .object(report.firing.keys.sorted().map { JSONMember($0, .string(report.firing[$0]!)) })),
            JSONMember("nextReminder", report.nextReminder.map { .string(ISO8601.format($0, in: context.zone)) } ?? .null),
            JSONMember("nextReminderNone", report.noReminderReason.map { .string($0) } ?? .null),
            JSONMember("lastDelivery", report.lastDelivery?.json ?? .null),
            JSONMember("warnings", .array((report.warnings + (report.notice.map { [$0] } ?? [])).map { .string($0) })),
        ])
    }
}
