/// notif's version, printed by `--version` and sent to the server as `appVersion`.
enum NotifVersion {
    static let current = "0.1.0"
}
