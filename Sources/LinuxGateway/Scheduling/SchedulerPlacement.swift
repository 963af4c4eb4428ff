import SharedLogic

/// Where notif's entries were put by the last apply that finished, and under which saved choice:
/// `$XDG_STATE_HOME/notif/scheduler`, the scheduler's name on the first line (all older notifs
/// wrote), `choice NAME` on the second, and when a one-off override rather than the saved choice
/// put them there, `override WORDS` (and `pending` when a choice was saved under that override).
public struct SchedulerPlacement: Equatable, Sendable {
    /// The scheduler holding the entries.
    public var holder: SchedulerKind
    /// The saved `scheduler` setting when they were put there.
    public var choice: SchedulerPreference
    /// How `--scheduler` / `NOTIF_SCHEDULER` was given when it, not the saved named choice, put
    /// them on `holder` (`--scheduler embedded`, `NOTIF_SCHEDULER=embedded`): plain runs leave
    /// them there until that choice changes or is made again. nil when the saved choice (or
    /// `auto`) put them there.
    public var override: String?
    /// The saved choice was made while the override was given: it has not taken effect yet, and
    /// the next plain run honours it.
    public var choicePending: Bool

    public init(holder: SchedulerKind, choice: SchedulerPreference, override: String? = nil, choicePending: Bool = false) {
        self.holder = holder
        self.choice = choice
        self.override = override
        self.choicePending = choicePending
    }

    /// Reads the file's text; nil when the first line names no scheduler. A file from an older
    /// notif has no choice line: back then the scheduler was picked afresh on every run, as
    /// `auto` does when the holder can no longer hold the entries. A file without an `override`
    /// line says the saved choice put the entries there, so a named choice is honoured.
    public init?(parsing text: String) {
        let lines = text.split(whereSeparator: \.isNewline)
        guard let first = lines.first, let holder = SchedulerKind(rawValue: String(first)) else { return nil }
        self.holder = holder
        choice = lines.dropFirst().lazy.compactMap { line -> SchedulerPreference? in
            guard line.hasPrefix("choice ") else { return nil }
            return SchedulerPreference(rawValue: String(line.dropFirst("choice ".count)))
        }.first ?? .auto
        override = lines.dropFirst().first { $0.hasPrefix("override ") }.map { String($0.dropFirst("override ".count)) }
        choicePending = override != nil && lines.dropFirst().contains("pending")
    }

    public var text: String {
        "\(holder.rawValue)\nchoice \(choice.rawValue)\n" + (override.map { "override \($0)\n" } ?? "") + (override != nil && choicePending ? "pending\n" : "")
    }

    /// Plain runs leave the entries on `holder` although the saved choice names another: an
    /// override put them there after that choice was made, and it was not made again since.
    func keptOffNamedChoice(saved: SchedulerPreference, choosing: Bool) -> Bool {
        override != nil && !choicePending && !choosing && choice == saved
    }

    /// What an apply onto `kind` records. `override` is how this run's override was given (nil
    /// without one); `choosing` says the saved choice was just made.
    static func recording(_ kind: SchedulerKind, saved: SchedulerPreference, override: String?, choosing: Bool,
                          previous: SchedulerPlacement?) -> SchedulerPlacement {
        var placement = SchedulerPlacement(holder: kind, choice: saved)
        guard let named = SchedulerKind(rawValue: saved.rawValue), named != kind else { return placement }
        if let override {
            placement.override = override
            // A choice saved under an override stays pending through later overridden runs.
            placement.choicePending = choosing || (previous?.choicePending == true && previous?.choice == saved)
        } else if let previous, previous.holder == kind {
            // Kept where an override put it (a plain run that did not move it).
            placement.override = previous.override
            placement.choicePending = previous.choicePending
        }
        return placement
    }
}
