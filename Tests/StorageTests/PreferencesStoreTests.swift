import Foundation
import Testing
import SharedLogic
@testable import Storage

@Suite struct PreferencesStoreTests {
    let clock = FixedClock(instant: Instant(seconds: 1_796_112_000)) // 2026-12-01T08:00:00Z

    @Test func missingFileGivesDefaultsAndWritesNothing() throws {
        let dir = TempDir()
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        let loaded = try store.load()
        #expect(loaded.preferences == NotificationPreferences())
        #expect(!loaded.fileExisted)
        #expect(dir.list("").isEmpty)
    }

    @Test func updateWritesPrivateFileInPrivateDirectory() throws {
        let dir = TempDir()
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        // Under the test process's own umask (022 here: 0755 and 0644 if the modes were left to
        // it). Not umask(0): the umask is the whole process's, and a program another test started
        // meanwhile made its directories world-writable. Under umask 000 the shipped binary is
        // checked by `ReliabilityFileModeTests`, in a child of its own.
        try store.update { $0.tipsAndUpdates = true }
        #expect(dir.mode("config/notif") == 0o700)
        #expect(dir.mode("config/notif/settings.json") == 0o600)
        #expect(try store.load().preferences.tipsAndUpdates)
        // No temp files are left behind.
        #expect(dir.list("config/notif") == [".settings.lock", "settings.json"])
    }

    @Test func unknownKeysSurviveAnUpdate() throws {
        let dir = TempDir()
        dir.write(#"{"version": 1, "myNote": "keep me", "tipsAndUpdates": false, "nested": {"a": [1, 2]}}"#, to: "config/notif/settings.json")
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        try store.update { $0.tipsAndUpdates = true }
        let doc = try JSONParser.parse(dir.read("config/notif/settings.json")!)
        #expect(doc["myNote"] == .string("keep me"))
        #expect(doc["nested"] == (try JSONParser.parse(#"{"a": [1, 2]}"#)))
        #expect(doc["tipsAndUpdates"] == .bool(true))
        #expect(doc.objectMembers!.first?.key == "version")
    }

    @Test func anUpdateThatChangesNothingDoesNotWrite() throws {
        let dir = TempDir()
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        try store.update { $0.promotions = true }
        let before = try #require(try FileStatus.of(dir.path + "/config/notif/settings.json"))
        try store.update { $0.promotions = true }
        let after = try #require(try FileStatus.of(dir.path + "/config/notif/settings.json"))
        #expect(before == after)
    }

    @Test(arguments: [
        ("", "the file is empty"),
        ("{\"tipsAndUpdates\": tr", "not valid JSON"),
        ("{\"tipsAndUpdates\": \"yes\"}", "\"tipsAndUpdates\" is a string"),
        ("[1, 2]", "top level is an array"),
        ("\u{FEFF}{}", "byte order mark"),
        ("{\"a\": \"\0\"}", "NUL"),
    ])
    func corruptFilesAreMovedAsideNeverOverwritten(content: String, problem: String) throws {
        let dir = TempDir()
        dir.write(content, to: "config/notif/settings.json")
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        let loaded = try store.load()
        #expect(loaded.preferences == NotificationPreferences())
        let aside = "settings.json.corrupt-20261201T080000Z"
        #expect(loaded.notice?.contains(problem) == true, "\(loaded.notice ?? "no notice")")
        #expect(loaded.notice?.contains(aside) == true)
        #expect(dir.read("config/notif/" + aside) == content)
        #expect(dir.read("config/notif/settings.json") == nil)
        // A second corrupt file the same second gets its own name.
        dir.write(content, to: "config/notif/settings.json")
        _ = try store.load()
        #expect(dir.read("config/notif/" + aside + "-1") == content)
    }

    @Test func updateOverACorruptFileKeepsTheOriginalAside() throws {
        let dir = TempDir()
        dir.write("{oops", to: "config/notif/settings.json")
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        let result = try store.update { $0.tipsAndUpdates = true }
        #expect(result.before.notice != nil)
        #expect(dir.read("config/notif/settings.json.corrupt-20261201T080000Z") == "{oops")
        #expect(try store.load().preferences.tipsAndUpdates)
    }

    @Test func aNewerVersionIsLeftAloneAndNamed() throws {
        let dir = TempDir()
        let text = #"{"version": 9, "somethingNew": true}"#
        dir.write(text, to: "config/notif/settings.json")
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        #expect(throws: PreferencesError.newerVersion(path: dir.path + "/config/notif/settings.json", version: 9)) { try store.load() }
        #expect(throws: PreferencesError.self) { try store.update { $0.promotions = true } }
        #expect(dir.read("config/notif/settings.json") == text)
        #expect(dir.list("config/notif").filter { $0.contains("corrupt") }.isEmpty)
    }

    @Test func aDirectoryInThePlaceOfTheFileIsAnErrorNamingIt() throws {
        let dir = TempDir()
        try FileManager.default.createDirectory(atPath: dir.path + "/config/notif/settings.json", withIntermediateDirectories: true)
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        #expect {
            try store.load()
        } throws: { error in
            "\(error)".contains("settings.json") && "\(error)".contains("is a directory")
        }
        #expect(throws: PreferencesError.self) { try store.update { $0.promotions = true } }
    }

    @Test func aHugeFileIsMovedAside() throws {
        let dir = TempDir()
        let big = "{\"x\": \"" + String(repeating: "a", count: 2 << 20) + "\"}"
        dir.write(big, to: "config/notif/settings.json")
        let loaded = try PreferencesStore(paths: dir.paths, clock: clock).load()
        #expect(loaded.notice?.contains("limit") == true)
        #expect(dir.read("config/notif/settings.json.corrupt-20261201T080000Z")?.count == big.count)
    }

    @Test func aSymlinkedSettingsFileIsWrittenThroughAndStaysALink() throws {
        let dir = TempDir()
        dir.write("{}", to: "dotfiles/notif.json")
        try FileManager.default.createDirectory(atPath: dir.path + "/config/notif", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/config/notif/settings.json", withDestinationPath: "../../dotfiles/notif.json")
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        try store.update { $0.tipsAndUpdates = true }
        #expect(try FileStatus.of(dir.path + "/config/notif/settings.json", followLinks: false)?.kind == .symlink)
        #expect(dir.read("dotfiles/notif.json")?.contains("\"tipsAndUpdates\": true") == true)
    }

    @Test func concurrentUpdatesNeverLoseAWrite() async throws {
        let dir = TempDir()
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        try store.update { _ in }
        // Each task flips a different field; all must survive.
        await withTaskGroup(of: Void.self) { group in
            for toggle in [PreferenceToggle.tipsAndUpdates, .promotions] {
                group.addTask { _ = try? store.update { $0[toggle] = true } }
            }
            group.addTask { _ = try? store.update { $0.sound = .bell } }
            group.addTask { _ = try? store.update { $0.permission = .granted } }
        }
        let p = try store.load().preferences
        #expect(p.tipsAndUpdates && p.promotions && p.sound == .bell && p.permission == .granted)
    }
}
