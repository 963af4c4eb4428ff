import SharedLogic
import Storage

/// Shows notifications through the freedesktop notification service with `notify-send`
/// (app name notif), always within a time limit.
public struct DesktopNotifier: Sendable {
    let runner: any ProcessRunner
    let timeout: Double

    /// - Parameter timeout: seconds each session's notification service may take.
    public init(runner: any ProcessRunner, timeout: Double = 5) {
        self.runner = runner
        self.timeout = timeout
    }

    /// The summary shown when the one given is empty or blank (notify-send refuses an empty one).
    public static let fallbackSummary = "notif"

    /// The argv used for one notification: the summary and body made safe first
    /// (`safeSummary`, `safeBody`).
    public static func command(summary: String, body: String) -> [String] {
        ["notify-send", "--app-name=notif", "--urgency=normal", "--expire-time=10000", "--print-id", "--",
         safeSummary(summary), safeBody(body)]
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
    /// failure: why, from every attempt.
    public func show(summary: String, body: String, environments: [(source: String, changes: [String: String?])]) -> Result<String, GatewayError> {
        guard !environments.isEmpty else {
            return .failure(GatewayError("no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set, no user bus runs, and no recorded session is served by you (run `notif apply` inside your desktop session)"))
        }
        var problems: [String] = []
        // Each session its own short time limit: a service that hangs (perhaps one another user
        // put on a stale address) must not keep the notification from the next session.
        for environment in environments {
            do {
                let result = try runner.run(Self.command(summary: summary, body: body), input: nil,
                                            environment: environment.changes, timeout: timeout)
                if result.succeeded {
                    let id = result.stdoutText.split(whereSeparator: \.isNewline).first.map { " as notification \($0)" } ?? ""
                    return .success("shown through \(environment.source)\(id)")
                }
                problems.append("notify-send via \(environment.source): \(result.failureSummary)")
            } catch {
                return .failure(GatewayError(error.notFound
                    ? "notify-send is not installed (Debian: apt install libnotify-bin)" : error.description))
            }
        }
        return .failure(GatewayError(problems.joined(separator: "; ")))
    }
}
