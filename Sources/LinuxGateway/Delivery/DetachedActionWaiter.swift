import Glibc
import SharedLogic
import Storage

/// The real `ActionHandoff`: starts `notif __reminder-actions ID` in a session of its own
/// (`setsid --fork`, so it is nobody's child and holds no scheduler's pipe) and reads one status
/// line from it: `shown ID` once the service accepted the notification, or `failed REASON`.
/// The waiter then waits for a button on its own, for a bounded time.
///
/// A systemd service (the reminder's timer starts one) ends by killing every process left in
/// its cgroup; there the waiter is started in a scope of its own with `systemd-run --user
/// --scope`, and without it if that fails.
public struct DetachedActionWaiter: ActionHandoff {
    /// The hidden command the waiter runs.
    public static let command = "__reminder-actions"

    let program: String
    let reminderID: String
    let inSystemdUnit: Bool

    /// - Parameters:
    ///   - program: notif's own executable.
    ///   - inSystemdUnit: this process runs in a systemd unit (`INVOCATION_ID` is set).
    public init(program: String, reminderID: String, inSystemdUnit: Bool) {
        self.program = program
        self.reminderID = reminderID
        self.inSystemdUnit = inSystemdUnit
    }

    /// The waiter's argv, without the launcher.
    func waiterArguments(timeout: Double) -> [String] {
        [program, Self.command, reminderID, "--show-within", String(max(100, Int(timeout * 1000)))]
    }

    public func start(environment: [String: String?], timeout: Double) -> Result<String, GatewayError> {
        let waiter = ["setsid", "--fork"] + waiterArguments(timeout: timeout)
        if inSystemdUnit {
            let scoped = ["systemd-run", "--user", "--scope", "--quiet", "--collect",
                          "--description=notif: the buttons of a reminder"] + waiter
            if case .answer(let result) = launch(scoped, environment: environment, timeout: timeout) { return result }
        }
        switch launch(waiter, environment: environment, timeout: timeout) {
        case .answer(let result): return result
        case .launcherFailed(let why): return .failure(GatewayError("the waiter for the reminder's buttons did not start: \(why)"))
        }
    }

    enum Launch {
        case answer(Result<String, GatewayError>)
        case launcherFailed(String)
    }

    /// Starts `argv` and reads the waiter's status line within `timeout` (and a second more,
    /// for the waiter's own start).
    func launch(_ argv: [String], environment: [String: String?], timeout: Double) -> Launch {
        let child: StreamingChild
        do {
            child = try StreamingChild(argv, environment: environment)
        } catch {
            return .launcherFailed(error.description)
        }
        // Only the launcher is stopped here (it has exited by now); the waiter has a session of its own.
        defer { child.stop() }
        switch child.nextLine(until: SpawnProcessRunner.monotonicNow() + timeout + 1) {
        case .line(let line):
            if line.hasPrefix("shown ") { return .answer(.success(String(line.dropFirst("shown ".count)))) }
            if line.hasPrefix("failed ") { return .answer(.failure(GatewayError(String(line.dropFirst("failed ".count))))) }
            return .launcherFailed("it said \(line.debugDescription)")
        case .ended(let how):
            return .launcherFailed(how)
        case .timedOut:
            return .answer(.failure(GatewayError("the notification service did not answer in time")))
        }
    }
}
