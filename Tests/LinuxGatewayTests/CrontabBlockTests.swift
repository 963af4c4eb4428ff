import Testing
import TestSupport
import SharedLogic
@testable import LinuxGateway

@Suite struct CrontabBlockTests {
    let entry = "# notif reminder: tips-and-updates\n0 9 * * * /usr/local/bin/notif deliver tips-and-updates\n"

    @Test func installIntoEmptyAndRemoveLeavesNothing() {
        var block = CrontabBlock(parsing: "")
        block.set("tips-and-updates", to: entry)
        #expect(block.text == CrontabBlock.beginMarker + "\n" + entry + CrontabBlock.endMarker + "\n")
        var again = CrontabBlock(parsing: block.text)
        #expect(again.installed == ["tips-and-updates": entry])
        again.remove("tips-and-updates")
        #expect(again.text == "")
    }

    @Test func severalBlocksMergeIntoOneAtTheFirstPlace() {
        let text = "A\n\(CrontabBlock.beginMarker)\n\(entry)\(CrontabBlock.endMarker)\nB\n\(CrontabBlock.beginMarker)\n# notif reminder: other\n1 2 * * * x\n\(CrontabBlock.endMarker)\nC\n"
        let block = CrontabBlock(parsing: text)
        #expect(block.installed.keys.sorted() == ["other", "tips-and-updates"])
        #expect(block.before == "A\n")
        #expect(block.after == "B\nC\n")
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
            var text = block.text
            #expect(text.hasPrefix(user))
            // The user adds lines after our block; we reinstall and then remove.
            let tail = (0..<split).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            text += tail
            user += tail
            var second = CrontabBlock(parsing: text)
            #expect(second.installed == ["tips-and-updates": entry])
            second.set("tips-and-updates", to: entry.replacingOccurrences(of: "/usr/local", with: "/opt"))
            var third = CrontabBlock(parsing: second.text)
            #expect(third.installed.count == 1)
            third.remove("tips-and-updates")
            #expect(third.text == user)
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
