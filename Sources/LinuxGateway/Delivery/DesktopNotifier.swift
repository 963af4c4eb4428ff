import SharedLogic
import Storage

/// Shows notifications through the freedesktop notification service with `notify-send`
/// (app name notif), always within a time limit.
public struct DesktopNotifier: Sendable {
    let runner: any ProcessRunner
    let timeout: Double

    public init(runner: any ProcessRunner, timeout: Double = 10) {
        self.runner = runner
        self.timeout = timeout
    }

    /// The argv used for one notification.
    public static func command(summary: String, body: String) -> [String] {
        ["notify-send", "--app-name=notif", "--urgency=normal", "--expire-time=10000", "--print-id", "--", summary, body]
    }

    /// Tries each session environment in turn. Success: which session showed it (and its id);
    /// failure: why, from the last attempt.
    public func show(summary: String, body: String, environments: [(source: String, changes: [String: String?])]) -> Result<String, GatewayError> {
        guard !environments.isEmpty else {
            return .failure(GatewayError("no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set, no session was recorded (run `notif apply` inside your desktop session), and no user bus exists"))
        }
        var lastProblem = ""
        // One time limit for the whole delivery, however many sessions are tried: a hanging
        // notification service must not hold a scheduled job for a multiple of it.
        let deadline = SpawnProcessRunner.monotonicNow() + timeout
        for environment in environments {
            let remaining = deadline - SpawnProcessRunner.monotonicNow()
            guard remaining > 0.05 else {
                lastProblem += "; gave up after \(Int(timeout)) s"
                break
            }
            do {
                let result = try runner.run(Self.command(summary: summary, body: body), input: nil,
                                            environment: environment.changes, timeout: remaining)
                if result.succeeded {
                    let id = result.stdoutText.split(whereSeparator: \.isNewline).first.map { " as notification \($0)" } ?? ""
                    return .success("shown through \(environment.source)\(id)")
                }
                lastProblem = "notify-send via \(environment.source): \(result.failureSummary)"
            } catch {
                return .failure(GatewayError(error.notFound
                    ? "notify-send is not installed (Debian: apt install libnotify-bin)" : error.description))
            }
        }
        return .failure(GatewayError(lastProblem))
    }
}
