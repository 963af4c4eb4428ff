import Foundation
import Testing

@Suite struct CommandLineUsageTests {
    @Test(arguments: [
        ["bogus"], ["set"], ["set", "tips-and-updates"], ["set", "nope", "on"], ["set", "tips-and-updates", "maybe"],
        ["set", "sound", "on"], ["set", "a", "b", "c"], ["permission"], ["permission", "maybe"], ["deliver"],
        ["deliver", "nope"], ["deliver", "--now", "tips-and-updates"], ["status", "--xml"], ["apply", "x"],
        ["history", "-n", "0"], ["history", "-n"], ["test", "x"], ["--scheduler", "anacron", "status"],
        ["--scheduler"], ["help", "bogus"], ["help", "a", "b"], ["daemon", "now"],
        ["daemon", "--install-autostart", "--remove-autostart"],
    ])
    func badUsageExitsTwoWithAMessage(args: [String]) throws {
        let sandbox = Sandbox()
        let result = try sandbox.notif(args)
        #expect(result.status == 2, "\(args): \(result)")
        #expect(result.stderr.hasPrefix("notif: "), "\(result)")
        #expect(result.stderr.contains("notif --help") || result.stderr.contains("Usage: notif"))
        #expect(result.stdout.isEmpty)
        #expect(sandbox.files(in: sandbox.configDir).isEmpty, "bad usage must not write settings")
    }

    @Test func badSchedulerInTheEnvironmentIsUsageToo() throws {
        let result = try Sandbox().notif(["status"], ["NOTIF_SCHEDULER": "at"])
        #expect(result.status == 2 && result.stderr.contains("NOTIF_SCHEDULER 'at'"))
    }

    @Test(arguments: ["status", "set", "permission", "apply", "edit", "deliver", "history", "test", "daemon", "help"])
    func everyCommandHasHelp(command: String) throws {
        let sandbox = Sandbox()
        for args in [[command, "--help"], ["help", command], [command, "-h"]] {
            let result = try sandbox.notif(args)
            #expect(result.status == 0, "\(args): \(result)")
            #expect(result.stdout.hasPrefix("Usage: notif \(command)"), "\(result)")
        }
    }

    /// `TZ=Nowhere/Zone` is UTC (as glibc makes it): commands say so on stderr naming the value;
    /// what a scheduler runs (`deliver --quiet`) stays silent; a real zone says nothing.
    @Test func aTZThatNamesNoZoneIsSaid() throws {
        let sandbox = Sandbox()
        let status = try sandbox.notif(["status"], ["TZ": "Nowhere/Zone", "NOTIF_SCHEDULER": "embedded"])
        #expect(status.status == 0, "\(status)")
        #expect(status.stderr.contains("notif: warning: TZ=Nowhere/Zone is not a time zone notif can find (no such zone file, and not a POSIX TZ rule): times are in UTC"),
                "\(status)")
        let quiet = try sandbox.notif(["deliver", "--quiet", "tips-and-updates"], ["TZ": "Nowhere/Zone", "NOTIF_SCHEDULER": "embedded"])
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet)")
        let fine = try sandbox.notif(["status"], ["TZ": "Asia/Kolkata", "NOTIF_SCHEDULER": "embedded"])
        #expect(!fine.stderr.contains("TZ="), "\(fine)")
    }

    /// A TZ that names no zone writes no entry (it would show the reminder in UTC): the entry
    /// written in the person's zone stays as it was, and the run says why, exit 1 (trial 39, D1).
    @Test func aTZThatNamesNoZoneWritesNoEntry() throws {
        let sandbox = Sandbox()
        let env = ["TZ": "Asia/Kolkata", "NOTIF_SCHEDULER": "embedded"]
        #expect(try sandbox.notif(["permission", "grant"], env).status == 0)
        #expect(try sandbox.notif(["set", "tips-and-updates", "on"], env).status == 0)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sandbox.stateDir + "/embedded")) ?? []
        let entry = sandbox.stateDir + "/embedded/" + (try #require(names.first { $0.hasPrefix("tips-and-updates") }, "no entry in \(names)"))
        let before = try String(contentsOfFile: entry, encoding: .utf8)
        #expect(before.contains("Asia/Kolkata"), "\(before)")
        for args in [["apply"], ["set", "sound", "bell"]] {
            let run = try sandbox.notif(args, ["TZ": "Nowhere/Zone", "NOTIF_SCHEDULER": "embedded"])
            #expect(run.status == 1 && (run.stdout + run.stderr).contains("TZ=Nowhere/Zone is not a time zone notif can find, so notif writes no entry in it: it would show the reminder in UTC"),
                    "\(args): \(run)")
            #expect(!run.stdout.contains("scheduled daily") && run.stdout.contains("an entry already there stays as it was"), "\(args): \(run)")
            #expect(try String(contentsOfFile: entry, encoding: .utf8) == before, "\(args): the entry changed")
        }
    }

    @Test func overviewAndVersion() throws {
        let sandbox = Sandbox()
        let help = try sandbox.notif(["--help"])
        #expect(help.status == 0)
        for command in ["status", "set", "permission", "apply", "deliver", "history", "test", "daemon"] {
            #expect(help.stdout.contains("  " + command), "missing \(command)")
        }
        #expect(help.stdout.contains("Exit status: 0 success, 1 failure"))
        // Units go to ~/.config/systemd/user whatever XDG_CONFIG_HOME says (the user manager's
        // directory), and the help says so.
        #expect(help.stdout.contains("  ~/.config/systemd/user/notif-*"), "\(help.stdout)")
        #expect(!help.stdout.contains("$XDG_CONFIG_HOME/systemd"), "\(help.stdout)")
        let version = try sandbox.notif(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("notif "))
    }
}

