import Foundation
import Testing
import TestSupport

/// settings.json written the ways people and their tools write it, with a real `notif daemon`
/// and a real page (tmux) both watching: `cat >`, nano, a write paused halfway, vim with its
/// defaults and with `backupcopy=yes` (and `no`, which renames the old file away), `sed -i`,
/// `jq … > tmp && mv tmp`, two `notif set` at once. Each round changes the sound only: nothing
/// may be moved, the reminder's entry must stay byte for byte, the page must show every write,
/// and the daemon must never believe a half-written file. A round that turns the reminder off
/// and on again, by hand, with the page closed, shows the daemon acted on every write before it
/// (it reads in order).
@Suite(.serialized) struct ReliabilityWritePatternTests {
    static let sounds = ["chime", "bell", "silent", "default"]

    /// The whole file, as a person would write it, with `sound` and the reminder on or off.
    static func settings(sound: String, tips: Bool = true) -> String {
        """
        {
          "version": 1,
          "tipsAndUpdates": \(tips),
          "permission": "granted",
          "onboardingCompleted": true,
          "sound": "\(sound)",
          "mine": {"kept": [1, 2]}
        }

        """
    }

    final class Watched {
        let sandbox = Sandbox()
        let daemon: DaemonProcess
        let page: TmuxPane
        let entry: Data

        init() throws {
            try sandbox.write(ReliabilityWritePatternTests.settings(sound: "default"), to: sandbox.settingsPath)
            #expect(try sandbox.notif(["apply"]).status == 0)
            daemon = try DaemonProcess([NotifBinary.path, "daemon"], environment: sandbox.environment(), outputIn: sandbox.path)
            guard daemon.waitUntilRunning() else { throw E2EFailure("the daemon did not start: \(daemon.output)") }
            page = try TmuxPane(notifCommand(env: sandbox.environment(["TERM": "tmux-256color"])), width: 100, height: 30)
            _ = try page.waitFor("Scheduler: embedded")
            entry = try #require(fileBytes(sandbox.embeddedEntry))
        }

        var config: String { sandbox.configDir }

        /// A shell command run in the config directory, with notif on PATH as `notif`.
        func sh(_ script: String) throws -> RunResult {
            let bin = (NotifBinary.path as NSString).deletingLastPathComponent
            return try run(["sh", "-c", "cd \(shellQuote(config)) && " + script],
                           environment: sandbox.environment(["PATH": bin + ":/usr/bin:/bin"]))
        }

        /// What may never happen: a file moved or copied beside settings.json, the entry changed,
        /// the daemon not using a write or changing the schedule.
        func expectNothingMoved(_ what: String) {
            let beside = sandbox.files(in: config).filter { $0.hasPrefix("settings.json.") || $0.hasPrefix("settings.edit-") }
            #expect(beside.isEmpty, "\(what): \(beside)")
            #expect(fileBytes(sandbox.embeddedEntry) == entry, "\(what): the reminder's entry changed")
            #expect(!daemon.output.contains("settings not used") && !daemon.output.contains("settings changed"), "\(what): \(daemon.output)")
        }

        /// The page shows `sound` on its Sound row.
        func pageShows(_ sound: String, _ what: String) throws {
            _ = try page.waitForLine(containing: "Sound", seconds: 10) { $0.contains("‹ \(sound) ›") }
            #expect(try !page.capture().contains("cannot be read"), "\(what)")
        }

