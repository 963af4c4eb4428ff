import Testing
import TestSupport
import SharedLogic
@testable import LinuxGateway

@Suite struct CrontabBlockTests {
    let entry = "# notif reminder: tips-and-updates\n0 9 * * * /usr/local/bin/notif deliver tips-and-updates\n"

    @Test func installIntoEmptyAndRemoveLeavesNothing() {
        var block = CrontabBlock(parsing: "")
        block.set("tips-and-updates", to: entry)
        #expect(block.bytes == Array((CrontabBlock.beginMarker + "\n" + entry + CrontabBlock.endMarker + "\n").utf8))
        var again = CrontabBlock(parsing: block.bytes)
        #expect(again.installed == ["tips-and-updates": entry])
        again.remove("tips-and-updates")
        #expect(again.bytes == [])
    }

    @Test func severalBlocksMergeIntoOneAtTheFirstPlace() {
        let text = "A\n\(CrontabBlock.beginMarker)\n\(entry)\(CrontabBlock.endMarker)\nB\n\(CrontabBlock.beginMarker)\n# notif reminder: other\n1 2 * * * x\n\(CrontabBlock.endMarker)\nC\n"
        let block = CrontabBlock(parsing: text)
        #expect(block.installed.keys.sorted() == ["other", "tips-and-updates"])
        #expect(block.before == Array("A\n".utf8))
        #expect(block.after == Array("B\nC\n".utf8))
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
            var block = CrontabBlock(parsing: user)
            block.set("tips-and-updates", to: entry)
            var text = String(decoding: block.bytes, as: UTF8.self)
            #expect(text.hasPrefix(user))
            // The user adds lines after our block; we reinstall and then remove.
            let tail = (0..<split).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            text += tail
            user += tail
            var second = CrontabBlock(parsing: Array(text.utf8))
            #expect(second.installed == ["tips-and-updates": entry])
            second.set("tips-and-updates", to: entry.replacingOccurrences(of: "/usr/local", with: "/opt"))
            var third = CrontabBlock(parsing: second.bytes)
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
            Array(CrontabBlock.beginMarker.utf8) + [0xE9, 0x0A],                  // not quite a marker: the user's
            Array("é ünïcode ✓\n".utf8),                                         // valid UTF-8 too
        ]
        var random = SeededRandom(seed: 7)
        for round in 0..<300 {
            var user: [UInt8] = (0..<Int(random.next() % 8)).flatMap { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
            // Sometimes the last user line lacks its newline (crontab -l prints what it holds).
            if round % 5 == 0 && !user.isEmpty { user.removeLast() }
            var block = CrontabBlock(parsing: user)
            #expect(block.before == user && block.installed.isEmpty)
            block.set("tips-and-updates", to: entry)
            var table = block.bytes
            #expect(table.starts(with: user))
            // The user adds bytes after notif's block; notif reinstalls with another path, then removes.
            let tail: [UInt8] = (0..<Int(random.next() % 4)).flatMap { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
            table += tail
            var second = CrontabBlock(parsing: table)
            #expect(second.installed == ["tips-and-updates": entry])
            #expect(second.after == tail)
            second.set("tips-and-updates", to: entry.replacingOccurrences(of: "/usr/local", with: "/opt"))
            var third = CrontabBlock(parsing: second.bytes)
            third.remove("tips-and-updates")
            var expected = user
            if !expected.isEmpty && expected.last != 0x0A { expected.append(0x0A) }  // the block needed a line start
            #expect(third.bytes == expected + tail, "round \(round)")
        }
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
        #expect { try CronCommand.render(["/a\nb/notif"]) } throws: { "\($0)".contains("newline") }
    }

    @Test func scheduleFields() {
        #expect(CronCommand.schedule(DailyTime(hour: 9, minute: 0)) == "0 9 * * *")
    }
}
