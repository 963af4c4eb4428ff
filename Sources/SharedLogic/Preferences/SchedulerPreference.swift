/// The scheduler the person chose to hold notif's entries (`scheduler` in settings.json).
/// `auto` lets notif pick one and keep it while it can still hold the entries.
public enum SchedulerPreference: String, CaseIterable, Sendable {
    case auto, systemd, cron, embedded

    /// The choice of exactly that scheduler.
    public init(_ kind: SchedulerKind) {
        switch kind {
        case .systemd: self = .systemd
        case .cron: self = .cron
        case .embedded: self = .embedded
        }
    }
}