        /// Turns the reminder off and on again by hand (`cat >`): the daemon says so each time,
        /// after every write before it (it reads them in order).
        func barrier(_ what: String) throws {
            let cancelled = daemon.output.components(separatedBy: "settings changed: tips-and-updates cancelled").count
            try sandbox.write(ReliabilityWritePatternTests.settings(sound: "default", tips: false), to: sandbox.path + "/off.json")
            try sandbox.write(ReliabilityWritePatternTests.settings(sound: "default"), to: sandbox.path + "/on.json")
            #expect(try sh("cat \(shellQuote(sandbox.path))/off.json > settings.json").status == 0)
            #expect(waitUntil(20) { daemon.output.components(separatedBy: "settings changed: tips-and-updates cancelled").count > cancelled },
                    "\(what): \(daemon.output)")
            let scheduled = daemon.output.components(separatedBy: "settings changed: tips-and-updates scheduled").count
            #expect(try sh("cat \(shellQuote(sandbox.path))/on.json > settings.json").status == 0)
            #expect(waitUntil(20) { daemon.output.components(separatedBy: "settings changed: tips-and-updates scheduled").count > scheduled },
                    "\(what): \(daemon.output)")
            #expect(!daemon.output.contains("settings not used"), "\(what): \(daemon.output)")
        }
    }

    /// How one pattern writes `sound` into settings.json (the file holds the reminder on).
    enum Pattern: String, CaseIterable, CustomTestStringConvertible {
        case cat, pausedHalfway, nano, vim, vimBackupCopyYes, vimBackupCopyNo, sedInPlace, jqAndMove, twoSetsAtOnce
        var testDescription: String { rawValue }

        func write(_ sound: String, round: Int, in watched: Watched) throws {
            let new = watched.sandbox.path + "/new.json"
            try watched.sandbox.write(ReliabilityWritePatternTests.settings(sound: sound), to: new)
            let substitute = #"s/"sound": "[a-z]*"/"sound": "\#(sound)"/"#
            switch self {
            case .cat:
                #expect(try watched.sh("cat \(shellQuote(watched.sandbox.path))/new.json > settings.json").status == 0)
            case .pausedHalfway:
                // The writer keeps the file open for 1.5 s between the halves; a notif command run
                // meanwhile waits for the write to finish, then reads the whole file.
                let half = ReliabilityWritePatternTests.settings(sound: sound).utf8.count / 2
                let writer = try BackgroundProcess(["/bin/sh", "-c", "cd \(shellQuote(watched.config)) && { head -c \(half) \(shellQuote(new)); sleep 1.5; tail -c +\(half + 1) \(shellQuote(new)); } > settings.json"],
                                                   environment: watched.sandbox.environment(), output: watched.sandbox.path + "/writer.out")
                #expect(waitUntil(5) { (fileBytes(watched.sandbox.settingsPath)?.count ?? 0) == half })
                let meanwhile = try watched.sandbox.notif(["status"])
                #expect(meanwhile.status == 0 && !meanwhile.stderr.contains("settings.json line"), "\(meanwhile)")
                // The page waits for the write to finish: it never shows the half-written file as bad.
                while writer.isRunning {
                    let screen = try watched.page.capture()
                    #expect(!screen.contains("cannot be read"), "the page believed a half-written file: \(screen)")
                    usleep(50_000)
                }
                #expect(writer.waitForExit(10))
            case .nano:
                // Every line cut, the new text read in (^R), written out (^O) in place, as nano saves.
                let editor = try TmuxPane("cd \(shellQuote(watched.config)) && nano -I settings.json")
                _ = try editor.waitFor("GNU nano")
                try editor.send(keys: Array(repeating: "C-k", count: 12))
                try editor.send("C-r")
                _ = try editor.waitFor("File to insert")
                try editor.send(keys: ["-l", new])
                try editor.send("Enter")
                _ = try editor.waitFor("Read ")
                try editor.send("C-o")
                _ = try editor.waitFor("File Name to Write")
                try editor.send("Enter")
                _ = try editor.waitFor("Wrote ")
                try editor.send("C-x")
                #expect(try editor.finished().status == 0)
            case .vim, .vimBackupCopyYes, .vimBackupCopyNo:
                let option = self == .vim ? "" : " -c 'set backupcopy=\(self == .vimBackupCopyYes ? "yes" : "no")'"
                let editor = try TmuxPane("cd \(shellQuote(watched.config)) && vim -u DEFAULTS -i NONE -N\(option) settings.json")
                _ = try editor.waitFor("\"settings.json\"")
                try editor.send(keys: ["-l", ":%" + substitute])
                try editor.send("Enter")
                try editor.send(keys: ["-l", ":wq"])
                try editor.send("Enter")
                #expect(try editor.finished().status == 0)
            case .sedInPlace:
                #expect(try watched.sh("sed -i '\(substitute)' settings.json").status == 0)
            case .jqAndMove:
                #expect(try watched.sh("jq '.sound = \"\(sound)\"' settings.json > tmp.json && mv tmp.json settings.json").status == 0)
            case .twoSetsAtOnce:
                let promotions = round % 2 == 0 ? "on" : "off"
                let both = try watched.sh("notif set sound \(sound) > one.out 2>&1 & notif set promotions \(promotions) > two.out 2>&1 & wait; cat one.out two.out; rm -f one.out two.out")
                #expect(both.status == 0 && !both.stdout.contains("notif:"), "\(both)")
                #expect(watched.sandbox.read(watched.sandbox.settingsPath)?.contains("\"promotions\": \(promotions == "on")") == true)
            }
        }
    }

    @Test(arguments: Pattern.allCases)
    func eachWritePatternChangesOnlyWhatItWrites(_ pattern: Pattern) throws {
        let watched = try Watched()
        let rounds = Soak.count(short: 3, long: 20)
        var shownAfter: [Double] = []
        for round in 0..<rounds {
            let sound = Self.sounds[round % Self.sounds.count]
            let what = "\(pattern.rawValue), round \(round + 1) of \(rounds) (sound \(sound))"
            try pattern.write(sound, round: round, in: watched)
            let written = Date()
            let text = watched.sandbox.read(watched.sandbox.settingsPath) ?? ""
            #expect(text.contains("\"sound\": \"\(sound)\"") && text.contains("\"kept\""), "\(what): \(text)")
            try watched.pageShows(sound, what)
            shownAfter.append(Date().timeIntervalSince(written))
            watched.expectNothingMoved(what)
        }
        let sorted = shownAfter.sorted()
        print("figures: write patterns: \(pattern.rawValue): the page showed each finished write after "
              + String(format: "%.2f / %.2f / %.2f s (min / median / max of %d)", sorted[0], sorted[sorted.count / 2], sorted[sorted.count - 1], sorted.count))
        // The page first: an open page applies a hand edit too, and the barrier is the daemon's.
        try watched.page.send("q")
        #expect(try watched.page.finished().status == 0)
        try watched.barrier(pattern.rawValue)
        #expect(FileManager.default.fileExists(atPath: watched.sandbox.embeddedEntry))
        print("figures: write patterns: \(pattern.rawValue): \(rounds) rounds, nothing moved, the entry kept, the page and the daemon followed every write")
    }
}
