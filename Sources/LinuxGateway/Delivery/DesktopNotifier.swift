import SharedLogic
import Storage

/// Shows notifications through the freedesktop notification service with `notify-send`
/// (app name notif, notif's icon, the `desktop-entry` hint), always within a time limit. A
/// reminder with buttons goes to a detached waiter (`ActionHandoff`) when the service says it
/// supports actions (asked over notif's own D-Bus connection); the bubble is shown without
/// buttons otherwise.
public struct DesktopNotifier: Sendable {
    let runner: any ProcessRunner
    let timeout: Double
    let icon: String
    /// What the service on a session can do (the session's variables as changes to this
    /// process's, and seconds it may take); nil when it cannot be asked.
    let capabilities: @Sendable ([String: String?], Double) -> Set<String>?

    /// - Parameter timeout: seconds each session's notification service may take.
    public init(runner: any ProcessRunner, timeout: Double = 5, icon: String = AppIcon.name,
                capabilities: @escaping @Sendable ([String: String?], Double) -> Set<String>? = DesktopNotifier.askCapabilities) {
        self.runner = runner
        self.timeout = timeout
        self.icon = icon
        self.capabilities = capabilities
    }

    /// `GetCapabilities` on the session's bus, over notif's own connection.
    @Sendable public static func askCapabilities(_ environment: [String: String?], timeout: Double) -> Set<String>? {
        let address = environment["DBUS_SESSION_BUS_ADDRESS"] ?? Posix.environment("DBUS_SESSION_BUS_ADDRESS")
        guard let address, !address.isEmpty else { return nil }
        let deadline = SpawnProcessRunner.monotonicNow() + timeout
        return try? NotificationBus(address: address, deadline: deadline).capabilities(deadline: deadline)
    }

    /// The summary shown when the one given is empty or blank (notify-send refuses an empty one).
    public static let fallbackSummary = "notif"

    /// The argv used for one notification: the summary and body made safe first
    /// (`safeSummary`, `safeBody`), and a button per action.
    public static func command(summary: String, body: String, icon: String = AppIcon.name, actions: [ReminderAction] = []) -> [String] {
        ["notify-send", "--app-name=notif", "--icon=\(icon)", "--hint=string:desktop-entry:\(AppIcon.desktopEntry)",
         "--urgency=normal", "--expire-time=10000", "--print-id"] + actions.map(\.argument)
            + ["--", safeSummary(summary), safeBody(body)]
    }

    /// A summary the notification service shows as plain text: control characters and
    /// bidirectional overrides removed (a line break becomes a space), `<` and `>` replaced by
    /// `‹` and `›` (some services, dunst among them, apply markup to the summary too; `&` alone
    /// starts no tag and stays, so `Tips & Updates` is shown as it is). Blank: `fallbackSummary`.
    public static func safeSummary(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r", "\t": out.append(" ")
            case "<": out.append("\u{2039}")
            case ">": out.append("\u{203A}")
            default: if !TerminalText.needsEscape(scalar) { out.append(scalar) }
            }
        }
        let summary = String(out)
        return summary.allSatisfy(\.isWhitespace) ? fallbackSummary : summary
    }

    /// A body no markup in it can act on: the freedesktop spec lets a service interpret body
    /// markup (`<a href>`, `<img src="file:///...">`), so `&`, `<` and `>` are sent as `&amp;`,
    /// `&lt;` and `&gt;`; control characters other than a line break, and bidirectional
    /// overrides, are removed.
    public static func safeBody(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\n": out += "\n"
            default: if !TerminalText.needsEscape(scalar) { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// Tries each session environment in turn. Success: which session showed it (and its id);
    /// failure: why, from every attempt. With `handoff`, a service that lists "actions" gets
    /// the reminder with its buttons from the handoff's detached waiter.
    public func show(summary: String, body: String, environments: [(source: String, changes: [String: String?])],
                     handoff: (any ActionHandoff)? = nil) -> Result<String, GatewayError> {
        guard !environments.isEmpty else {
            return .failure(GatewayError("no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set, no user bus runs, and no recorded session is served by you (run `notif apply` inside your desktop session)"))
        }
        var problems: [String] = []
        // Each session its own short time limit: a service that hangs (perhaps one another user
        // put on a stale address) must not keep the notification from the next session.
        for environment in environments {
            let deadline = SpawnProcessRunner.monotonicNow() + timeout
            var withoutButtons = ""
            if let handoff, supportsActions(environment.changes, timeout: timeout) {
                let remaining = max(0.5, deadline - SpawnProcessRunner.monotonicNow())
                switch handoff.start(environment: environment.changes, timeout: remaining) {
                case .success(let id):
                    return .success("shown through \(environment.source) as notification \(id), with \(ReminderAction.allCases.map(\.label).joined(separator: " and "))")
                case .failure(let error):
                    // The bubble without buttons is still worth a try on this session.
                    withoutButtons = " (without buttons: \(error.message))"
                }
            }
            do {
                let remaining = max(0.5, deadline - SpawnProcessRunner.monotonicNow())
                let result = try runner.run(Self.command(summary: summary, body: body, icon: icon), input: nil,
                                            environment: environment.changes, timeout: remaining)
                if result.succeeded {
                    let id = result.stdoutText.split(whereSeparator: \.isNewline).first.map { " as notification \($0)" } ?? ""
                    return .success("shown through \(environment.source)\(id)\(withoutButtons)")
                }
                problems.append("notify-send via \(environment.source): \(result.failureSummary)\(withoutButtons)")
            } catch {
                return .failure(GatewayError(error.notFound
                    ? "notify-send is not installed (Debian: apt install libnotify-bin)" : error.description))
            }
        }
        return .failure(GatewayError(problems.joined(separator: "; ")))
    }

    /// Whether the service on this session lists "actions". Unknown (no answer) is no.
    func supportsActions(_ environment: [String: String?], timeout: Double) -> Bool {
        capabilities(environment, timeout)?.contains("actions") ?? false
    }
}
