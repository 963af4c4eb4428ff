/// Whether the person allowed notif to show notifications: asked once, changeable any time.
public enum NotificationPermission: String, CaseIterable, Sendable {
    case notDetermined, granted, denied

    /// The one word people read for it, everywhere (the prompt's buttons, the page, the command
    /// line): `Allow`, `Don't allow`, `Not decided`.
    public var word: String {
        switch self {
        case .granted: return "Allow"
        case .denied: return "Don't allow"
        case .notDetermined: return "Not decided"
        }
    }
}