@Suite struct CommandLineBehaviourTests {
    @Test func setSavesEvenWithoutPermissionAndSaysHowToGrant() throws {
        let sandbox = Sandbox()
        let env = ["NOTIF_SCHEDULER": "embedded"]
        let entry = sandbox.embeddedEntry
        let result = try sandbox.notif(["set", "tips-and-updates", "on"], env)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("notif permission allow"))
        #expect(!FileManager.default.fileExists(atPath: entry), "scheduled before permission was decided")
        // Granting schedules it: the check above can see an entry.
        #expect(try sandbox.notif(["permission", "grant"], env).status == 0)
        #expect(FileManager.default.fileExists(atPath: entry))
        #expect(try sandbox.notif(["permission", "deny"], env).status == 0)
        #expect(!FileManager.default.fileExists(atPath: entry))
        let settings = try #require(sandbox.read(sandbox.settingsPath))
        #expect(settings.contains("\"tipsAndUpdates\": true"))
        #expect(settings.contains("\"permission\": \"denied\""))
        let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.settingsPath)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        let dirAttributes = try FileManager.default.attributesOfItem(atPath: sandbox.configDir)
        #expect(dirAttributes[.posixPermissions] as? Int == 0o700)
    }

    @Test func everySettingCanBeSetAndReadBackAsJSON() throws {
        let sandbox = Sandbox()
        let env = ["NOTIF_SCHEDULER": "embedded"]
        for (name, value, key, json) in [
            ("push-notifications", "off", "pushNotifications", "false"), ("queue-alerts", "off", "queueAlerts", "false"),
            ("promotions", "on", "promotions", "true"), ("vibration", "off", "vibration", "false"),
            ("sound", "bell", "sound", "\"bell\""),
        ] {
            let result = try sandbox.notif(["set", name, value], env)
            #expect(result.status == 0, "\(result)")
            let status = try sandbox.notif(["status", "--json"], env)
            #expect(status.stdout.contains("\"\(key)\": \(json)"), "\(status)")
        }
    }

    @Test func statusJSONHasANonGMTOffsetUnderTZ() throws {
        let sandbox = Sandbox()
        try sandbox.daemonStartsAtLogin()
        _ = try sandbox.notif(["permission", "grant"])
        #expect(try sandbox.notif(["set", "tips-and-updates", "on"]).status == 0)
        for (tz, offsets) in [("America/New_York", ["-05:00", "-04:00"]), ("Europe/Berlin", ["+01:00", "+02:00"])] {
            let status = try sandbox.notif(["status", "--json"], ["TZ": tz])
            func line(_ key: String) -> String { status.stdout.split(separator: "\n").first { $0.contains("\"\(key)\"") }.map(String.init) ?? "" }
            let next = line("nextReminder")
            #expect(offsets.contains { next.hasSuffix($0 + "\",") || next.hasSuffix($0 + "\"") }, "\(tz): \(status)")
            // The entry was written for Berlin (the sandbox's TZ): in New York it still fires at 09:00
            // in Berlin, and 09:00 there is what is wanted.
            #expect((tz == "Europe/Berlin" ? next : line("wantedReminder")).contains("T09:00:00"), "\(tz): \(status)")
            // The delivery log's times are local too.
            #expect(try sandbox.notif(["test"], ["TZ": tz]).status == 1)
            let history = try sandbox.notif(["history", "-n", "1"], ["TZ": tz])
            #expect(offsets.contains { history.stdout.contains($0) }, "\(tz): \(history)")
        }
    }

    @Test func testFailsWithAReasonWhenNoNotificationServiceIsReachable() throws {
        let sandbox = Sandbox()
        _ = try sandbox.notif(["permission", "allow"])
        let result = try sandbox.notif(["test"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("the test notification was not sent"))
        #expect(result.stderr.contains("D-Bus"))
        let history = try sandbox.notif(["history", "--json"])
        #expect(history.stdout.contains("\"kind\":\"test\"") && history.stdout.contains("\"outcome\":\"failed\""))
    }

    @Test func deliverOfAStaleEntryIsSkippedAndLogged() throws {
        let sandbox = Sandbox()
        let result = try sandbox.notif(["deliver", "tips-and-updates"], ["TZ": ZoneShift.whereItIs(9, 1)])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("skipped: Tips & Updates is off"))
        #expect(sandbox.read(sandbox.stateDir + "/deliveries.jsonl")?.contains("\"outcome\":\"skipped\"") == true)
    }

    /// A run before 09:00 in the user's zone (the line a cron entry has for the other half of
    /// the year) shows nothing and records nothing; `--quiet` says nothing, not even a usage
    /// error, and the exit status still tells.
    @Test func deliverBeforeTheTimeDoesNothingAndQuietSaysNothing() throws {
        let sandbox = Sandbox()
        _ = try sandbox.notif(["permission", "grant"])
        _ = try sandbox.notif(["set", "tips-and-updates", "on"])
        let tz = ZoneShift.whereItIs(8, 0)
        let early = try sandbox.notif(["deliver", "tips-and-updates"], ["TZ": tz])
        #expect(early.status == 0 && early.stdout.contains("skipped: not due yet: 08:00 in \(tz), before 09:00"), "\(early)")
        #expect(sandbox.read(sandbox.stateDir + "/deliveries.jsonl") == nil, "nothing recorded")
        let quiet = try sandbox.notif(["deliver", "--quiet", "tips-and-updates"], ["TZ": tz])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet)")
        for args in [["deliver", "--quiet", "nope"], ["--scheduler", "cron", "deliver", "--quiet", "--bogus", "tips-and-updates"]] {
            let bad = try sandbox.notif(args)
            #expect(bad.status == 2 && bad.stdout.isEmpty && bad.stderr.isEmpty, "\(args): \(bad)")
        }
        // Only deliver is quiet: elsewhere --quiet is a usage error that says so.
        let status = try sandbox.notif(["status", "--quiet"])
        #expect(status.status == 2 && status.stderr.contains("--quiet"), "\(status)")
        // Settings that cannot be read change nothing of that: a wake that is no attempt records
        // nothing; a due one records that it failed, and why.
        try sandbox.write("{\"tipsAndUpdates\": tru}", to: sandbox.settingsPath)
        let unread = try sandbox.notif(["deliver", "tips-and-updates"], ["TZ": tz])
        #expect(unread.status == 0 && unread.stdout.contains("skipped: not due yet: 08:00 in \(tz), before 09:00"), "\(unread)")
        #expect(sandbox.read(sandbox.stateDir + "/deliveries.jsonl") == nil, "nothing recorded")
        try sandbox.entriesFromYesterday()
        let due = try sandbox.notif(["deliver", "tips-and-updates"], ["TZ": ZoneShift.whereItIs(9, 1)])
        #expect(due.status == 1 && due.stdout.contains("failed: cannot read settings: "), "\(due)")
        #expect(sandbox.read(sandbox.stateDir + "/deliveries.jsonl")?.contains("cannot read settings") == true)
        #expect(sandbox.read(sandbox.settingsPath) == "{\"tipsAndUpdates\": tru}", "kept as it is")
    }

    @Test func withNeitherSystemdNorCronTheBuiltInSchedulerHoldsTheEntry() throws {
        let sandbox = Sandbox()
        // A PATH without crontab and no user manager: detection picks the built-in scheduler,
        // which needs `notif daemon`.
        let env = ["PATH": "/nonexistent", "NOTIF_SCHEDULER": ""]
        _ = try sandbox.notif(["permission", "grant"], env)
        let result = try sandbox.notif(["set", "tips-and-updates", "on"], env)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("scheduled daily at 09:00 with embedded"), "\(result)")
        #expect(result.stderr.contains("`notif daemon` is not running"), "\(result)")
        let status = try sandbox.notif(["status"], env)
        #expect(status.stdout.contains("Scheduler:          embedded (notif daemon is not running)\n"), "\(status)")
        #expect(status.stdout.contains("In sync:            yes"), "\(status)")
        #expect(status.stderr.contains("notif daemon --install-autostart"), "\(status)")
    }

    @Test func whenTheForcedSchedulerCannotBeUsedTheSettingIsKeptAndStatusSaysNotInSync() throws {
        let sandbox = Sandbox()
        let env = ["PATH": "/nonexistent", "NOTIF_SCHEDULER": "cron"]
        _ = try sandbox.notif(["permission", "grant"], env)
        let result = try sandbox.notif(["set", "tips-and-updates", "on"], env)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("crontab is not installed"), "\(result)")
        #expect(result.stderr.contains("the setting was saved"))
        #expect(sandbox.read(sandbox.settingsPath)?.contains("\"tipsAndUpdates\": true") == true)
        let status = try sandbox.notif(["status"], env)
        #expect(status.stdout.contains("In sync:            no"), "\(status)")
        #expect(status.stdout.contains("Next reminder:      none — not scheduled"), "\(status)")
    }
}

