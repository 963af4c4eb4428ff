import Foundation
import Testing
import SharedLogic
@testable import LinuxGateway
import TestSupport

@Suite struct CronGatewayCallTests {
    func gateway(_ store: CrontabStore, scratch: Scratch) -> (CronGateway, RecordingRunner) {
        let runner = RecordingRunner { store.respond($0) }
        return (CronGateway(runner: runner, lockPath: scratch.path + "/crontab.lock", owner: testOwner), runner)
    }

    @Test func installOnAnEmptyCrontabReadsThenWritesTheBlock() throws {
        let scratch = Scratch()
        let store = CrontabStore()
        let (cron, runner) = gateway(store, scratch: scratch)
        #expect(try cron.installed().isEmpty)
        try cron.install(tipsEntry())
        // Listed for the entries, read exactly (`crontab -e` with cat for the editor), written.
        #expect(runner.argvs == [["crontab", "-l"], ["crontab", "-e"], ["crontab", "-"]])
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/crontab.new"), "the staging file is removed")
        #expect(store.current == """
            \(CrontabBlock.beginMarker(testOwner))
            # settings: /home/tester/.config/notif/settings.json
            SHELL=/bin/sh
            PATH=/usr/bin:/bin
            # notif reminder: tips-and-updates
            0 9 * * * [ -x /usr/local/bin/notif ] && exec \(cronPins) /usr/local/bin/notif deliver tips-and-updates
            @reboot [ -x /usr/local/bin/notif ] && exec \(cronPins) /usr/local/bin/notif deliver --catch-up tips-and-updates
            \(CrontabBlock.closingComment)
            \(CrontabBlock.endMarker(testOwner))

            """)
    }

    /// A line of the user's own put inside notif's block is not taken for notif's: the entry's
    /// program is the one notif's lines test (`[ -x PROGRAM ]`), not `echo`.
    @Test func aLineOfTheUsersInsideTheBlockIsNotNotifsProgram() throws {
        let scratch = Scratch()
        let (cron, _) = gateway(CrontabStore(), scratch: scratch)
        let text = """
            # notif reminder: tips-and-updates
            0 12 * * * echo hello
            0 9 * * * [ -x /usr/local/bin/notif ] && exec /usr/local/bin/notif deliver tips-and-updates

            """
        #expect(cron.entry("tips-and-updates", installed: text, userZone: .utc).program == "/usr/local/bin/notif")
    }

    @Test func aNoOpApplyRunsOneCrontabListAndNothingElse() throws {
        let scratch = Scratch()
        let store = CrontabStore("MAILTO=\"\"\n")
        let (cron, runner) = gateway(store, scratch: scratch)
        let p = NotificationPreferences.tipsOnAndAllowed
        _ = LocalReminders.apply(p, gateway: cron, entry: { _ in tipsEntry() })
        let before = runner.calls.count
        let report = LocalReminders.apply(p, gateway: cron, entry: { _ in tipsEntry() })
        #expect(report.result(for: "tips-and-updates") == .unchanged)
        #expect(runner.argvs.dropFirst(before) == [["crontab", "-l"]])
    }

    @Test func cancellingTheLastEntryRemovesTheCrontabWhenTheUserHadNone() throws {
        let scratch = Scratch()
        let store = CrontabStore()
        let (cron, runner) = gateway(store, scratch: scratch)
        try cron.install(tipsEntry())
        try cron.cancel("tips-and-updates")
        #expect(runner.argvs.suffix(2) == [["crontab", "-e"], ["crontab", "-r"]])
        #expect(store.current == nil)
    }

    @Test func cancellingKeepsTheUsersLinesExactly() throws {
        let scratch = Scratch()
        let user = "# mine\nMAILTO=\"\"\n\n*/5 * * * * echo 100% done\n"
        let store = CrontabStore(user)
        let (cron, _) = gateway(store, scratch: scratch)
        try cron.install(tipsEntry())
        #expect(store.current?.hasPrefix(user) == true)
        try cron.cancel("tips-and-updates")
        #expect(store.current == user)
    }

    /// The table goes to `crontab -` as the bytes cron holds: Latin-1 and invalid UTF-8 in the
    /// user's lines survive turning the reminder on and off.
    @Test func nonUTF8UserLinesSurviveInstallAndCancel() throws {
        let scratch = Scratch()
        let user: [UInt8] = Array("# r".utf8) + [0xE9] + Array("sum".utf8) + [0xE9, 0x0A]
            + Array("* * * * * touch /tmp/caf".utf8) + [0xE9, 0x0A] + [0xC3, 0x28, 0xFF, 0x0A]
        let store = CrontabStore(bytes: user)
        let (cron, runner) = gateway(store, scratch: scratch)
        try cron.install(tipsEntry())
        #expect(store.currentBytes?.starts(with: user) == true)
        #expect(try cron.installed().keys.sorted() == ["tips-and-updates"])
        let before = runner.calls.count
        try cron.install(tipsEntry())
        #expect(runner.argvs.dropFirst(before) == [["crontab", "-e"]], "the same entry again writes nothing")
        try cron.cancel("tips-and-updates")
        #expect(store.currentBytes == user)
    }

    /// Carriage returns are bytes like any other: `crontab -l` prints one as the two characters
    /// `\r` (the fake does so, as Debian's), so a table written back from it would change the
    /// user's lines; the exact read keeps them. The trial's `MAILTO=""` with a CR stays one.
    @Test func carriageReturnsInTheUsersLinesSurviveInstallAndCancel() throws {
        let scratch = Scratch()
        let user = Array("# comment\r\nMAILTO=\"\"\r\n# a literal \\r stays two characters\n5 5 * * * /bin/true\r\n".utf8)
        let store = CrontabStore(bytes: user)
        let (cron, _) = gateway(store, scratch: scratch)
        try cron.install(tipsEntry())
        #expect(store.currentBytes?.starts(with: user) == true)
        #expect(try cron.installed().keys.sorted() == ["tips-and-updates"])
        try cron.cancel("tips-and-updates")
        #expect(store.currentBytes == user)
    }

    /// The block runs under its own SHELL and PATH whatever the user's lines above set, and the
    /// lines below it get the user's values back: their own lines, exactly (a CR kept).
    @Test func theBlockSetsItsShellAndPathAndGivesTheUsersBack() throws {
        let scratch = Scratch()
        let above = "SHELL=/bin/false\n PATH = /nonexistent\r\nMAILTO=\"\"\n"
        let below = "* * * * * echo mine\n"
        let store = CrontabStore(above)
        let (cron, _) = gateway(store, scratch: scratch)
        try cron.install(tipsEntry())
        store.append(below)
        try cron.install(tipsEntry("/opt/notif"))
        // Split as bytes: a Swift string holds CR LF as one character.
        let lines = (store.currentBytes ?? []).split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let shell = try #require(lines.firstIndex(of: "SHELL=/bin/sh")), job = try #require(lines.firstIndex { $0.hasPrefix("0 9 ") })
        #expect(shell < job && lines.firstIndex(of: "PATH=/usr/bin:/bin").map { $0 < job } == true, "\(lines)")
        let end = try #require(lines.firstIndex(of: CrontabBlock.endMarker(testOwner)))
        #expect(Array(lines[(end - 3)..<end]) == ["SHELL=/bin/false", " PATH = /nonexistent\r", CrontabBlock.closingComment], "\(lines)")
        #expect(store.current?.hasPrefix(above) == true && store.current?.hasSuffix(below) == true)
        try cron.cancel("tips-and-updates")
        #expect(store.current == above + below)
    }

    /// An earlier notif's block has no SHELL and PATH lines, and the user's SHELL line above may
    /// change: its entries then never look current, so the next apply rewrites the block.
    @Test func aBlockWithoutTheRightAssignmentsIsNotCurrent() throws {
        let scratch = Scratch()
        let store = CrontabStore()
        let (cron, _) = gateway(store, scratch: scratch)
        let p = NotificationPreferences.tipsOnAndAllowed
        _ = LocalReminders.apply(p, gateway: cron, entry: { _ in tipsEntry() })
        #expect(LocalReminders.apply(p, gateway: cron, entry: { _ in tipsEntry() }).result(for: "tips-and-updates") == .unchanged)
        store.replace { "SHELL=/bin/zsh\n" + $0.replacingOccurrences(of: "SHELL=/bin/sh\n", with: "") }
        #expect(try cron.installed()["tips-and-updates"]?.hasPrefix(CrontabBlock.staleEnvironmentNote) == true)
        #expect(LocalReminders.apply(p, gateway: cron, entry: { _ in tipsEntry() }).result(for: "tips-and-updates") == .installed)
        #expect(store.current?.contains("SHELL=/bin/sh\n") == true && store.current?.contains("SHELL=/bin/zsh\n\(CrontabBlock.closingComment)\n# END") == true, "\(store.current ?? "")")
        #expect(LocalReminders.apply(p, gateway: cron, entry: { _ in tipsEntry() }).result(for: "tips-and-updates") == .unchanged)
    }

    /// A line cron refuses is named by its number in the user's crontab (as `crontab -e` shows
    /// it, without notif's block), with its text; crontab itself counts the fed lines, from 0
    /// for a fault inside a line.
    @Test func aLineCronRefusesIsNamedByItsNumberInTheUsersCrontab() throws {
        let scratch = Scratch()
        let table = "# mine\n5 5 * * * /bin/true\n" + CrontabBlock.beginMarker(testOwner) + "\n# notif reminder: tips-and-updates\n0 9 * * * x\n"
            + CrontabBlock.endMarker(testOwner) + "\n# below\nx 5 * * * /bin/true\n"
        let store = CrontabStore(table)
        let runner = RecordingRunner { call in
            guard call.argv == ["crontab", "-"] else { return store.respond(call) }
            let lines = (call.inputText ?? "").split(separator: "\n", omittingEmptySubsequences: false)
            let bad = lines.firstIndex { $0.hasPrefix("x ") } ?? 0
            return ProcessResult(exitStatus: 1, stderr: Array("\"-\":\(bad): bad minute\nerrors in crontab file, can't install.\n".utf8))
        }
        let cron = CronGateway(runner: runner, lockPath: scratch.path + "/l", owner: testOwner)
        #expect {
            try cron.install(tipsEntry())
        } throws: { error in
            "\(error)" == #"cron refuses line 8 of your crontab (bad minute): "x 5 * * * /bin/true"; your crontab was not changed: fix or remove that line (`crontab -e`), then run `notif apply`"#
        }
        #expect(store.current == table)
    }

    @Test func cancellingWhatIsNotThereWritesNothing() throws {
        let scratch = Scratch()
        let store = CrontabStore("x\n")
        let (cron, runner) = gateway(store, scratch: scratch)
        try cron.cancel("tips-and-updates")
        #expect(runner.argvs == [["crontab", "-e"]])
    }

    @Test func failuresCarryCrontabsOwnWords() {
        let scratch = Scratch()
        let runner = RecordingRunner { call in
            if call.argv == ["crontab", "-l"] || call.argv == ["crontab", "-e"] { return ProcessResult(exitStatus: 0, stdout: Array("a\n".utf8)) }
            return ProcessResult(exitStatus: 1, stderr: Array("You (x) are not allowed to use this program (crontab)\n".utf8))
        }
        let cron = CronGateway(runner: runner, lockPath: scratch.path + "/l", owner: testOwner)
        #expect {
            try cron.install(tipsEntry())
        } throws: { error in
            let text = "\(error)"
            return text.contains("not allowed to use this program") && text.contains("was not changed")
        }
    }

    @Test func aListingFailureIsNotMistakenForAnEmptyCrontab() {
        let scratch = Scratch()
        let runner = RecordingRunner { _ in ProcessResult(exitStatus: 1, stderr: Array("cannot open spool\n".utf8)) }
        let cron = CronGateway(runner: runner, lockPath: scratch.path + "/l", owner: testOwner)
        #expect { try cron.installed() } throws: { "\($0)".contains("cannot open spool") }
        #expect(throws: GatewayError.self) { try cron.install(tipsEntry()) }
        #expect(!runner.argvs.contains(["crontab", "-"]))
    }

    @Test func aMissingCrontabProgramSaysWhatToInstall() {
        let scratch = Scratch()
        let runner = RecordingRunner { call throws(SpawnError) in throw SpawnError(program: call.argv[0], code: ENOENT) }
        let cron = CronGateway(runner: runner, lockPath: scratch.path + "/l", owner: testOwner)
        #expect { try cron.installed() } throws: { "\($0)".contains("apt install cron") }
    }
}

/// The same gateway against the real `crontab` of a throwaway user.
@Suite(.enabled(if: getuid() == 0, "needs root to create a throwaway user"), .serialized)
struct CronGatewayRealCrontabTests {
    @Test func installReinstallAndCancelOnTheRealCrontab() throws {
        let user = try ThrowawayUser.make("notif-tgw")
        let user_lines = "# my own line with 50% and 'quotes'\nMAILTO=\"\"\n\n17 3 * * * /bin/true # keep\n"
        try user.setCrontab(user_lines)
        let scratch = Scratch()
        let cron = CronGateway(runner: AsUserRunner(user: user.name), lockPath: scratch.path + "/l", owner: testOwner)
        try cron.install(tipsEntry("/opt/my tools/50%/notif"))
        let installed = try user.crontab()
        #expect(installed.hasPrefix(user_lines))
        #expect(installed.contains(#"0 9 * * * [ -x '/opt/my tools/50\%/notif' ] && exec "# + cronPins + #" '/opt/my tools/50\%/notif' deliver tips-and-updates"#))
        #expect(installed.contains(#"@reboot [ -x '/opt/my tools/50\%/notif' ] && exec "# + cronPins + #" '/opt/my tools/50\%/notif' deliver --catch-up tips-and-updates"#))
        #expect(try cron.installed().keys.sorted() == ["tips-and-updates"])
        try cron.install(tipsEntry("/usr/bin/notif"))
        #expect(try user.crontab().components(separatedBy: "deliver tips-and-updates").count == 2)
        try cron.cancel("tips-and-updates")
        #expect(try user.crontab() == user_lines)
        try user.setCrontab(nil)
        try cron.install(tipsEntry())
        try cron.cancel("tips-and-updates")
        #expect(try user.crontab() == "")
        #expect(user.hasNoCrontab)
    }

    /// The longest command notif writes is the longest the real `crontab` takes.
    @Test func theLongestCommandIsCrons() throws {
        let user = try ThrowawayUser.make("notif-tgwlong")
        let longest = CronCommand.longestCommand
        try user.setCrontab("0 9 * * * " + String(repeating: "x", count: longest) + "\n")
        #expect(throws: (any Error).self) { try user.setCrontab("0 9 * * * " + String(repeating: "x", count: longest + 1) + "\n") }
        try user.setCrontab(nil)
    }
}

/// The lines for a user in another zone than the cron daemon's, with both zones injected.
@Suite struct CronGatewayZoneTests {
    /// The trial's case: the system in Europe/Berlin, the user in Asia/Shanghai. 09:00 in
    /// Shanghai is 03:00 CEST in summer and 02:00 CET in winter; on the last Sunday of October it
    /// is 02:00 CET in the repeated hour, where cron runs no fixed-time line, so an hourly line on
    /// the days that Sunday can fall on runs at 02:01 CET (09:01 in Shanghai).
    @Test func aUserWhoseNineIsInTheRepeatedHourGetsAWildcardLine() throws {
        let cron = CronGateway(runner: RecordingRunner { _ in .init(exitStatus: 0) }, lockPath: "/nonexistent/l", owner: testOwner,
                               systemZone: { systemZone("Europe/Berlin") }, clock: FixedClock(instant: Instant(seconds: 1_796_040_000)))
        let entry = ScheduledEntry(reminder: LocalReminders.tipsAndUpdates, command: ["/usr/bin/env", "TZ=Asia/Shanghai", "/usr/bin/notif", "deliver", "tips-and-updates"],
                                   catchUpCommand: ["/usr/bin/env", "TZ=Asia/Shanghai", "/usr/bin/notif", "deliver", "--catch-up", "tips-and-updates"],
                                   program: "/usr/bin/notif", zone: systemZone("Asia/Shanghai"), zoneVariable: "Asia/Shanghai")
        let run = "[ -x /usr/bin/notif ] && exec /usr/bin/env -u TZDIR -u XDG_CONFIG_HOME -u XDG_STATE_HOME -u XDG_DATA_HOME TZ=Asia/Shanghai /usr/bin/notif deliver tips-and-updates"
        #expect(try cron.render(entry) == """
            # notif reminder: tips-and-updates
            0 2 * * * \(run)
            0 3 * * * \(run)
            1 * 25,26,27,28,29,30,31 10 * \(run)
            @reboot [ -x /usr/bin/notif ] && exec /usr/bin/env -u TZDIR -u XDG_CONFIG_HOME -u XDG_STATE_HOME -u XDG_DATA_HOME TZ=Asia/Shanghai /usr/bin/notif deliver --catch-up tips-and-updates

            """)
        let firing = try #require(cron.firing(try cron.render(entry), userZone: systemZone("Asia/Shanghai")))
        #expect(firing == EntryFiring(.cron(times: [DailyTime(hour: 2, minute: 0), DailyTime(hour: 3, minute: 0)], systemZone: "Europe/Berlin",
                                            matchesWanted: true, hourlyOnFallBack: true),
                                      wanted: WantedTime(time: DailyTime(hour: 9, minute: 0), zone: "Asia/Shanghai")))
        // The same zone for both, or none set: no extra line.
        let plain = try cron.render(tipsEntry())
        #expect(plain.split(separator: "\n").count == 3, "\(plain)")
    }
}
