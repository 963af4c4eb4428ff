import SharedLogic

/// How notif's notifications reach the desktop, behind one seam: the real one (`LiveDesktop`)
/// speaks D-Bus and hands the day's reminder to a detached waiter; tests stand in for it.
public protocol Desktop: Sendable {
    /// Shows `reminder`, due on local `day`, from a detached waiter that then waits for its
    /// buttons, or has that waiter wait for a notification service; returns what it answered.
    func handOff(_ reminder: LocalReminder, day: CivilDate, context: NotifContext) -> HandoffAnswer

    /// One notification now, without buttons and without waiting: where it was shown
    /// (`through the user bus as notification 7`), or why it was not.
    func show(summary: String, body: String, context: NotifContext) -> Result<String, GatewayError>
}

/// What the reminder's waiter answered `deliver`.
public enum HandoffAnswer: Equatable, Sendable {
    /// Shown now: where, and whether with buttons (`through the user bus as notification 7, with Turn off and Settings`).
    case shown(String)
    /// No notification service could be reached (why): the waiter waits for one.
    case waiting(String)
    /// Another waiter already waits to show it: nothing to do.
    case busy
    /// It could not be shown, and nothing waits (why).
    case failed(String)

    /// The status line the waiter writes for `deliver` (`shown WORDS`, `waiting WHY`, `busy`, `failed WHY`).
    public var line: String {
        switch self {
        case .shown(let words): return "shown " + words
        case .waiting(let why): return "waiting " + why
        case .busy: return "busy"
        case .failed(let why): return "failed " + why
        }
    }

    /// Reads a status line; nil when it is none.
    public init?(line: String) {
        if line == "busy" { self = .busy; return }
        for (prefix, make) in [("shown ", HandoffAnswer.shown), ("waiting ", HandoffAnswer.waiting), ("failed ", HandoffAnswer.failed)]
        where line.hasPrefix(prefix) {
            self = make(String(line.dropFirst(prefix.count)))
            return
        }
        return nil
    }
}
