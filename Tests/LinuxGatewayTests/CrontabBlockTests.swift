import Testing
import TestSupport
import SharedLogic
import Storage
@testable import LinuxGateway

@Suite struct CrontabBlockTests {
    let entry = "# notif reminder: tips-and-updates\n0 9 * * * /usr/local/bin/notif deliver tips-and-updates\n"

    @Test func installIntoEmptyAndRemoveLeavesNothing() {
        var block = CrontabBlock(parsing: "", owner: testOwner)
        block.set("tips-and-updates", to: entry)
        #expect(String(decoding: block.bytes, as: UTF8.self) == """
            # BEGIN notif managed block \(testOwner.tag): changed by `notif set` and `notif apply`; edits here are replaced
            # settings: /home/tester/.config/notif/settings.json
            SHELL=/bin/sh
            PATH=/usr/bin:/bin
            \(entry)\(CrontabBlock.closingComment)
            # END notif managed block \(testOwner.tag)

            """)
        var again = CrontabBlock(parsing: block.bytes, owner: testOwner)
        #expect(again.installed == ["tips-and-updates": entry])
        again.remove("tips-and-updates")
        #expect(again.bytes == [])
    }

    @Test func severalBlocksMergeIntoOneAtTheFirstPlace() {
        let text = "A\n\(CrontabBlock.beginMarker(testOwner))\n\(entry)\(CrontabBlock.endMarker(testOwner))\nB\n\(CrontabBlock.beginMarker(testOwner))\n# notif reminder: other\n1 2 * * * notif deliver other\n\(CrontabBlock.endMarker(testOwner))\nC\n"
        let block = CrontabBlock(parsing: text, owner: testOwner)
        #expect(block.installed.keys.sorted() == ["other", "tips-and-updates"])
        #expect(block.before == Array("A\n".utf8))
        #expect(block.after == Array("B\nC\n".utf8))
    }

    /// A line put into notif's block by hand is the user's: kept byte for byte, below the block.
    @Test func aLineOfTheUsersInsideTheBlockIsKept() {
        let mine: [UInt8] = Array("# MINE inside the block ".utf8) + [0xe9, 0x0d, 0x0a] + Array("MAILTO=me\n0 12 * * * echo hello\n".utf8)
        let text = Array("A\n\(CrontabBlock.beginMarker(testOwner))\n# settings: /x\nSHELL=/bin/sh\n".utf8) + mine
            + Array("\(entry)\(CrontabBlock.endMarker(testOwner))\nB\n".utf8)
        let block = CrontabBlock(parsing: text, owner: testOwner)
        #expect(block.installed.keys.sorted() == ["tips-and-updates"])
        #expect(block.before == Array("A\n".utf8))
        #expect(block.after == mine + Array("B\n".utf8))
        var off = block
        off.remove("tips-and-updates")
        #expect(off.bytes == Array("A\n".utf8) + mine + Array("B\n".utf8))
        #expect(block.installed["tips-and-updates"]?.contains(CrontabBlock.heldByHandNote) == true, "not in sync while they are there")
    }

    /// After the block's closing comment every line is the user's: a SHELL line put just before
    /// the end (REPORT-25 B3) is kept, below the block, and never taken for a give-back. Blocks of
    /// earlier notifs (no closing comment) keep the old reading: the end follows the give-backs.
    @Test func aLineJustBeforeTheEndIsTheUsersAfterTheClosingComment() {
        var block = CrontabBlock(parsing: "SHELL=/bin/zsh\n", owner: testOwner)
        block.set("tips-and-updates", to: entry)
        let written = String(decoding: block.bytes, as: UTF8.self)
        #expect(written.contains("SHELL=/bin/zsh\n\(CrontabBlock.closingComment)\n# END"), "\(written)")
        let mine = "SHELL=/bin/bash\r\nPATH=/home/me/bin\n"
        let edited = written.replacingOccurrences(of: CrontabBlock.closingComment + "\n", with: CrontabBlock.closingComment + "\n" + mine)
        let again = CrontabBlock(parsing: edited, owner: testOwner)
        #expect(again.after == Array(mine.utf8) && again.heldByHand)
        #expect(again.environment == CronEnvironment.lines + [Array("SHELL=/bin/zsh".utf8)])
        #expect(String(decoding: again.bytes, as: UTF8.self) == written + mine, "kept, below the block")
        let reset = CrontabBlock.withoutEveryBlock(Array(edited.utf8))
        #expect(reset.kept == Array(("SHELL=/bin/zsh\n" + mine).utf8), "\(String(decoding: reset.kept, as: UTF8.self))")
        // An earlier notif's block: the lines its end follows are its give-backs.
        let old = edited.replacingOccurrences(of: CrontabBlock.closingComment + "\n", with: "")
        #expect(CrontabBlock(parsing: old, owner: testOwner).after.isEmpty)
    }

    /// SHELL and PATH lines among the entries, and any but notif's own two before them, are the
    /// user's (kept); those the block's end follows are what it gives back, even stale ones.
    @Test func shellAndPathLinesAmongTheEntriesAreTheUsers() {
        let begin = "\(CrontabBlock.beginMarker(testOwner))\nSHELL=/bin/sh\nPATH=/usr/bin:/bin\n# notif reminder: tips-and-updates\n"
        let job = "0 9 * * * /usr/local/bin/notif deliver tips-and-updates\n"
        let among = CrontabBlock(parsing: begin + "SHELL=/bin/false\r\nMAILTO=me\nPATH=/nonexistent\n" + job + "\(CrontabBlock.endMarker(testOwner))\n", owner: testOwner)
        #expect(among.after == Array("SHELL=/bin/false\r\nMAILTO=me\nPATH=/nonexistent\n".utf8), "in their order")
        #expect(among.environment == CronEnvironment.lines && among.heldByHand)
        // cron runs the job with the user's shell: status cannot promise it runs at all.
        #expect(among.shellByHand == ["tips-and-updates": "SHELL=/bin/false\r"])
        let entry = CronGateway(runner: RecordingRunner { _ in ProcessResult(exitStatus: 0) }, lockPath: "/nonexistent/l", owner: testOwner).entry("tips-and-updates", installed: among.installed["tips-and-updates"]!, userZone: .utc)
        #expect(entry.runByHand == "SHELL=/bin/false\\u{D}", "\(among.installed)")
        // Before the first entry too; a SHELL line after the last job (a give-back) is no such line.
        let leading = CrontabBlock(parsing: begin.replacingOccurrences(of: "PATH=/usr/bin:/bin\n", with: "PATH=/usr/bin:/bin\nSHELL=/bin/false\n") + job
                                 + "\(CrontabBlock.endMarker(testOwner))\n", owner: testOwner)
        #expect(leading.shellByHand == ["tips-and-updates": "SHELL=/bin/false"] && leading.heldByHand)
        // Put back by notif's own SHELL line after it, or only before the @reboot line: the daily
        // line runs as notif wrote it (REPORT-27 B4).
        let overridden = CrontabBlock(parsing: "\(CrontabBlock.beginMarker(testOwner))\nSHELL=/bin/false\nSHELL=/bin/sh\nPATH=/usr/bin:/bin\n"
                                      + "# notif reminder: tips-and-updates\n" + job + "\(CrontabBlock.endMarker(testOwner))\n", owner: testOwner)
        #expect(overridden.shellByHand.isEmpty && overridden.heldByHand)
        let bootOnly = CrontabBlock(parsing: begin + job + "SHELL=/bin/false\nMAILTO=x\n@reboot /usr/local/bin/notif deliver --catch-up tips-and-updates\n"
                                    + "\(CrontabBlock.endMarker(testOwner))\n", owner: testOwner)
        #expect(bootOnly.shellByHand.isEmpty && bootOnly.heldByHand)
        // Its daily line deleted by hand: it runs only when cron starts, never at 09:00 (REPORT-27 B1).
        let noDaily = CronGateway(runner: RecordingRunner { _ in ProcessResult(exitStatus: 0) }, lockPath: "/nonexistent/l", owner: testOwner)
            .entry("tips-and-updates", installed: "# notif reminder: tips-and-updates\n@reboot /usr/local/bin/notif deliver --catch-up tips-and-updates\n", userZone: .utc)
        #expect(noDaily.firing.map { FiringWords.text($0) }?.hasPrefix("cron only when cron starts") == true, "\(String(describing: noDaily.firing))")
        let stale = CrontabBlock(parsing: begin + job + "SHELL=/bin/zsh\n\(CrontabBlock.endMarker(testOwner))\n", owner: testOwner)
        #expect(stale.after.isEmpty && !stale.heldByHand)
        #expect(stale.environment == CronEnvironment.lines + [Array("SHELL=/bin/zsh".utf8)])
        #expect(stale.installed["tips-and-updates"]?.hasPrefix(CrontabBlock.staleEnvironmentNote) == true)
        // Before the entries only notif's own two lines are notif's.
        let first = "\(CrontabBlock.beginMarker(testOwner))\nSHELL=/bin/sh\nPATH=/usr/bin:/bin\nPATH=/home/me/bin:/usr/bin:/bin\n# notif reminder: tips-and-updates\n"
        let mine = CrontabBlock(parsing: first + job + "\(CrontabBlock.endMarker(testOwner))\n", owner: testOwner)
        #expect(mine.after == Array("PATH=/home/me/bin:/usr/bin:/bin\n".utf8) && mine.environment == CronEnvironment.lines && mine.heldByHand)
        #expect(CrontabBlock.withoutEveryBlock(Array((first + job).utf8)).kept == Array("PATH=/home/me/bin:/usr/bin:/bin\n".utf8))
        // reset --entries keeps them the same way.
        let split = CrontabBlock.withoutEveryBlock(Array((begin + "SHELL=/bin/false\r\n" + job + "SHELL=/bin/zsh\n\(CrontabBlock.endMarker(testOwner))\n").utf8))
        #expect(split.kept == Array("SHELL=/bin/false\r\n".utf8), "\(String(decoding: split.kept, as: UTF8.self))")
    }

    /// Property: over many generated user crontabs, install, reinstall and removal keep the
    /// user's text byte for byte.
    @Test func userLinesSurviveInstallReinstallAndRemoval() {
        var random = SeededRandom(seed: 42)
        let pieces = [
            "# comment with 100% and 'quotes'\n", "MAILTO=\"\"\n", "\n", "   \n", "\t# tabbed\n",
            "*/5 * * * * echo 50% > /dev/null\n", "@reboot /usr/bin/true\n", "SHELL=/bin/bash\n",
            "0 0 1 1 * printf 'a\\%b' | cat\n", "# notif is great\n", "# BEGIN something else\n",
            "30 2 * * 1-5 /home/user/bin/backup.sh --all\n", "PATH=/usr/local/bin:/usr/bin\n", "é ünïcode ✓\n",
        ]
        for _ in 0..<500 {
            let count = Int(random.next() % 12)
            var user = (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            // Sometimes the user's block comes after ours on re-parse.
            let split = Int(random.next() % UInt64(count + 1))
            var block = CrontabBlock(parsing: user, owner: testOwner)
            block.set("tips-and-updates", to: entry)
            var text = String(decoding: block.bytes, as: UTF8.self)
            #expect(text.hasPrefix(user))
            // The user adds lines after our block; we reinstall and then remove.
            let tail = (0..<split).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            text += tail
            user += tail
            var second = CrontabBlock(parsing: Array(text.utf8), owner: testOwner)
            #expect(second.installed == ["tips-and-updates": entry])
            second.set("tips-and-updates", to: entry.replacingOccurrences(of: "/usr/local", with: "/opt"))
            var third = CrontabBlock(parsing: second.bytes, owner: testOwner)
            #expect(third.installed.count == 1)
            third.remove("tips-and-updates")
            #expect(third.bytes == Array(user.utf8))
        }
    }

    /// A crontab is bytes, not text: Latin-1 comments and file names and invalid UTF-8 sequences
    /// in the user's lines come back exactly through install, reinstall and removal (decoded as
    /// UTF-8 they would turn into U+FFFD, and a job would touch another file).
    @Test func nonUTF8UserLinesRoundTripByteForByte() {
        let pieces: [[UInt8]] = [
            Array("# r".utf8) + [0xE9] + Array("sum".utf8) + [0xE9, 0x0A],         // Latin-1 comment
            Array("* * * * * touch /tmp/caf".utf8) + [0xE9, 0x0A],                 // Latin-1 file name
            [0xC3, 0x28, 0x0A],                                                   // invalid 2-byte sequence
            Array("# cut ".utf8) + [0xE2, 0x82, 0x0A],                            // truncated 3-byte sequence
            [0xF0, 0x9F, 0x98, 0x0A],                                             // truncated 4-byte sequence
            [0xC0, 0xAF, 0xED, 0xA0, 0x80, 0x0A],                                 // overlong, surrogate
            [0xFF, 0xFE, 0x80, 0xBF, 0x0A],                                       // never valid, lone continuations
            Array("0 1 * * * echo ok\r\n".utf8),                                   // CRLF
            Array(CrontabBlock.beginMarker(testOwner).utf8) + [0xE9, 0x0A],                  // not quite a marker: the user's
            Array("é ünïcode ✓\n".utf8),                                         // valid UTF-8 too
        ]
        var random = SeededRandom(seed: 7)
        for round in 0..<300 {
            var user: [UInt8] = (0..<Int(random.next() % 8)).flatMap { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
            // Sometimes the last user line lacks its newline (crontab -l prints what it holds).
            if round % 5 == 0 && !user.isEmpty { user.removeLast() }
            var block = CrontabBlock(parsing: user, owner: testOwner)
            #expect(block.before == user && block.installed.isEmpty)
            block.set("tips-and-updates", to: entry)
            var table = block.bytes
            #expect(table.starts(with: user))
            // The user adds bytes after notif's block; notif reinstalls with another path, then removes.
            let tail: [UInt8] = (0..<Int(random.next() % 4)).flatMap { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
            table += tail
            var second = CrontabBlock(parsing: table, owner: testOwner)
            #expect(second.installed == ["tips-and-updates": entry])
            #expect(second.after == tail)
            second.set("tips-and-updates", to: entry.replacingOccurrences(of: "/usr/local", with: "/opt"))
            var third = CrontabBlock(parsing: second.bytes, owner: testOwner)
            third.remove("tips-and-updates")
            var expected = user
            if !expected.isEmpty && expected.last != 0x0A { expected.append(0x0A) }  // the block needed a line start
            #expect(third.bytes == expected + tail, "round \(round)")
        }
    }

    /// Property: random bytes in the user's lines (any byte but a newline: CR, NUL, invalid
    /// UTF-8, assignments of SHELL and PATH, things that look like notif's markers) come back
    /// exactly through install, an edit below the block, reinstall and removal; the block's
    /// SHELL and PATH lines give back the user's last ones above it, byte for byte.
    @Test func randomBytesRoundTripAndTheUsersAssignmentsComeBack() {
        let seed = RunSeed.fromEnvironment()
        var random = SeededRandom(seed: seed)
        let starts: [[UInt8]] = [[], Array("SHELL=".utf8), Array(" PATH = ".utf8), Array("\"SHELL\"=".utf8), Array("# ".utf8),
                                 Array("* * * * * ".utf8), Array("# BEGIN notif managed block".utf8), Array("MAILTO=\"\"".utf8)]
        func line() -> [UInt8] {
            let body = (0..<Int.random(in: 0...20, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }.filter { $0 != 0x0A }
            return starts.randomElement(using: &random)! + body + (Bool.random(using: &random) ? [0x0D, 0x0A] : [0x0A])
        }
        for round in 0..<400 {
            let user = (0..<Int.random(in: 0...8, using: &random)).flatMap { _ in line() }
            let tail = (0..<Int.random(in: 0...4, using: &random)).flatMap { _ in line() }
            var block = CrontabBlock(parsing: user, owner: testOwner)
            block.set("tips-and-updates", to: entry)
            let table = block.bytes + tail
            #expect(table.starts(with: user), "NOTIF_SEED=\(seed) round \(round)")
            var again = CrontabBlock(parsing: table, owner: testOwner)
            #expect(again.before == user && again.after == tail && again.installed == ["tips-and-updates": entry], "NOTIF_SEED=\(seed) round \(round)")
            // The restoring lines are the user's own last SHELL and PATH lines above.
            let restored = CronEnvironment.restoring(above: user)
            #expect(again.environment == CronEnvironment.lines + restored, "NOTIF_SEED=\(seed) round \(round)")
            for line in restored { #expect(user.containsLine(line), "NOTIF_SEED=\(seed) round \(round)") }
            again.set("tips-and-updates", to: entry.replacingOccurrences(of: "/usr/local", with: "/opt"))
            var third = CrontabBlock(parsing: again.bytes, owner: testOwner)
            third.remove("tips-and-updates")
            #expect(third.bytes == user + tail, "NOTIF_SEED=\(seed) round \(round)")
        }
    }
}

extension Array where Element == UInt8 {
    /// Whether one of the lines (split on newlines) is exactly `line`.
    func containsLine(_ line: [UInt8]) -> Bool { split(separator: 0x0A, omittingEmptySubsequences: false).contains { Array($0) == line } }
}

/// Several configurations of one user (another `XDG_CONFIG_HOME`) each keep their own block;
/// the untagged block of an earlier notif belongs to the default configuration.
@Suite struct CrontabBlockOwnershipTests {
    let entry = "# notif reminder: tips-and-updates\n0 9 * * * /usr/local/bin/notif deliver tips-and-updates\n"
    let oldEntry = "# notif reminder: tips-and-updates\n0 9 * * * /old/notif deliver tips-and-updates\n"

    /// A block as notif writes it: its SHELL and PATH lines, then the entries.
    func block(_ owner: ConfigurationID, _ body: String) -> String {
        CrontabBlock.beginMarker(owner) + "\nSHELL=/bin/sh\nPATH=/usr/bin:/bin\n" + body + CrontabBlock.endMarker(owner) + "\n"
    }

    @Test func eachConfigurationSeesAndChangesOnlyItsOwnBlock() {
        let table = "A\n" + block(otherOwner, entry) + "B\n"
        var mine = CrontabBlock(parsing: table, owner: testOwner)
        #expect(mine.installed.isEmpty, "another configuration's entry is not mine")
        mine.set("tips-and-updates", to: entry)
        let both = String(decoding: mine.bytes, as: UTF8.self)
        #expect(both.hasPrefix(table), "the other block stays byte for byte: \(both)")
        var theirs = CrontabBlock(parsing: both, owner: otherOwner)
        #expect(theirs.installed == ["tips-and-updates": entry])
        theirs.remove("tips-and-updates")
        let left = String(decoding: theirs.bytes, as: UTF8.self)
        #expect(left == "A\nB\n" + String(both.dropFirst(table.count)), "mine stays: \(left)")
        var mineAgain = CrontabBlock(parsing: left, owner: testOwner)
        #expect(mineAgain.installed == ["tips-and-updates": entry])
        mineAgain.remove("tips-and-updates")
        #expect(mineAgain.bytes == Array("A\nB\n".utf8))
    }

    @Test func theDefaultConfigurationTakesOverTheUntaggedBlockOnceAndReplacesIt() {
        let old = "A\n" + CrontabBlock.untaggedBeginMarker + "\n" + oldEntry + CrontabBlock.untaggedEndMarker + "\nB\n"
        // Another configuration leaves it alone.
        var other = CrontabBlock(parsing: old, owner: otherOwner)
        #expect(other.installed.isEmpty)
        other.set("tips-and-updates", to: entry)
        #expect(String(decoding: other.bytes, as: UTF8.self).hasPrefix(old))
        // The default one reports it as not current (so apply rewrites it) and rewrites it as its own.
        var mine = CrontabBlock(parsing: other.bytes, owner: testOwner)
        #expect(mine.installed == ["tips-and-updates": CrontabBlock.untaggedNote + CrontabBlock.staleEnvironmentNote + oldEntry])
        mine.set("tips-and-updates", to: entry)
        let migrated = String(decoding: mine.bytes, as: UTF8.self)
        #expect(!migrated.contains(CrontabBlock.untaggedBeginMarker) && !migrated.contains("/old/notif"), "\(migrated)")
        #expect(migrated.components(separatedBy: "0 9 * * * /usr/local/bin/notif").count == 3, "one line each, no copies: \(migrated)")
        #expect(migrated.hasPrefix("A\n" + CrontabBlock.beginMarker(testOwner)), "at the old block's place: \(migrated)")
        // Once: after that there is nothing untagged left to take over.
        #expect(CrontabBlock(parsing: migrated, owner: testOwner).installed == ["tips-and-updates": entry])
        #expect(CrontabBlock(parsing: migrated, owner: testOwner).untagged.isEmpty)
    }

    @Test func markersWithATagThatIsNotAHashAreTheUsersLines() {
        let text = "# BEGIN notif managed block zz: changed by `notif set` and `notif apply`; edits here are replaced\nx\n"
        let parsed = CrontabBlock(parsing: text, owner: testOwner)
        #expect(parsed.before == Array(text.utf8) && parsed.entries.isEmpty)
    }

    @Test func tagsDependOnTheSettingsPathOnly() {
        #expect(ConfigurationID(settingsPath: "/a//b/./notif/settings.json", isDefault: false).tag
            == ConfigurationID(settingsPath: "/a/b/notif/settings.json", isDefault: true).tag)
        #expect(testOwner.tag != otherOwner.tag && testOwner.tag.count == 8)
        let paths = NotifPaths(home: "/home/u", configHome: "/home/u/.config/", stateHome: "/home/u/.local/state")
        #expect(ConfigurationID.of(paths, accountHome: "/home/u").isDefault)
        #expect(!ConfigurationID.of(NotifPaths(home: "/home/u", configHome: "/srv/x", stateHome: "/s"), accountHome: "/home/u").isDefault)
        #expect(!ConfigurationID.of(NotifPaths(home: "/tmp/h", configHome: "/tmp/h/.config", stateHome: "/s"), accountHome: "/home/u").isDefault,
                "another HOME is another configuration")
    }
}

@Suite struct CronCommandTests {
    @Test func plainPathsStayReadable() throws {
        #expect(try CronCommand.render(["/usr/local/bin/notif", "deliver", "tips-and-updates"]) == "/usr/local/bin/notif deliver tips-and-updates")
    }

    @Test func spacesQuotesAndPercentAreEscaped() throws {
        let line = try CronCommand.render(["/opt/my apps/50%/it's $HOME `x`;/notif", "deliver", "tips-and-updates"])
        #expect(line == #"'/opt/my apps/50\%/it'\''s $HOME `x`;/notif' deliver tips-and-updates"#)
    }

    @Test func newlinesAreRefusedWithAReason() {
        #expect { try CronCommand.render(["/a\nb/notif"]) } throws: { "\($0)".contains("line break") && "\($0)".contains("make install") }
        // A carried place with a line break names the variable, not notif's path.
        #expect { try CronCommand.render(["/usr/bin/env", "XDG_CONFIG_HOME=/srv/c\nx", "/usr/bin/notif"]) } throws: {
            "\($0)".contains("XDG_CONFIG_HOME holds a line break") && !"\($0)".contains("make install")
        }
    }

    @Test func theGuardRunsTheCommandOnlyWhileTheProgramIsThere() throws {
        #expect(try CronCommand.guarded(["/usr/bin/env", "TZ=Asia/Kolkata", "/opt/a b/notif", "deliver"], program: "/opt/a b/notif")
            == "[ -x '/opt/a b/notif' ] && exec /usr/bin/env TZ=Asia/Kolkata '/opt/a b/notif' deliver")
        #expect(try CronCommand.guarded(["/opt/50%/notif"], program: "/opt/50%/notif") == #"[ -x '/opt/50\%/notif' ] && exec '/opt/50\%/notif'"#)
        // cron refuses a command from 999 bytes on: notif says so first, and what to do.
        let long = "/opt/" + String(repeating: "x", count: 477) + "/notif"
        #expect { try CronCommand.guarded([long, "deliver"], program: long) } throws: {
            "\($0)".contains("bytes long, and cron takes 998 at most") && "\($0)".contains("make install")
        }
        let fits = "/opt/" + String(repeating: "x", count: 476) + "/notif"
        #expect(try CronCommand.guarded([fits, "deliver"], program: fits).utf8.count == 998)
    }

    /// A crontab's own `TZ=`, `HOME=` or `XDG_CONFIG_HOME=` lines reach every job below them:
    /// notif's lines set the entry's own values, its home, and unset the rest.
    @Test func theLinesSayEveryVariableThatFindsTheFilesAndTheDay() throws {
        #expect(CronCommand.pinned(["/usr/bin/notif", "deliver"], home: "/home/ann")
            == ["/usr/bin/env", "-u", "TZ", "-u", "TZDIR", "-u", "XDG_CONFIG_HOME", "-u", "XDG_STATE_HOME", "-u", "XDG_DATA_HOME",
                "HOME=/home/ann", "/usr/bin/notif", "deliver"])
        let carried = CronCommand.pinned(["/usr/bin/env", "HOME=/srv/h", "TZ=Asia/Kolkata", "/usr/bin/notif", "deliver"], home: "/home/ann")
        #expect(carried == ["/usr/bin/env", "-u", "TZDIR", "-u", "XDG_CONFIG_HOME", "-u", "XDG_STATE_HOME", "-u", "XDG_DATA_HOME",
                            "HOME=/srv/h", "TZ=Asia/Kolkata", "/usr/bin/notif", "deliver"])
        // A program whose path holds '=' still runs as itself.
        #expect(CronCommand.pinned(["/opt/a=b/notif", "deliver"], home: nil).suffix(5) == ["/bin/sh", "-c", "exec \"$0\" \"$@\"", "/opt/a=b/notif", "deliver"])
        // Read back: the assignments, the program.
        let line = "0 9 * * * " + (try CronCommand.guarded(carried, program: "/usr/bin/notif"))
        #expect(CommandWords.assignments(try #require(CommandWords.cron(line: line))) == ["HOME": "/srv/h", "TZ": "Asia/Kolkata"])
        #expect(CronCommand.program(inLine: "0 9 * * * " + (try CronCommand.render(carried))) == "/usr/bin/notif")
    }

    @Test func scheduleFields() {
        #expect(CronCommand.schedule(DailyTime(hour: 9, minute: 0)) == "0 9 * * *")
    }
}

/// `notif reset --entries`: every configuration's block goes, with the untagged block of an
/// earlier notif and one left open; the user's bytes (not UTF-8, no final newline, a line put
/// inside a block by hand) stay.
@Suite struct CrontabEveryBlockTests {
    @Test func everyBlockGoesAndTheUserBytesStay() throws {
        let other = ConfigurationID(settingsPath: "/srv/a b/notif/settings.json", isDefault: false)
        var mine = CrontabBlock(parsing: "", owner: testOwner)
        mine.set("tips-and-updates", to: "# notif reminder: tips-and-updates\n0 9 * * * [ -x /usr/bin/notif ] && exec /usr/bin/notif deliver --quiet tips-and-updates\n")
        var theirs = CrontabBlock(parsing: Array("caf\u{e9}\n".utf8) + [0xe9, 0x0a] + mine.bytes + Array("17 3 * * * /bin/true\n".utf8), owner: other)
        let command = try CronCommand.guarded(["/usr/bin/env", "XDG_CONFIG_HOME=/srv/a b", "XDG_STATE_HOME=/srv/50% state", "/usr/bin/notif", "deliver"],
                                              program: "/usr/bin/notif")
        theirs.set("tips-and-updates", to: "# notif reminder: tips-and-updates\n0 9 * * * \(command)\n")
        let untagged = "\(CrontabBlock.untaggedBeginMarker)\n# notif reminder: tips-and-updates\n0 9 * * * notif deliver\n# by hand\n\(CrontabBlock.untaggedEndMarker)\n"
        let open = "\(CrontabBlock.beginMarker(other))\n# notif reminder: left-open\n"
        let bytes = theirs.bytes + Array(untagged.utf8) + Array("# mine\n".utf8) + Array(open.utf8)
        let split = CrontabBlock.withoutEveryBlock(bytes)
        #expect(split.kept == Array("caf\u{e9}\n".utf8) + [0xe9, 0x0a] + Array("17 3 * * * /bin/true\n# by hand\n# mine\n".utf8))
        #expect(split.blocks.map(\.tag) == [testOwner.tag, other.tag, nil, other.tag])
        #expect(split.blocks.map(\.ids) == [["tips-and-updates"], ["tips-and-updates"], ["tips-and-updates"], ["left-open"]])
        #expect(split.blocks[1].settingsPath == "/srv/a b/notif/settings.json")
        #expect(split.blocks[1].commands.map(CommandWords.assignments) == [["XDG_CONFIG_HOME": "/srv/a b", "XDG_STATE_HOME": "/srv/50% state"]])
        #expect(CrontabBlock.withoutEveryBlock(split.kept).blocks.isEmpty)
    }
}
