/// Why a reminder is not planned, most fundamental first.
public enum BlockReason: Equatable, Sendable {
    /// Account projects get notifications from the server and never schedule Guest reminders.
    case accountProject
    case masterSwitchOff
    /// The reminder's own toggle is off.
    case preferenceOff
    case permissionDenied
    case permissionNotDetermined

    /// A short reason for messages (`Push Notifications is off`).
    public func message(for reminder: LocalReminder) -> String { message(title: reminder.title) }

    /// The same, for the reminder titled `title`.
    public func message(title: String) -> String {
        switch self {
        case .accountProject: return "Account project: reminders come from the server"
        case .masterSwitchOff: return "Push Notifications is off"
        case .preferenceOff: return "\(title) is off"
        case .permissionDenied: return "permission is Don't allow"
        case .permissionNotDetermined: return "permission is Not decided"
        }
    }
}
