import SharedLogic
import Storage

/// The configurations `notif reset --entries` knows of, and so the places it looks in: the
/// running one, the account's default one, those on the configuration list (every one an apply
/// wrote entries for), those of the user's running `notif daemon` processes, and every one an
/// entry it finds names (a crontab
/// block's `# settings:` line, the `XDG_CONFIG_HOME`, `XDG_STATE_HOME` and `HOME` an entry's
/// command carries through `/usr/bin/env`, the same in an autostart entry's `Exec=`). Entries
/// of a configuration named nowhere (built-in ones of a notif from before the list, under an
/// `XDG_STATE_HOME` no entry carries) cannot be found: the output lists where it looked.
/// A place whose directories fail the trust rule (`TrustedPath`: another user could have put
/// files there) is skipped and named: nothing there is read or removed.
struct ResetPlaces {
    /// The home scheduled jobs get (the password database's), which entries' paths default to.
    let jobHome: String
    /// Why a directory fails the trust rule, or nil.
    let trust: @Sendable (String) -> String?
    private(set) var all: [NotifPaths] = []
    /// Settings files by configuration tag, to name entries by the settings they belong to.
    private(set) var settingsByTag: [String: String] = [:]

    /// The current and the default configurations: a plain retry looks there again by itself.
    private var fixed: [NotifPaths] = []

    init(current: NotifPaths, jobHome: String, trust: @escaping @Sendable (String) -> String?) {
        self.jobHome = jobHome
        self.trust = trust
        add(current)
        add(assignments: [:])
        if current.home != jobHome { add(assignments: ["HOME": current.home]) }
        fixed = all
    }

    /// Adds a configuration; returns whether it was new.
    @discardableResult
    mutating func add(_ paths: NotifPaths) -> Bool {
        let tag = ConfigurationID(settingsPath: paths.settingsFile, isDefault: false).tag
        if settingsByTag[tag] == nil { settingsByTag[tag] = paths.settingsFile }
        guard !all.contains(paths) else { return false }
        all.append(paths)
        return true
    }

    /// Adds a configuration from the configuration list, named by its settings file.
    @discardableResult
    mutating func add(_ record: ConfigurationRecord) -> Bool {
        settingsByTag[record.tag] = record.settings
        return add(NotifPaths(home: record.home, configHome: record.configHome, stateHome: record.stateHome))
    }

    /// Adds the configuration a command's `/usr/bin/env` assignments describe (what is not set
    /// is the job's default, from `jobHome`).
    @discardableResult
    mutating func add(assignments: [String: String]) -> Bool {
        add(paths(assignments: assignments))
    }

    /// The paths of a configuration started with `assignments` (`HOME`, `XDG_*`; unset: the job's defaults).
    func paths(assignments: [String: String]) -> NotifPaths {
        let home = jobHome
        return NotifPaths.fromEnvironment { name in
            name == "HOME" ? (assignments["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home) : assignments[name]
        }
    }

    /// Adds the configuration whose settings file is `settingsPath` (`CONFIG/notif/settings.json`),
    /// with the other settings (`XDG_STATE_HOME`, `HOME`) its entry carries.
    @discardableResult
    mutating func add(settingsPath: String, assignments: [String: String]) -> Bool {
        let suffix = "/notif/settings.json"
        guard settingsPath.hasPrefix("/"), settingsPath.hasSuffix(suffix) else { return false }
        var assignments = assignments
        assignments["XDG_CONFIG_HOME"] = String(settingsPath.dropLast(suffix.count))
        return add(assignments: assignments)
    }

    /// The settings a retry needs to find again a place of the first configuration `matching`
    /// (`XDG_CONFIG_HOME=…`, `XDG_STATE_HOME=…`, `HOME=…` where it differs from the default);
    /// none when a plain retry looks there by itself (it is the current or the default one).
    func retry(where matching: (NotifPaths) -> Bool) -> [String] {
        guard !fixed.contains(where: matching), let paths = all.first(where: matching) else { return [] }
        let home = paths.home
        return [("HOME", paths.home, jobHome), ("XDG_CONFIG_HOME", paths.configHome, Posix.join(home, ".config")),
                ("XDG_STATE_HOME", paths.stateHome, Posix.join(home, ".local/state"))]
            .filter { $0.1 != $0.2 }.map { "\($0.0)=\($0.1)" }
    }

    /// The homes (their systemd unit and stamp directories), configuration and state directories
    /// to look in: those that pass the trust rule.
    var homes: [String] { unique(all.map(\.home)).filter { problem(home: $0) == nil } }
    var configHomes: [String] { unique(all.map(\.configHome)).filter { problem(configHome: $0) == nil } }
    var stateHomes: [String] { unique(all.map(\.stateHome)).filter { problem(stateHome: $0) == nil } }

    /// What was skipped and why, for each kind of place (`PLACE: WHY`).
    var skippedHomes: [String] { skipped(all.map(\.home), problem(home:)) }
    var skippedConfigHomes: [String] { skipped(all.map(\.configHome), problem(configHome:)) }
    var skippedStateHomes: [String] { skipped(all.map(\.stateHome), problem(stateHome:)) }

    private func problem(home: String) -> String? {
        [Posix.join(home, ".config/systemd/user"), Posix.join(home, ".local/share/systemd/timers")].lazy.compactMap(trust).first
    }
    private func problem(configHome: String) -> String? { trust(Posix.join(configHome, "autostart")) }
    private func problem(stateHome: String) -> String? { trust(Posix.join(stateHome, "notif")) }

    private func skipped(_ places: [String], _ problem: (String) -> String?) -> [String] {
        unique(places).compactMap { place in problem(place).map { "skipped \(place), since \($0): notif writes no entry where another user can change it, so it looks for no entry there" } }
    }

    /// `tips-and-updates for /home/u/.config/notif/settings.json`; an untagged entry is an earlier notif's.
    func describe(_ id: String, tag: String?) -> String {
        guard let tag else { return "\(id) (untagged, of an earlier notif)" }
        return settingsByTag[tag].map { "\(id) for \($0)" } ?? "\(id) (of the configuration tagged \(tag))"
    }

    private func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}
