/// Where notif keeps its files, by the XDG Base Directory rules (relative values are ignored).
public struct NotifPaths: Hashable, Sendable {
    public let home: String
    /// `$XDG_CONFIG_HOME` or `~/.config`.
    public let configHome: String
    /// `$XDG_STATE_HOME` or `~/.local/state`.
    public let stateHome: String
    /// `$XDG_DATA_HOME` or `~/.local/share` (where a systemd user manager keeps timer stamps).
    public let dataHome: String

    public init(home: String, configHome: String, stateHome: String, dataHome: String? = nil) {
        self.home = home
        self.configHome = configHome
        self.stateHome = stateHome
        self.dataHome = dataHome ?? Posix.join(home, ".local/share")
    }

    /// Paths from an environment lookup (the process's own by default).
    public static func fromEnvironment(_ lookup: (String) -> String? = Posix.environment) -> NotifPaths {
        let home = absolute(lookup("HOME")) ?? Posix.currentUser().home ?? "/"
        return NotifPaths(
            home: home,
            configHome: absolute(lookup("XDG_CONFIG_HOME")) ?? Posix.join(home, ".config"),
            stateHome: absolute(lookup("XDG_STATE_HOME")) ?? Posix.join(home, ".local/state"),
            dataHome: absolute(lookup("XDG_DATA_HOME")) ?? Posix.join(home, ".local/share")
        )
    }

    private static func absolute(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        return value
    }

    public var configDirectory: String { Posix.join(configHome, "notif") }
    public var settingsFile: String { Posix.join(configDirectory, "settings.json") }
    public var settingsLock: String { Posix.join(configDirectory, ".settings.lock") }
    public var stateDirectory: String { Posix.join(stateHome, "notif") }
    public func stateFile(_ name: String) -> String { Posix.join(stateDirectory, name) }
    public var deliveryLog: String { stateFile("deliveries.jsonl") }
}
