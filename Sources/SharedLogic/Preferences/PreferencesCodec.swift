/// Why a settings document was not accepted, each with its fix. `newerVersion` is not a
/// mistake in the file: it belongs to a newer notif and must be left alone.
public enum PreferencesDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    case syntax(JSONSyntaxError)
    case notAnObject(found: String)
    /// `found`: the value as the message shows it (`"yes"`, `1`, `null`, `an array`).
    case wrongType(key: String, expected: String, found: String)
    case badValue(key: String, value: String, allowed: [String])
    /// A key a typing slip from keys the file does not have (`tipsAndUpdate` without
    /// `tipsAndUpdates`): the setting meant would silently take its default.
    case mistypedKey(key: String, meant: [String])
    case newerVersion(Int)

    public var description: String {
        switch self {
        case .syntax(let error): return error.description
        case .notAnObject(let found):
            return "the top level is \(found), not an object — write the settings as one object: { \"key\": value, … }"
        case .wrongType(let key, let expected, let found):
            return "\(TerminalText.quoted(key)) is \(found) — use \(expected)"
        case .badValue(let key, let value, let allowed):
            return "\(TerminalText.quoted(key)) is \(TerminalText.quoted(value)) — use \(Self.list(allowed))"
        case .mistypedKey(let key, let meant):
            return "\(TerminalText.quoted(key)) is not a key notif reads — did you mean \(Self.list(meant.map { TerminalText.quoted($0) }))? "
                + "rename it, or \(meant.count == 1 ? "that setting" : "those settings") would take the default"
        case .newerVersion(let version):
            return "it has version \(version), newer than this notif understands (\(NotificationPreferences.schemaVersion))"
        }
    }

    /// The keys leading to the value at fault (none: the top level); nil when the text itself is at fault.
    var keyPath: [String]? {
        switch self {
        case .syntax, .newerVersion: return nil
        case .notAnObject: return []
        case .wrongType(let key, _, _), .badValue(let key, _, _): return key.split(separator: ".").map(String.init)
        case .mistypedKey(let key, _): return [key]
        }
    }

    /// The description, with the line and column of the value at fault in `bytes` first
    /// (`line 3, column 21: "tipsAndUpdates" is "yes" — use true or false`).
    public func located(in bytes: [UInt8]) -> String {
        guard let keyPath, let at = JSONParser.location(ofValueAt: keyPath, in: bytes) else { return description }
        return "line \(at.line), column \(at.column): " + description
    }

    /// "a", "a or b", "a, b or c": the allowed values as the command line lists them.
    static func list(_ words: [String]) -> String {
        guard let last = words.last else { return "" }
        return words.count == 1 ? last : words.dropLast().joined(separator: ", ") + " or " + last
    }

    /// How a value is named in a message: a string quoted (cut when long), a number as written,
    /// the other kinds by their type.
    static func shown(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return TerminalText.quoted(text)
        case .number(let text): return TerminalText.safe(text)
        case .bool(let flag): return flag ? "true" : "false"
        default: return value.typeDescription
        }
    }
}

