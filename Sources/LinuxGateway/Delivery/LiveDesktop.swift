import Glibc
import SharedLogic
import Storage

/// The real desktop: notif's own D-Bus client on the session buses a run can find (its own,
/// the user bus at /run/user/UID/bus, the recorded session), and the reminder's detached waiter.
public struct LiveDesktop: Desktop {
    public init() {}

    public func handOff(_ reminder: LocalReminder, day: CivilDate, context: NotifContext) -> HandoffAnswer {
        var note = "notif's own program is not there to wait for them"
        if let program = context.executable, context.isExecutable(program) {
            let waiter = DetachedActionWaiter(program: program, reminderID: reminder.id, day: day,
                                              inSystemdUnit: context.lookup("INVOCATION_ID") != nil, searchPath: context.lookup("PATH"))
            switch waiter.start() {
            case .success(let answer): return answer
            case .failure(let error): note = error.message
            }
        }
        // Nothing can wait: one try here, without buttons.
        switch show(summary: reminder.title, body: reminder.body, context: context) {
        case .success(let words): return .shown(words + " (without buttons: \(note))")
        case .failure(let error): return .failed(error.message + " (and nothing waits for a notification service: \(note))")
        }
    }

    public func show(summary: String, body: String, context: NotifContext) -> Result<String, GatewayError> {
        Self.notifier(context).show(summary: summary, body: body, environments: Self.sessions(context)).map(\.words)
    }

    /// notif's notifier for this run (its icon, its environment).
    public static func notifier(_ context: NotifContext) -> DesktopNotifier {
        DesktopNotifier(icon: AppIcon.icon(executable: context.executable, lookup: context.lookup), lookup: context.lookup)
    }

    /// The session buses to try, best first (`SessionEnvironment.candidates`).
    public static func sessions(_ context: NotifContext) -> [(source: String, changes: [String: String?])] {
        let recorded = (try? context.state.read(StateFiles.sessionFile)).map(SessionEnvironment.init(parsing:))
        return SessionEnvironment.candidates(current: context.lookup, recorded: recorded, uid: getuid())
    }
}