/// A scheduler's warning ("`notif daemon` is not running") matters only when something should
/// fire: `status` says it while a reminder is planned, and not while nothing is.
@Suite struct StatusWarningTests {
    @Test func schedulerWarningsOnlyWhileSomethingIsPlanned() throws {
        let sandbox = Sandbox()
        let env = ["NOTIF_SCHEDULER": "embedded"]
        let idle = try sandbox.notif(["status"], env)
        #expect(idle.status == 0 && !idle.stderr.contains("notif daemon"), "\(idle)")
        #expect(try sandbox.notif(["permission", "allow"], env).status == 0)
        _ = try sandbox.notif(["set", "tips-and-updates", "on"], env)
        let planned = try sandbox.notif(["status"], env)
        #expect(planned.stderr.contains("embedded: `notif daemon` is not running"), "\(planned)")
    }
}

@Suite struct SettingsFileTests {
    /// A file with a mistake in it: each command that needs the settings names it (line,
    /// column, fix) and exits 1; nothing is moved or rewritten, a later read says the same.
    @Test(arguments: [
        ("", "line 1, column 1: the file is empty — write {} in it for the defaults, or remove it"),
        ("{\"version\": 1, \"tipsAndUpdates\": tr", "line 1, column 34: the word tr — use true, false or null"),
        ("{\"tipsAndUpdates\": \"on\"}", "line 1, column 20: \"tipsAndUpdates\" is \"on\" — use true or false"),
        ("{\"sound\": \"trumpet\"}", "line 1, column 11: \"sound\" is \"trumpet\" — use default, chime, bell or silent"),
        ("{\n  \"sound\": \"bell\",\n  // mine\n}", "line 3, column 3: a comment — remove it: JSON has no comments"),
    ])
    func aFileWithAMistakeIsNamedAndKept(content: String, problem: String) throws {
        let sandbox = Sandbox()
        try sandbox.write(content, to: sandbox.settingsPath)
        for args in [["set", "promotions", "on"], ["status"], ["permission", "status"], ["apply"], ["test"], ["history"]] {
            let result = try sandbox.notif(args)
            #expect(result.status == 1, "\(args): \(result)")
            #expect(result.stderr.contains(sandbox.settingsPath + " " + problem), "\(args): \(result)")
            #expect(result.stderr.contains("fix it with `notif edit`, which checks it before it is saved"), "\(args): \(result)")
            // history lists this machine's records all the same: they need no settings.
            if args == ["history"] { #expect(result.stdout == "No deliveries yet.\n", "\(result)") }
        }
        #expect(sandbox.read(sandbox.settingsPath) == content)
        #expect(sandbox.files(in: sandbox.configDir).filter { $0.hasPrefix("settings") } == ["settings.json"])
    }

    /// A UTF-8 byte order mark at the start is skipped.
    @Test func aByteOrderMarkIsSkipped() throws {
        let sandbox = Sandbox()
        try sandbox.write("\u{FEFF}{\"sound\": \"bell\"}", to: sandbox.settingsPath)
        let result = try sandbox.notif(["status"])
        #expect(result.status == 0 && result.stdout.contains("Sound:") && result.stdout.contains("bell"), "\(result)")
    }

    @Test func aNewerVersionIsRefusedAndKept() throws {
        let sandbox = Sandbox()
        let content = "{\"version\": 3, \"tipsAndUpdates\": true}"
        try sandbox.write(content, to: sandbox.settingsPath)
        for args in [["status"], ["set", "promotions", "on"], ["apply"]] {
            let result = try sandbox.notif(args)
            #expect(result.status == 1, "\(args): \(result)")
            #expect(result.stderr.contains("version 3, newer than this notif understands"))
            #expect(result.stderr.contains(sandbox.settingsPath))
        }
        #expect(sandbox.read(sandbox.settingsPath) == content)
        #expect(sandbox.files(in: sandbox.configDir).filter { $0.contains("corrupt") }.isEmpty)
    }

    @Test func aDirectoryNamedSettingsJSONIsAnError() throws {
        let sandbox = Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.settingsPath, withIntermediateDirectories: true)
        let result = try sandbox.notif(["set", "promotions", "on"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(sandbox.settingsPath) && result.stderr.contains("directory"))
        #expect(try sandbox.notif(["status"]).status == 1)
    }

    @Test(.enabled(if: isRoot, "needs root to make a user that root's permissions do not cover"))
    func anUnreadableFileIsAnErrorNamingItAndNothingIsReset() throws {
        let user = try TestUser.make("notif-tperm")
        _ = try user.run([NotifBinary.path, "set", "tips-and-updates", "on"])
        let before = user.read(user.settingsPath)
        #expect(before?.contains("\"tipsAndUpdates\": true") == true)
        chmod(user.settingsPath, 0o000)
        defer { chmod(user.settingsPath, 0o600) }
        for args in [["status"], ["set", "promotions", "on"]] {
            let result = try user.run([NotifBinary.path] + args)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains(user.settingsPath) && result.stderr.contains("Permission denied"), "\(result)")
        }
        chmod(user.settingsPath, 0o600)
        #expect(user.read(user.settingsPath) == before)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: user.home + "/.config/notif")) ?? []).filter { $0.contains("corrupt") }.isEmpty)
    }

    @Test(.enabled(if: isRoot, "needs root to make a user"))
    func anUnwritableConfigDirectoryKeepsTheOldSettings() throws {
        let user = try TestUser.make("notif-tro")
        _ = try user.run([NotifBinary.path, "set", "promotions", "on"])
        let dir = user.home + "/.config/notif"
        chmod(dir, 0o500)
        defer { chmod(dir, 0o700) }
        let result = try user.run([NotifBinary.path, "set", "promotions", "off"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("nothing was changed"))
        #expect(result.stderr.contains(dir))
        #expect(user.read(user.settingsPath)?.contains("\"promotions\": true") == true)
    }
}
