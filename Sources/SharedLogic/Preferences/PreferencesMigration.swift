/// Brings older settings documents up to `NotificationPreferences.schemaVersion`, one step per version.
public enum PreferencesMigration {
    /// The document's version: `version` when present, 0 for files written before versions existed.
    public static func version(of document: JSONValue) throws(PreferencesDecodingError) -> Int {
        guard let field = document["version"] else { return 0 }
        guard let version = field.intValue, version >= 0 else {
            throw .wrongType(key: "version", expected: "a whole number (\(NotificationPreferences.schemaVersion))", found: PreferencesDecodingError.shown(field))
        }
        return version
    }

    /// The document migrated to the current schema; refuses documents from a newer notif.
    public static func migrate(_ document: JSONValue) throws(PreferencesDecodingError) -> JSONValue {
        var version = try version(of: document)
        if version > NotificationPreferences.schemaVersion { throw .newerVersion(version) }
        var doc = document
        while version < NotificationPreferences.schemaVersion {
            doc = step(doc, from: version)
            version += 1
        }
        return doc
    }

    /// One migration step. Version 0 (no `version` key) has the same keys as version 1.
    private static func step(_ document: JSONValue, from version: Int) -> JSONValue {
        switch version {
        default: return document.setting("version", to: .int(version + 1))
        }
    }
}
