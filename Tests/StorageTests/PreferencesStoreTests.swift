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
        try store.update { $0[.tipsAndUpdates] = true }
        #expect(dir.mode("config/notif") == 0o700)
        #expect(dir.mode("config/notif/settings.json") == 0o600)
        #expect(try store.load().preferences[.tipsAndUpdates])
        // No temp files are left behind.
        #expect(dir.list("config/notif") == [".settings.lock", "settings.json"])
    }

    @Test func unknownKeysSurviveAnUpdate() throws {
        let dir = TempDir()
        dir.write(#"{"version": 1, "myNote": "keep me", "tipsAndUpdates": false, "nested": {"a": [1, 2]}}"#, to: "config/notif/settings.json")
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        try store.update { $0[.tipsAndUpdates] = true }
        let doc = try JSONParser.parse(dir.read("config/notif/settings.json")!)
        #expect(doc["myNote"] == .string("keep me"))
        #expect(doc["nested"] == (try JSONParser.parse(#"{"a": [1, 2]}"#)))
        #expect(doc["tipsAndUpdates"] == .bool(true))
        #expect(doc.objectMembers!.first?.key == "version")
    }

    @Test func anUpdateThatChangesNothingDoesNotWrite() throws {
        let dir = TempDir()
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        try store.update { $0[.promotions] = true }
        let before = try #require(try FileStatus.of(dir.path + "/config/notif/settings.json"))
        try store.update { $0[.promotions] = true }
        let after = try #require(try FileStatus.of(dir.path + "/config/notif/settings.json"))
        #expect(before == after)
    }

    /// A file that does not parse, or holds a wrong value, is the person's: every read and every
    /// change says where and how to fix it, and the file keeps every byte, in place.
    @Test(arguments: [
        ("", "line 1, column 1: the file is empty — write {} in it for the defaults, or remove it"),
        ("{\"tipsAndUpdates\": tr", "line 1, column 20: the word tr — use true, false or null"),
        ("{\n  \"tipsAndUpdates\": \"yes\"\n}", "line 2, column 21: \"tipsAndUpdates\" is \"yes\" — use true or false"),
        ("[1, 2]", "line 1, column 1: the top level is an array, not an object"),
        ("{\"a\": \"\0\"}", "line 1, column 8: a NUL byte inside a string"),
        ("{\n  \"sound\": \"bell\",\n}\n", "line 2, column 18: a comma before } — remove it"),
    ])
    func aFileThatDoesNotParseIsNamedAndNeverTouched(content: String, problem: String) throws {
        let dir = TempDir()
        dir.write(content, to: "config/notif/settings.json")
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        let path = dir.path + "/config/notif/settings.json"
        for attempt in 0..<3 {
            #expect {
                switch attempt {
                case 0: _ = try store.load()
                case 1: try store.update { $0[.tipsAndUpdates] = true }
                default: _ = try store.loadSettled(quiet: 0.05)
                }
            } throws: { error in
                (error as? PreferencesError)?.isInvalid == true && "\(error)".hasPrefix(path + " " + problem)
            }
        }
        #expect(dir.read("config/notif/settings.json") == content)
        #expect(dir.list("config/notif").filter { $0.hasPrefix("settings.json") } == ["settings.json"])
    }

    /// A UTF-8 byte order mark is skipped (RFC 8259 lets a parser ignore it); a rewrite drops it.
    @Test func aByteOrderMarkIsSkipped() throws {
        let dir = TempDir()
        dir.write("\u{FEFF}{\"sound\": \"bell\"}", to: "config/notif/settings.json")
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        #expect(try store.load().preferences.sound == .bell)
        try store.update { $0[.promotions] = true }
        #expect(dir.read("config/notif/settings.json")?.hasPrefix("{") == true)
    }

    /// A file written in several steps (truncated, then half, then the rest) is read once it has
    /// been quiet: the half-written state is never believed.
    @Test(.timeLimit(.minutes(10))) func aFileStillBeingWrittenIsReadOnceItIsQuiet() throws {
        let dir = TempDir()
        let path = dir.path + "/config/notif/settings.json"
        dir.write("{\"sound\": ", to: "config/notif/settings.json")
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        let writer = Thread {
            usleep(300_000)
            let handle = FileHandle(forWritingAtPath: path)!
            handle.seekToEndOfFile()
            handle.write(Data("\"chime\"}".utf8))
            handle.closeFile()
        }
        writer.start()
        #expect(try store.loadSettled(quiet: 0.6).preferences.sound == .chime)
    }

    @Test func aMissingFileIsWaitedForOnlyWhenAsked() throws {
        let dir = TempDir()
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        #expect(try !store.loadSettled(quiet: 0.05).fileExisted)
        #expect(try !store.loadSettled(missing: false).fileExisted)
    }

    /// An edit replaces the file byte for byte (spacing and keys notif does not know kept), only
    /// when valid and only when the file still holds what the edit started from.
    @Test func anEditReplacesTheFileAsWrittenOnlyWhenValidAndUnchangedMeanwhile() throws {
        let dir = TempDir()
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        let path = dir.path + "/config/notif/settings.json"
        let edit = Array("{ \"sound\":   \"bell\", \"mine\": [1,2] }\n".utf8)
        #expect(try store.replace(with: edit, expecting: nil).sound == .bell)
        #expect(dir.read("config/notif/settings.json") == String(decoding: edit, as: UTF8.self))
        #expect(dir.mode("config/notif/settings.json") == 0o600)
        #expect(throws: PreferencesError.changedMeanwhile(path: path)) { try store.replace(with: Array("{}".utf8), expecting: nil) }
        #expect { try store.replace(with: Array("{,}".utf8), expecting: edit) } throws: { ($0 as? PreferencesError)?.isInvalid == true }
        #expect(dir.read("config/notif/settings.json") == String(decoding: edit, as: UTF8.self))
    }

    /// Reset puts the defaults in place of a file that does not parse and keeps it, named; a file
    /// that reads is left alone.
    @Test func resetKeepsTheBadFileAsACopyAndLeavesAGoodOneAlone() throws {
        let dir = TempDir()
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        dir.write("{\"sound\": \"bell\",}", to: "config/notif/settings.json")
        let copy = try #require(try store.resetInvalidFile())
        #expect(copy == dir.path + "/config/notif/settings.json.before-reset-20261201T080000Z")
        #expect(dir.read("config/notif/settings.json.before-reset-20261201T080000Z") == "{\"sound\": \"bell\",}")
        #expect(dir.mode("config/notif/settings.json.before-reset-20261201T080000Z") == 0o600)
        var defaults = NotificationPreferences()
        defaults.onboardingCompleted = true
        #expect(try store.load().preferences == defaults)
        #expect(try store.resetInvalidFile() == nil)
        // A second reset the same second gets its own name.
        dir.write("nope", to: "config/notif/settings.json")
        #expect(try store.resetInvalidFile()?.hasSuffix("-1") == true)
    }

    /// A settings.json its owner made read-only is not replaced by any write (update, edit,
    /// reset): the error names the file and the fix, and nothing changes (no copy left). Reads work.
    @Test(arguments: [0o444, 0o400, 0o555]) func aReadOnlyFileIsNeverReplaced(mode: Int) throws {
        let dir = TempDir()
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        let path = dir.path + "/config/notif/settings.json"
        let text = "{\"sound\": \"bell\"}"
        dir.write(text, to: "config/notif/settings.json")
        #expect(chmod(path, mode_t(mode)) == 0)
        #expect(try store.load().preferences.sound == .bell)
        let fix = "read-only (mode 0\(String(mode, radix: 8))); to let notif save it: chmod u+w \(path)"
        #expect { try store.update { $0[.promotions] = true } } throws: { "\($0)".contains(fix) }
        #expect { try store.replace(with: Array("{}".utf8), expecting: Array(text.utf8)) } throws: { "\($0)".contains(fix) }
        #expect(chmod(path, 0o644) == 0)
        dir.write("{,}", to: "config/notif/settings.json")
        #expect(chmod(path, mode_t(mode)) == 0)
        #expect { try store.resetInvalidFile() } throws: { "\($0)".contains(fix) }
        #expect(dir.read("config/notif/settings.json") == "{,}")
        #expect(dir.mode("config/notif/settings.json") == mode)
        #expect(dir.list("config/notif").filter { $0.hasPrefix("settings") } == ["settings.json"], "no copy, no temp file")
    }

    @Test func aNewerVersionIsLeftAloneAndNamed() throws {
        let dir = TempDir()
        let text = #"{"version": 9, "somethingNew": true}"#
        dir.write(text, to: "config/notif/settings.json")
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        #expect(throws: PreferencesError.newerVersion(path: dir.path + "/config/notif/settings.json", version: 9)) { try store.load() }
        #expect(throws: PreferencesError.self) { try store.update { $0[.promotions] = true } }
        #expect(dir.read("config/notif/settings.json") == text)
        #expect(dir.list("config/notif").filter { $0 != "settings.json" && $0.hasPrefix("settings") }.isEmpty)
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
        #expect(throws: PreferencesError.self) { try store.update { $0[.promotions] = true } }
    }

    @Test func aHugeFileIsNamedAndKept() throws {
        let dir = TempDir()
        let big = "{\"x\": \"" + String(repeating: "a", count: 2 << 20) + "\"}"
        dir.write(big, to: "config/notif/settings.json")
        #expect { try PreferencesStore(paths: dir.paths, clock: clock).load() } throws: { "\($0)".contains("limit") }
        #expect(dir.read("config/notif/settings.json")?.count == big.count)
    }

    @Test func aSymlinkedSettingsFileIsWrittenThroughAndStaysALink() throws {
        let dir = TempDir()
        dir.write("{}", to: "dotfiles/notif.json")
        try FileManager.default.createDirectory(atPath: dir.path + "/config/notif", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/config/notif/settings.json", withDestinationPath: "../../dotfiles/notif.json")
        let store = PreferencesStore(paths: dir.paths, clock: clock)
        try store.update { $0[.tipsAndUpdates] = true }
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
        #expect(p[.tipsAndUpdates] && p[.promotions] && p.sound == .bell && p.permission == .granted)
    }
}
