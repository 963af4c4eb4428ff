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

    /// The argv used for one notification.
    public static func command(summary: String, body: String) -> [String] {
        ["notify-send", "--app-name=notif", "--urgency=normal", "--expire-time=10000", "--print-id", "--", summary, body]
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
