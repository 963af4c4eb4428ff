/// notif's version, printed by `--version`, written into the man page and sent to the server as `appVersion`.
public enum NotifVersion {
    public static let current = "0.2.0"
}
