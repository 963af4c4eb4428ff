/// One configuration notif wrote entries for (a line of the configuration list that
/// `notif reset --entries` reads): its settings file, the tag its entries carry, and the
/// directories its entries live under (`HOME` for systemd units, `XDG_CONFIG_HOME` for the
/// autostart entry, `XDG_STATE_HOME` for the built-in schedule).
public struct ConfigurationRecord: Hashable, Sendable {
    /// The settings file (`CONFIG/notif/settings.json`).
    public var settings: String
    /// `ShortHash` of the settings path, as in entry names and crontab markers.
    public var tag: String
    public var home: String
    public var configHome: String
    public var stateHome: String

    public init(settings: String, tag: String, home: String, configHome: String, stateHome: String) {
        self.settings = settings
        self.tag = tag
        self.home = home
        self.configHome = configHome
        self.stateHome = stateHome
    }

    static let keys = ["settings", "tag", "home", "configHome", "stateHome"]

    /// One line of JSON, keys in a fixed order.
    public var line: String {
        JSONWriter.compact(.object([JSONMember("settings", .string(settings)), JSONMember("tag", .string(tag)),
                                    JSONMember("home", .string(home)), JSONMember("configHome", .string(configHome)),
                                    JSONMember("stateHome", .string(stateHome))]))
    }

    /// Reads a line as `line` writes it: an object with the five keys, each an absolute path
    /// (the tag 8 lowercase hex digits); other keys are allowed (a later notif may add some).
    public static func parse(_ bytes: [UInt8]) -> Result<ConfigurationRecord, ConfigurationListError> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            return .failure(ConfigurationListError("not JSON (\(error.message))"))
        }
        guard value.objectMembers != nil else { return .failure(ConfigurationListError("not a JSON object")) }
        var fields: [String: String] = [:]
        for key in keys {
            guard let text = value[key]?.stringValue else { return .failure(ConfigurationListError("no \"\(key)\" text")) }
            guard key == "tag" ? ShortHash.isHash(Substring(text)) : text.hasPrefix("/") else {
                return .failure(ConfigurationListError("\"\(key)\" is not \(key == "tag" ? "8 hex digits" : "an absolute path")"))
            }
            fields[key] = text
        }
        return .success(ConfigurationRecord(settings: fields["settings"]!, tag: fields["tag"]!, home: fields["home"]!,
                                            configHome: fields["configHome"]!, stateHome: fields["stateHome"]!))
    }
}

/// Why a line of the configuration list is not a record.
public struct ConfigurationListError: Error, Equatable, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
