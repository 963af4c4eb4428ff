/// The schedulers notif can put its daily entries in.
public enum SchedulerKind: String, CaseIterable, Sendable {
    case systemd, cron, embedded

    /// Parses `--scheduler` / `NOTIF_SCHEDULER` values.
    public init?(argument: String) {
        self.init(rawValue: argument)
    }
}
