/// One reminder's entry as its scheduler holds it, read back and typed: what `status` shows
/// and what decides whether it can fire.
public struct InstalledEntry: Equatable, Sendable {
    /// The reminder id the entry delivers.
    public var id: String
    /// It is exactly what `apply` would write now (same command, zone, times, and enabled).
    public var current: Bool
    /// The scheduler will start it: a systemd timer is enabled; cron lines and built-in entries always are.
    public var enabled: Bool
    /// notif's program the entry runs, when the entry names one (cron, systemd); nil for
    /// built-in entries, which `notif daemon` runs itself.
    public var program: String?
    /// `program` exists and is executable now (true when there is none to check).
    public var programRunnable: Bool
    /// When its scheduler runs it, as the scheduler counts time (`FiringWords` says it); nil when unknown.
    public var firing: EntryFiring?
    /// The `TZ` the entry gives `notif deliver` (nil: none, so its scheduler's zone counts).
    public var zoneVariable: String?
    /// When it shows its reminder, when that is not the wanted time (set for entries that are not current).
    public var showing: EntryShowing = .asWanted
    /// A line of the user's the scheduler runs the entry with, which may stop it (cron: a `SHELL=`
    /// line put inside notif's block by hand).
    public var runByHand: String?

    public init(id: String, current: Bool, enabled: Bool = true, program: String? = nil, programRunnable: Bool = true,
                firing: EntryFiring? = nil, zoneVariable: String? = nil) {
        self.id = id
        self.current = current
        self.enabled = enabled
        self.program = program
        self.programRunnable = programRunnable
        self.firing = firing
        self.zoneVariable = zoneVariable
    }

    /// The program lives in a SwiftPM build folder (`.build/`), which a rebuild or clean removes.
    public var runsFromBuildFolder: Bool { program.map(NotifProgram.isInBuildFolder) ?? false }
}

/// Facts about the path of notif's own program.
public enum NotifProgram {
    /// `path` is inside a SwiftPM build folder, which `swift build`, `make clean` or a checkout
    /// move replaces: an entry or autostart line naming it stops working.
    public static func isInBuildFolder(_ path: String) -> Bool { path.contains("/.build/") }
}
