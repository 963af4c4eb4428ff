import SharedLogic
import Storage

/// The reminder's waiter, started for `deliver`: `notif __reminder-actions ID --day DAY` in a
/// session of its own (`setsid --fork`, so it is nobody's child and holds no scheduler's pipe).
/// It shows the reminder (with its buttons where the service has them) or, when no notification
/// service can be reached, waits for one until the day ends; its first status line says which
/// (`HandoffAnswer`). Then it goes on alone: waiting for the service, or for a button.
///
/// A systemd service (the reminder's timer starts one) ends by killing every process left in
/// its cgroup; there the waiter is started in a scope of its own with `systemd-run --user
/// --scope`, and without it if that fails. Both programs are found by absolute path (`SystemProgram`).
public struct DetachedActionWaiter {
    /// The hidden command the waiter runs.
    public static let command = "__reminder-actions"
    /// Seconds the waiter's first try may take (each bus at most 5 s of it).
    public static let firstTry: Double = 10

    let program: String
    let reminderID: String
    let day: CivilDate
    let inSystemdUnit: Bool
    /// This process's `PATH` (looked on first; the standard directories after it).
    let searchPath: String?
    let isExecutable: (String) -> Bool

    /// - Parameters:
    ///   - program: notif's own executable.
    ///   - day: the local day whose reminder it shows.
    ///   - inSystemdUnit: this process runs in a systemd unit (`INVOCATION_ID` is set).
    public init(program: String, reminderID: String, day: CivilDate, inSystemdUnit: Bool, searchPath: String?,
                isExecutable: @escaping (String) -> Bool = { FileIO.isExecutable($0) }) {
        self.program = program
        self.reminderID = reminderID
        self.day = day
        self.inSystemdUnit = inSystemdUnit
        self.searchPath = searchPath
        self.isExecutable = isExecutable
    }

    /// The waiter's argv, without the launcher.
    func waiterArguments() -> [String] {
        [program, Self.command, reminderID, "--day", day.description, "--show-within", String(Int(Self.firstTry * 1000))]
    }

    /// Starts the waiter and reads its answer; failure: why it could not be started.
    public func start() -> Result<HandoffAnswer, GatewayError> {
        guard let setsid = SystemProgram.path("setsid", searching: searchPath, isExecutable: isExecutable) else {
            return .failure(GatewayError(SystemProgram.missing("setsid")))
        }
        let waiter = [setsid, "--fork"] + waiterArguments()
        if inSystemdUnit, let systemdRun = SystemProgram.path("systemd-run", searching: searchPath, isExecutable: isExecutable) {
            let scoped = [systemdRun, "--user", "--scope", "--quiet", "--collect", "--description=notif: the reminder \(reminderID)"] + waiter
            if case .answer(let answer) = launch(scoped) { return .success(answer) }
        }
        switch launch(waiter) {
        case .answer(let answer): return .success(answer)
        case .launcherFailed(let why): return .failure(GatewayError("the reminder's waiter did not start: \(why)"))
        }
    }

    enum Launch {
        case answer(HandoffAnswer)
        case launcherFailed(String)
    }

    /// Starts `argv` and reads the waiter's status line within its first try (and two seconds
    /// more, for the start).
    func launch(_ argv: [String]) -> Launch {
        let child: StreamingChild
        do {
            child = try StreamingChild(argv, environment: [:])
        } catch {
            return .launcherFailed(error.description)
        }
        // Only the launcher is stopped here (it has exited by now); the waiter has a session of its own.
        defer { child.stop() }
        switch child.nextLine(until: SystemClock.monotonicNow() + Self.firstTry + 2) {
        case .line(let line):
            return HandoffAnswer(line: line).map(Launch.answer) ?? .launcherFailed("it said \(line.debugDescription)")
        case .ended(let how):
            return .launcherFailed(how)
        case .timedOut:
            return .answer(.failed("the reminder's waiter did not answer within \(Int(Self.firstTry) + 2) s"))
        }
    }
}
