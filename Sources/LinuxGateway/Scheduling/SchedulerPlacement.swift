import SharedLogic

/// Where notif's entries were put by the last apply that finished, and under which saved choice:
/// `$XDG_STATE_HOME/notif/scheduler`, the scheduler's name on the first line (all older notifs
/// wrote) and `choice NAME` on the second.
public struct SchedulerPlacement: Equatable, Sendable {
    /// The scheduler holding the entries.
    public var holder: SchedulerKind
    /// The saved `scheduler` setting when they were put there.
    public var choice: SchedulerPreference

    public init(holder: SchedulerKind, choice: SchedulerPreference) {
        self.holder = holder
        self.choice = choice
    }

    /// Reads the file's text; nil when the first line names no scheduler. A file from an older
    /// notif has no choice line: back then the scheduler was picked afresh on every run, as
    /// `auto` does when the holder can no longer hold the entries.
    public init?(parsing text: String) {
        let lines = text.split(whereSeparator: \.isNewline)
        guard let first = lines.first, let holder = SchedulerKind(rawValue: String(first)) else { return nil }
        self.holder = holder
        choice = lines.dropFirst().lazy.compactMap { line -> SchedulerPreference? in
            guard line.hasPrefix("choice ") else { return nil }
            return SchedulerPreference(rawValue: String(line.dropFirst("choice ".count)))
        }.first ?? .auto
    }

    public var text: String { "\(holder.rawValue)\nchoice \(choice.rawValue)\n" }
}
