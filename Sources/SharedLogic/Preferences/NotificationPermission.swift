/// Whether the person allowed notif to show notifications: asked once, changeable any time.
public enum NotificationPermission: String, CaseIterable, Sendable {
    case notDetermined, granted, denied
}
