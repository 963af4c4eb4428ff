/// A button on a reminder's notification. The name is what the notification service reports
/// back in `ActionInvoked`; the label is what people read.
public enum ReminderAction: String, CaseIterable, Sendable {
    /// Turns the reminder's setting off, as `notif set tips-and-updates off` does.
    case turnOff = "turn-off"
    /// Opens notif's page in a terminal.
    case settings

    public var label: String {
        switch self {
        case .turnOff: return "Turn off"
        case .settings: return "Settings"
        }
    }

    /// `--action=turn-off=Turn off`.
    public var argument: String { "--action=\(rawValue)=\(label)" }
}