/// Reads and writes settings.json documents. Keys notif does not know are kept as they were.
public enum PreferencesCodec {
    /// Decodes a whole file's bytes. Missing keys take their defaults; present keys must have the right type.
    public static func decode(_ bytes: [UInt8], catalog: NotifCatalog = .standard) throws(PreferencesDecodingError) -> NotificationPreferences {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw .syntax(error)
        }
        return try decode(document, catalog: catalog)
    }

    public static func decode(_ document: JSONValue, catalog: NotifCatalog = .standard) throws(PreferencesDecodingError) -> NotificationPreferences {
        guard case .object = document else { throw .notAnObject(found: document.typeDescription) }
        // A slip that took the place of a key (no `tipsAndUpdates`, only `tipsAndUpdate`) would
        // turn that setting to its default without a word: the file is not used. A slip beside
        // the real key changes nothing (`mistypedKeys` names it).
        let known = keys(catalog: catalog)
        for member in document.objectMembers ?? [] where !known.contains(member.key) {
            // A slip, not a word that only starts a key (`a` of `account`): at least half as long.
            let missing = Suggestion.nearest(to: member.key, in: known).filter { document[$0] == nil && member.key.count * 2 >= $0.count }
            if !missing.isEmpty { throw .mistypedKey(key: member.key, meant: missing) }
        }
        let migrated = try PreferencesMigration.migrate(document)
        var prefs = NotificationPreferences()
        prefs.mode = try enumValue(migrated, "mode", default: prefs.mode)
        for toggle in catalog.toggles {
            prefs[toggle] = try bool(migrated, toggle.jsonKey, default: prefs[toggle])
        }
        prefs.sound = try enumValue(migrated, "sound", default: prefs.sound)
        prefs.permission = try enumValue(migrated, "permission", default: prefs.permission)
        prefs.onboardingCompleted = try bool(migrated, "onboardingCompleted", default: false)
        prefs.scheduler = try enumValue(migrated, "scheduler", default: prefs.scheduler)
        if let account = migrated["account"] {
            guard case .object = account else {
                throw .wrongType(key: "account", expected: "an object: { \"server\": \"https://…\" }", found: PreferencesDecodingError.shown(account))
            }
            if let server = account["server"] {
                guard let text = server.stringValue else {
                    throw .wrongType(key: "account.server", expected: "the server's address in double quotes", found: PreferencesDecodingError.shown(server))
                }
                prefs.accountServer = text
            }
        }
        return prefs
    }

    /// The document to write: `original` (the file as last read, if any) with every key notif owns
    /// set from `preferences`, in place; new keys are appended in the documented order.
    public static func encode(_ preferences: NotificationPreferences, over original: JSONValue? = nil,
                              catalog: NotifCatalog = .standard) -> JSONValue {
        var doc: JSONValue = original?.objectMembers != nil ? original! : .object([])
        doc = doc.setting("version", to: .int(NotificationPreferences.schemaVersion))
        doc = doc.setting("mode", to: .string(preferences.mode.rawValue))
        for (key, value) in orderedMembers(preferences, catalog: catalog) { doc = doc.setting(key, to: value) }
        doc = doc.setting("permission", to: .string(preferences.permission.rawValue))
        doc = doc.setting("onboardingCompleted", to: .bool(preferences.onboardingCompleted))
        doc = doc.setting("scheduler", to: .string(preferences.scheduler.rawValue))
        let oldAccount = doc["account"].flatMap { $0.objectMembers != nil ? $0 : nil }
        var account = oldAccount ?? .object([])
        if let server = preferences.accountServer {
            account = account.setting("server", to: .string(server))
        } else {
            account = account.removing("server")
        }
        if oldAccount != nil || account.objectMembers?.isEmpty == false {
            doc = doc.setting("account", to: account)
        }
        return doc
    }

    /// The keys of settings.json notif reads.
    public static func keys(catalog: NotifCatalog = .standard) -> [String] {
        ["version", "mode"] + catalog.items.map { item in
            switch item {
            case .toggle(let toggle): return toggle.jsonKey
            case .sound: return "sound"
            }
        } + ["permission", "onboardingCompleted", "scheduler", "account"]
    }

    /// What to say about keys of `document` notif does not read that are a typing slip from one
    /// it does (`tipsAndUpdate`): they do nothing, and are kept as written. Other unknown keys
    /// (a tool's own, a later version's) are kept without a word.
    public static func mistypedKeys(in document: JSONValue?, catalog: NotifCatalog = .standard) -> [String] {
        let known = keys(catalog: catalog)
        return (document?.objectMembers ?? []).compactMap { member in
            guard !known.contains(member.key) else { return nil }
            let meant = Suggestion.nearest(to: member.key, in: known)
            guard !meant.isEmpty else { return nil }
            return "settings.json has the key \(TerminalText.quoted(member.key)), which notif does not read (it is kept as written); "
                + "did you mean " + meant.joined(separator: " or ") + "?"
        }
    }

    /// The toggles and the sound, in the table's order (settings.json and `status --json`).
    public static func orderedMembers(_ preferences: NotificationPreferences, catalog: NotifCatalog = .standard) -> [(String, JSONValue)] {
        catalog.items.map { item in
            switch item {
            case .toggle(let toggle): return (toggle.jsonKey, .bool(preferences[toggle]))
            case .sound: return ("sound", .string(preferences.sound.rawValue))
            }
        }
    }

    private static func bool(_ doc: JSONValue, _ key: String, default value: Bool) throws(PreferencesDecodingError) -> Bool {
        guard let found = doc[key] else { return value }
        guard let b = found.boolValue else {
            throw .wrongType(key: key, expected: "true or false", found: PreferencesDecodingError.shown(found))
        }
        return b
    }

    private static func enumValue<E: RawRepresentable & CaseIterable>(
        _ doc: JSONValue, _ key: String, default value: E
    ) throws(PreferencesDecodingError) -> E where E.RawValue == String {
        guard let found = doc[key] else { return value }
        let allowed = E.allCases.map(\.rawValue)
        guard let text = found.stringValue else {
            throw .wrongType(key: key, expected: PreferencesDecodingError.list(allowed.map { "\"\($0)\"" }), found: PreferencesDecodingError.shown(found))
        }
        guard let result = E(rawValue: text) else { throw .badValue(key: key, value: text, allowed: allowed) }
        return result
    }
}
