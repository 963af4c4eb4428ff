import Foundation
import Testing
import TestSupport
import SharedLogic
import Storage
@testable import LinuxGateway

@Suite struct EmbeddedSchedulerTests {
    let scratch = Scratch()
    var embedded: EmbeddedScheduler { EmbeddedScheduler(paths: scratch.paths, owner: testOwner) }

    @Test func installWritesOnePrivateFilePerReminderAndCancelRemovesIt() throws {
        try embedded.install(tipsEntry())
        let path = scratch.paths.stateDirectory + "/embedded/tips-and-updates.\(testOwner.tag)"
        #expect(try FileStatus.of(path)?.mode == 0o600)
        #expect(try embedded.installed() == ["tips-and-updates": try embedded.render(tipsEntry())])
        #expect(try embedded.entries() == [EmbeddedEntry(id: "tips-and-updates", time: DailyTime(hour: 9, minute: 0))])
        try embedded.cancel("tips-and-updates")
        try embedded.cancel("tips-and-updates")
        #expect(try embedded.installed().isEmpty)
    }

    @Test func entryTextRoundTripsAndForeignFilesAreNotEntries() throws {
        let entry = EmbeddedEntry(id: "tips-and-updates", time: DailyTime(hour: 9, minute: 0))
        #expect(EmbeddedEntry(parsing: entry.text) == entry)
        #expect(EmbeddedEntry(parsing: "reminder=x\ntime=25:00\n") == nil)
        #expect(EmbeddedEntry(parsing: "reminder=../x\ntime=09:00\n") == nil)
        try FileManager.default.createDirectory(atPath: embedded.directory, withIntermediateDirectories: true)
        try "junk".write(toFile: embedded.directory + "/notes", atomically: true, encoding: .utf8)
        try "half".write(toFile: embedded.directory + "/.tips-and-updates.tmp-1-2", atomically: true, encoding: .utf8)
        #expect(try embedded.entries().isEmpty)
        // A file that is not an entry is still reported, so apply cancels it as an orphan.
        #expect(try embedded.installed().keys.sorted() == ["notes"])
    }

    /// Entries belong to the configuration that wrote them; the default one takes over the
    /// untagged file of an earlier notif and replaces it.
    @Test func configurationsKeepTheirOwnEntriesAndTheDefaultTakesOverUntaggedOnes() throws {
        let theirs = EmbeddedScheduler(paths: scratch.paths, owner: otherOwner)
        try FileManager.default.createDirectory(atPath: embedded.directory, withIntermediateDirectories: true)
        try EmbeddedEntry(id: "tips-and-updates", time: DailyTime(hour: 9, minute: 0)).text
            .write(toFile: embedded.directory + "/tips-and-updates", atomically: true, encoding: .utf8)
        #expect(try theirs.installed().isEmpty)
        try theirs.install(tipsEntry())
        #expect(try embedded.installed()["tips-and-updates"]?.hasPrefix("(an untagged entry") == true)
        #expect(try embedded.entries().count == 1, "the daemon still runs the untagged entry until apply replaces it")
        try embedded.install(tipsEntry())
        #expect(try FileManager.default.contentsOfDirectory(atPath: embedded.directory).sorted()
            == ["tips-and-updates.\(testOwner.tag)", "tips-and-updates.\(otherOwner.tag)"].sorted())
        #expect(try embedded.installed() == ["tips-and-updates": try embedded.render(tipsEntry())])
        try theirs.cancel("tips-and-updates")
        #expect(try embedded.installed().count == 1 && theirs.installed().isEmpty)
    }

    @Test func theUsersZoneIsKeptWithTheEntry() throws {
        let entry = ScheduledEntry(reminder: LocalReminders.tipsAndUpdates, command: ["/n"], catchUpCommand: ["/n"],
                                   zone: systemZone("Asia/Kolkata"), zoneVariable: "Asia/Kolkata")
        try embedded.install(entry)
        #expect(try embedded.entries() == [EmbeddedEntry(id: "tips-and-updates", time: DailyTime(hour: 9, minute: 0), zone: "Asia/Kolkata")])
        #expect(try embedded.entry("tips-and-updates", installed: embedded.installed()["tips-and-updates"]!, userZone: .utc).firing
            == EntryFiring(.embedded(time: DailyTime(hour: 9, minute: 0), weekday: nil, zone: "Asia/Kolkata"),
                           wanted: WantedTime(time: DailyTime(hour: 9, minute: 0), zone: "UTC")))
        let round = EmbeddedEntry(id: "x", time: DailyTime(hour: 9, minute: 0), zone: "EST5EDT,M3.2.0,M11.1.0")
        #expect(EmbeddedEntry(parsing: round.text) == round)
    }

    /// When an entry began is recorded for every scheduler alike (`EntrySince`), not in the
    /// entry: a `since=` line an earlier notif wrote is read past, and the entry is rewritten
    /// without it.
    @Test func anEarlierNotifsSinceLineIsReadPastAndRewrittenAway() throws {
        let old = "\(EmbeddedEntry.header)\nreminder=tips-and-updates\ntime=09:00\nsince=2026-12-01T07:30:00+00:00\n"
        #expect(EmbeddedEntry(parsing: old) == EmbeddedEntry(id: "tips-and-updates", time: DailyTime(hour: 9, minute: 0)))
        try FileIO.makeDirectory(embedded.directory)
        try AtomicFile.write(Array(old.utf8), to: embedded.path("tips-and-updates", tag: testOwner.tag))
        #expect(try embedded.render(tipsEntry()) != embedded.installed()["tips-and-updates"], "apply rewrites it")
        try embedded.install(tipsEntry())
        #expect(try embedded.installed()["tips-and-updates"]?.contains("since=") == false)
    }

    @Test func idsThatCannotBeFileNamesAreRefused() {
        let bad = ScheduledEntry(reminder: LocalReminder(id: "../x", title: "x", body: "", time: DailyTime(hour: 9, minute: 0), preference: .tipsAndUpdates),
                                 command: [], catchUpCommand: [])
        #expect { try embedded.install(bad) } throws: { "\($0)".contains("\"../x\"") }
        #expect(throws: GatewayError.self) { try embedded.cancel("a/b") }
    }

    @Test func anUnreadableScheduleIsAnErrorNamingTheDirectory() throws {
        try FileManager.default.createDirectory(atPath: scratch.paths.stateDirectory, withIntermediateDirectories: true)
        try "not a directory".write(toFile: embedded.directory, atomically: true, encoding: .utf8)
        #expect { try embedded.installed() } throws: { "\($0)".contains(embedded.directory) }
    }
}

