import Foundation
import Testing
import TestSupport

/// What other processes change shows on the page at once (inotify, no timers): `notif set`,
/// another page, a hand edit of settings.json, a delivery; and an idle page uses no CPU.
@Suite struct PageLiveTests {
    func env(_ sandbox: Sandbox) -> [String: String] {
        sandbox.environment(["TERM": "tmux-256color", "PATH": "/nonexistent", "NOTIF_SCHEDULER": "embedded"])
    }

    func open(_ sandbox: Sandbox) throws -> TmuxPane {
        let pane = try TmuxPane(notifCommand(env: env(sandbox)))
        try pane.waitFor("Scheduler: embedded")
        return pane
    }

    @Test func notifSetFromAnotherShellShowsWithinASecond() throws {
        let sandbox = Sandbox()
        try sandbox.daemonStartsAtLogin()
        try sandbox.write("{\"onboardingCompleted\": true, \"permission\": \"granted\"}", to: sandbox.settingsPath)
        let pane = try open(sandbox)
        try pane.waitFor("Next reminder: none — off (Tips & Updates is off)")
        for (args, shown) in [(["set", "tips-and-updates", "on"], " 09:00"), (["set", "push-notifications", "off"], "none — off (Push Notifications is off)"),
                              (["set", "push-notifications", "on"], " 09:00"), (["permission", "deny"], "none — blocked")] {
            #expect(try sandbox.notif(args, ["PATH": "/nonexistent"]).status == 0)
            let started = Date()
            // Within a second, with a margin for a busy machine.
            try pane.waitForLine(containing: "Next reminder:", seconds: 3) { $0.contains(shown) }
            print("figures: page: `notif \(args.joined(separator: " "))` from another shell shown after \(String(format: "%.2f", elapsed(since: started))) s")
        }
        try pane.send("q")
        #expect(try pane.finished().status == 0)
    }

