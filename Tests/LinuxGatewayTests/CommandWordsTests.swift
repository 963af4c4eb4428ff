import Testing
import TestSupport
import SharedLogic
@testable import LinuxGateway

/// `CommandWords` reads back exactly the words notif's three command writers wrote, whatever
/// the words hold (`notif reset --entries` finds configurations in them).
@Suite struct CommandWordsTests {
    /// Random words from characters each format treats specially, printed with their seed.
    func randomArgvs(_ count: Int) -> (seed: UInt64, argvs: [[String]]) {
        let seed = RunSeed.fromEnvironment()
        var random = SeededRandom(seed: seed)
        let alphabet = Array("aZ09/._-+:,=@ %$\\\"'`;#*?()<>|&~!é\t")
        let argvs = (0..<count).map { _ in
            ["/usr/bin/env"] + (0..<Int.random(in: 1...5, using: &random)).map { _ in
                String((0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            }
        }
        return (seed, argvs)
    }

    @Test func cronWordsRoundTrip() throws {
        let (seed, argvs) = randomArgvs(400)
        for argv in argvs {
            let line = "0 9 * * * " + (try CronCommand.guarded(argv, program: "/opt/my notif/notif"))
            #expect(CommandWords.cron(line: line) == argv, "NOTIF_SEED=\(seed): \(line)")
            #expect(CommandWords.cron(line: "@reboot " + (try CronCommand.render(argv))) == argv, "NOTIF_SEED=\(seed)")
        }
        #expect(CommandWords.cron(line: "# a comment") == nil)
        #expect(CommandWords.cron(line: "") == nil)
        // Only a line that starts as a job does (its minute or `@`): an assignment or a note that has five words is none.
        #expect(CommandWords.cron(line: "SHELL=/bin/sh") == nil)
        #expect(CommandWords.cron(line: "(the block's SHELL and PATH lines are not the ones notif writes now)") == nil)
        #expect(CommandWords.cron(line: "  */5 * * * * /bin/true") == ["/bin/true"])
    }

    @Test func systemdWordsRoundTrip() throws {
        let (seed, argvs) = randomArgvs(400)
        for argv in argvs {
            let value = try SystemdCommand.render(argv)
            #expect(CommandWords.systemd(execStart: value) == argv, "NOTIF_SEED=\(seed): \(value)")
        }
    }

    @Test func desktopExecWordsRoundTrip() {
        let (seed, argvs) = randomArgvs(400)
        for argv in argvs {
            let value = DesktopExec.render(argv)
            #expect(CommandWords.desktopExec(value) == argv, "NOTIF_SEED=\(seed): \(value)")
        }
    }

    @Test func assignmentsAreTheWordsBeforeTheProgram() {
        #expect(CommandWords.assignments(["/usr/bin/env", "XDG_STATE_HOME=/a b", "TZ=Europe/Berlin", "/usr/bin/notif", "X=1"])
                == ["XDG_STATE_HOME": "/a b", "TZ": "Europe/Berlin"])
        #expect(CommandWords.assignments(["/usr/bin/notif", "deliver"]).isEmpty)
    }
}