@Suite struct AutostartTests {
    /// A stand-in for notif that writes its arguments, one per line, to `out`.
    static func recordingProgram(at path: String, out: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let script = "#!/bin/sh\nfor a in \"$@\"; do printf '[%s]\\n' \"$a\"; done > '\(out)'\n"
        try writeProgram(script, to: path)
    }

    @Test func execQuotingByTheSpecification() {
        #expect(DesktopExec.render(["/usr/local/bin/notif", "daemon"]) == "/usr/local/bin/notif daemon")
        #expect(DesktopExec.render(["/opt/my bin/notif", "a$b", "c\\d", "e\"f", "50%"]) == #""/opt/my bin/notif" "a\\$b" "c\\\\d" "e\\"f" 50%%"#)
        #expect(DesktopExec.render(["/opt/100%/notif", "daemon"]) == #"/usr/bin/env /opt/100%%/notif daemon"#)
    }

    @Test func theEntryValidatesAndADesktopLauncherRunsExactlyThatCommand() throws {
        let scratch = Scratch()
        let out = scratch.path + "/args"
        let program = scratch.path + "/my bin $x `y` \\z/notif"
        try Self.recordingProgram(at: program, out: out)
        let command = [program, "daemon", "50% sure", "it's \"quoted\""]
        let file = scratch.path + "/notif-daemon.desktop"
        try Autostart.entry(command: command).write(toFile: file, atomically: true, encoding: .utf8)
        let validate = try SpawnProcessRunner().run(["desktop-file-validate", file], timeout: 30)
        #expect(validate.succeeded && validate.stdout.isEmpty && validate.stderr.isEmpty, "\(validate.stdoutText) \(validate.stderrText)")
        // GLib's desktop-entry launcher (what GNOME's session uses for autostart) parses the Exec line.
        let launch = try SpawnProcessRunner().run(["gio", "launch", file], timeout: 30)
        #expect(launch.succeeded, "\(launch.failureSummary)")
        var args: String?
        let deadline = Date().addingTimeInterval(10)
        while args == nil && Date() < deadline {
            if let text = try? String(contentsOfFile: out, encoding: .utf8), text.hasSuffix("\n") { args = text } else { usleep(20_000) }
        }
        #expect(args == "[daemon]\n[50% sure]\n[it's \"quoted\"]\n")
        // Its TryExec= is notif's own program: once that is gone, a desktop launcher skips the entry.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("\nTryExec=" + program.replacingOccurrences(of: "\\", with: "\\\\") + "\n"), "\(text)")
        try FileManager.default.removeItem(atPath: out)
        try FileManager.default.removeItem(atPath: program)
        let gone = try SpawnProcessRunner().run(["gio", "launch", file], timeout: 30)
        #expect(!gone.succeeded, "a launcher started an entry whose program is gone")
        #expect(!FileManager.default.fileExists(atPath: out))
        // Behind /usr/bin/env and settings, the program is still what TryExec names.
        #expect(Autostart.entry(command: ["/usr/bin/env", "XDG_STATE_HOME=/s t", "/opt/notif", "daemon"]).contains("\nTryExec=/opt/notif\n"))
    }

    @Test func installIsIdempotentAndOnlyNotifsOwnFileIsRemovedOrReplaced() throws {
        let scratch = Scratch()
        let paths = scratch.paths
        #expect(try Autostart.install(command: ["/usr/local/bin/notif", "daemon"], paths: paths))
        #expect(!(try Autostart.install(command: ["/usr/local/bin/notif", "daemon"], paths: paths)))
        #expect(try Autostart.remove(paths: paths))
        #expect(!(try Autostart.remove(paths: paths)))
        let file = Autostart.path(in: paths)
        try "[Desktop Entry]\nExec=mine\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: FileError.self) { try Autostart.install(command: ["/n", "daemon"], paths: paths) }
        #expect(throws: FileError.self) { try Autostart.remove(paths: paths) }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "[Desktop Entry]\nExec=mine\n")
    }
}