    /// The reproduction: with a crontab slower than the settings file, the page must still end up
    /// showing what the crontab holds once the other process's apply is done (not the state it read
    /// when the settings changed).
    @Test func aSlowApplyByAnotherProcessShowsOnceItIsDone() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true, \"permission\": \"granted\", \"tipsAndUpdates\": true}", to: sandbox.settingsPath)
        let fakes = try FakeTools(in: sandbox)
        let table = sandbox.path + "/crontab.txt"
        // A crontab that takes half a second to write (a slow NFS home): -l and -e (with cat for the editor) read, - writes, -r removes.
        try fakes.add("crontab", """
            case "$1" in
              -l) [ -f \(table) ] && exec cat \(table); echo "no crontab for $USER" >&2; exit 1 ;;
              -e) [ -f \(table) ] && exec cat \(table); echo "no crontab for $USER - using an empty one" >&2 ;;
              -) sleep 0.5; cat > \(table).new && mv \(table).new \(table) ;;
              -r) sleep 0.5; rm -f \(table) ;;
            esac
            """)
        let env = sandbox.environment(["TERM": "tmux-256color", "PATH": fakes.path, "NOTIF_SCHEDULER": "cron"])
        let pane = try TmuxPane(notifCommand(env: env))
        try pane.waitForLine(containing: "Next reminder:") { $0.contains(" 09:00") }
        for (args, shown) in [(["set", "push-notifications", "off"], "Push Notifications is off"), (["set", "push-notifications", "on"], " 09:00")] {
            #expect(try sandbox.notif(args, ["PATH": fakes.path, "NOTIF_SCHEDULER": "cron"]).status == 0)
            try pane.waitForLine(containing: "Next reminder:", seconds: 3) { $0.contains(shown) }
        }
        #expect((sandbox.read(table) ?? "").contains("deliver --quiet tips-and-updates"))
        try pane.send("q")
        #expect(try pane.finished().status == 0)
    }

    @Test func twoPagesFollowEachOther() throws {
        let sandbox = Sandbox()
        try sandbox.daemonStartsAtLogin()
        try sandbox.write("{\"onboardingCompleted\": true, \"permission\": \"granted\"}", to: sandbox.settingsPath)
        let a = try open(sandbox)
        let b = try open(sandbox)
        try a.send("Down", "Space")
        try b.waitForLine(containing: "Next reminder:", seconds: 3) { $0.contains(" 09:00") }
        try b.waitFor("[x] Tips & Updates")
        try b.send("Space")
        try a.waitForLine(containing: "Next reminder:", seconds: 3) { $0.contains("Push Notifications is off") }
        try a.send("q")
        try b.send("q")
        #expect(try a.finished().status == 0)
        #expect(try b.finished().status == 0)
    }

    /// A hand edit that turns the reminder on is applied by the open page (nobody else would
    /// apply it), and one that turns it off again removes the entry.
    @Test func aHandEditIsApplied() throws {
        let sandbox = Sandbox()
        try sandbox.daemonStartsAtLogin()
        let before = "{\"onboardingCompleted\": true, \"permission\": \"granted\""
        try sandbox.write(before + "}", to: sandbox.settingsPath)
        let pane = try open(sandbox)
        try pane.waitFor("Next reminder: none — off (Tips & Updates is off)")
        func installed() throws -> String {
            row("Installed", in: try sandbox.notif(["status"], ["PATH": "/nonexistent", "NOTIF_SCHEDULER": "embedded"]).stdout)
        }
        try Data((before + ", \"tipsAndUpdates\": true}").utf8).write(to: URL(fileURLWithPath: sandbox.settingsPath))
        try pane.waitForLine(containing: "Next reminder:", seconds: 3) { $0.contains(" 09:00") }
        #expect(try installed() == "tips-and-updates")
        try Data((before + ", \"tipsAndUpdates\": false}").utf8).write(to: URL(fileURLWithPath: sandbox.settingsPath))
        try pane.waitForLine(containing: "Next reminder:", seconds: 3) { $0.contains("off (Tips & Updates is off)") }
        #expect(try waitUntil(5) { try installed() == "nothing" }, "the entry stayed")
        try pane.send("q")
        #expect(try pane.finished().status == 0)
    }

    @Test func aHandEditAndADeliveryShow() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true, \"permission\": \"granted\"}", to: sandbox.settingsPath)
        let pane = try open(sandbox)
        // An editor writing the file in place.
        let text = "{\"onboardingCompleted\": true, \"permission\": \"granted\", \"promotions\": true}"
        try Data(text.utf8).write(to: URL(fileURLWithPath: sandbox.settingsPath))
        try pane.waitForLine(containing: "Promotions", seconds: 3) { $0.contains("[x] Promotions") }
        // A delivery by another process shows on an open History screen.
        try pane.send("H")
        try pane.waitFor("No deliveries yet")
        _ = try sandbox.notif(["test"], ["PATH": "/nonexistent"])
        try pane.waitFor("Test ", seconds: 3)
        try pane.send("q", "q")
        #expect(try pane.finished().status == 0)
    }

    /// settings.json removed under an open page: the defaults every run now reads are shown, and
    /// said; a change then saves them to a new file.
    @Test func aRemovedSettingsFileBringsTheDefaults() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true, \"permission\": \"granted\", \"promotions\": true}", to: sandbox.settingsPath)
        let pane = try open(sandbox)
        try pane.waitFor("[x] Promotions")
        try FileManager.default.removeItem(atPath: sandbox.settingsPath)
        try pane.waitFor("settings.json was removed: the defaults are in force", seconds: 5)
        try pane.waitFor("[ ] Promotions")
        try pane.send("k", "k", "k", "k", "k", "k", "j", "j", "Space")
        try pane.waitFor("[ ] Queue alerts")
        try pane.send("q")
        #expect(try pane.finished().status == 0)
        let saved = sandbox.read(sandbox.settingsPath) ?? ""
        #expect(saved.contains("\"queueAlerts\": false") && saved.contains("\"promotions\": false"), "\(saved)")
    }

    /// settings.json given to another user under an open page (`chown`): the page says whose it
    /// is at once, without `r`; given back, the settings show again.
    @Test(.enabled(if: isRoot, "chown needs root"))
    func aSettingsFileGivenToAnotherUserIsSaidAtOnce() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true, \"permission\": \"granted\", \"promotions\": true}", to: sandbox.settingsPath)
        let pane = try open(sandbox)
        try pane.waitFor("[x] Promotions")
        #expect(chown(sandbox.settingsPath, 65534, 65534) == 0)
        try pane.waitFor("belongs to nobody", seconds: 5)
        #expect(chown(sandbox.settingsPath, 0, 0) == 0)
        try pane.waitFor("[x] Promotions", seconds: 5)
        try pane.send("q")
        #expect(try pane.finished().status == 0)
    }

    /// settings.json kept with the person's dotfiles, linked into place: edits of the file it
    /// leads to (in place, and by a tool that renames a new file over it), and the link made
    /// again to lead elsewhere, show on the page.
    @Test func aLinkedSettingsFileIsFollowedAtItsTarget() throws {
        let sandbox = Sandbox()
        let target = sandbox.path + "/dotfiles/notif/settings.json"
        try sandbox.write("{\"onboardingCompleted\": true, \"permission\": \"granted\"}", to: target)
        try FileManager.default.createDirectory(atPath: sandbox.configDir, withIntermediateDirectories: true)
        #expect(symlink(target, sandbox.settingsPath) == 0)
        let pane = try open(sandbox)
        try pane.waitFor("[ ] Promotions")
        try Data("{\"onboardingCompleted\": true, \"permission\": \"granted\", \"promotions\": true}".utf8).write(to: URL(fileURLWithPath: target))
        try pane.waitForLine(containing: "Promotions", seconds: 3) { $0.contains("[x] Promotions") }
        try run(["sed", "-i", "s/\"promotions\": true/\"promotions\": false, \"vibration\": false/", target], environment: ["PATH": "/usr/bin:/bin"]).expectSuccess()
        try pane.waitForLine(containing: "Vibration", seconds: 3) { $0.contains("[ ] Vibration") }
        try pane.waitFor("[ ] Promotions")
        // The link made again (`ln -sf`, as dotfile managers do) to a file in another directory;
        // then that file edited.
        let other = sandbox.path + "/dotfiles-v2/settings.json"
        try sandbox.write("{\"onboardingCompleted\": true, \"permission\": \"granted\", \"queueAlerts\": false}", to: other)
        try run(["ln", "-sfn", other, sandbox.settingsPath], environment: ["PATH": "/usr/bin:/bin"]).expectSuccess()
        try pane.waitForLine(containing: "Queue alerts", seconds: 3) { $0.contains("[ ] Queue alerts") }
        try pane.waitFor("[x] Vibration")
        try Data("{\"onboardingCompleted\": true, \"permission\": \"granted\", \"vibration\": false}".utf8).write(to: URL(fileURLWithPath: other))
        try pane.waitForLine(containing: "Vibration", seconds: 3) { $0.contains("[ ] Vibration") }
        try pane.waitFor("[x] Queue alerts")
        // The page's own change goes to the file the link leads to, and the link stays.
        try pane.send("k", "k", "k", "k", "k", "k", "j", "j", "j", "Space")
        try pane.waitFor("[x] Promotions")
        try pane.send("q")
        #expect(try pane.finished().status == 0)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: sandbox.settingsPath)) == other, "the link was replaced")
        #expect(sandbox.read(other)?.contains("\"promotions\": true") == true, "\(sandbox.read(other) ?? "")")
    }

    /// settings.json broken by hand under an open page: the page shows what is wrong in place of
    /// the settings; the file stays, the entry stays; reset (asked first) puts the defaults in
    /// place, keeps the file as a named copy, and says where, also after quitting.
    @Test func aBrokenSettingsFileIsShownInPlaceOfTheSettingsAndCanBeReset() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true, \"permission\": \"granted\", \"tipsAndUpdates\": true}", to: sandbox.settingsPath)
        #expect(try sandbox.notif(["apply"], ["PATH": "/nonexistent", "NOTIF_SCHEDULER": "embedded"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: sandbox.embeddedEntry))
        // The built-in entry has a time only when something runs it: the daemon starts at login.
        try sandbox.daemonStartsAtLogin()
        let pane = try TmuxPane(notifCommand(env: env(sandbox)), width: 220, height: 40)
        try pane.waitForLine(containing: "Next reminder:") { $0.contains(" 09:00") }
        try sandbox.write("{ broken", to: sandbox.settingsPath)
        _ = try pane.waitFor("line 1, column 3: the key broken has no quotes")
        try pane.waitForLine(containing: "Next reminder:") { $0.contains("none — settings.json cannot be read") }
        #expect(FileManager.default.fileExists(atPath: sandbox.embeddedEntry), "the entry is kept")
        #expect(sandbox.read(sandbox.settingsPath) == "{ broken")
        try pane.send("d")
        _ = try pane.waitFor("Reset to defaults?")
        try pane.send("Left", "Enter")
        let screen = try pane.waitFor("the old file is kept as")
        let copies = sandbox.files(in: sandbox.configDir).filter { $0.hasPrefix("settings.json.before-reset-") }
        #expect(copies.count == 1 && screen.replacingOccurrences(of: "\n", with: "").contains(copies.first ?? "?"), "\(copies) \(screen)")
        #expect(sandbox.read(sandbox.configDir + "/" + (copies.first ?? "?")) == "{ broken")
        // The defaults are in force: the page applies them (Tips & Updates is off by default).
        try pane.waitForLine(containing: "Next reminder:") { $0.contains("none — off") }
        #expect(waitUntil(10) { !FileManager.default.fileExists(atPath: sandbox.embeddedEntry) })
        try pane.send("q")
        #expect(try pane.finished().status == 0)
        let after = try pane.capture().replacingOccurrences(of: "\n", with: "")
        #expect(after.contains("notif: warning: settings.json was reset to the defaults; the old file is kept as \(sandbox.configDir)/\(copies.first ?? "?")"), "\(after)")
    }

    @Test func anIdlePageUsesNoCPU() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        let pane = try open(sandbox)
        let pid = try pane.pid(of: "notif")
        // Let the start-up work (the first apply and the reads it causes) finish.
        var before = cpuTicks(pid)
        _ = waitUntil(3) {
            usleep(300_000)
            let now = cpuTicks(pid)
            defer { before = now }
            return now == before
        }
        let start = cpuTicks(pid)
        usleep(2_000_000)
        #expect(cpuTicks(pid) == start, "the idle page used CPU")
        try pane.send("q")
        #expect(try pane.finished().status == 0)
    }

    /// utime + stime of `pid` in clock ticks.
    func cpuTicks(_ pid: pid_t) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return -1 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, utime 14, stime 15.
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }
}
