import Foundation
import LinuxGateway
import Testing

/// `notif reset --entries` removes every entry notif wrote for the user, of every configuration
/// it can find, on every scheduler, in one run: a throwaway user whose two configurations (the
/// account's default one, and one with its own XDG_CONFIG_HOME and XDG_STATE_HOME) each hold the
/// reminder in the real crontab, as systemd units (enable links, stamps) and in the built-in
/// schedule, with an autostart entry each, beside entries of an earlier, untagged notif.
@Suite(.enabled(if: isRoot, "needs root for a throwaway user's real crontab"))
struct ResetEntriesTests {
    let zone = ["TZ": "Europe/Berlin"]

    /// The second configuration: named nowhere but in its own entries.
    func other(_ user: TestUser) -> [String: String] {
        zone.merging(["XDG_CONFIG_HOME": user.home + "/b config", "XDG_STATE_HOME": user.home + "/b state"]) { $1 }
    }

    func settings(_ user: TestUser, _ env: [String: String]) -> String { (env["XDG_CONFIG_HOME"] ?? user.home + "/.config") + "/notif/settings.json" }
    func stateDir(_ user: TestUser, _ env: [String: String]) -> String { (env["XDG_STATE_HOME"] ?? user.home + "/.local/state") + "/notif" }
    func autostart(_ user: TestUser, _ env: [String: String]) -> String { (env["XDG_CONFIG_HOME"] ?? user.home + "/.config") + "/autostart/notif-daemon.desktop" }
    var units: (TestUser) -> String { { $0.home + "/.config/systemd/user" } }
    var stamps: (TestUser) -> String { { $0.home + "/.local/share/systemd/timers" } }

    /// Root's `cp -a` (owners and modes kept).
    func copy(_ from: String, _ to: String) throws {
        let result = try run(["sh", "-c", "mkdir -p \"$1\" && cp -a \"$0\"/. \"$1\"", from, to], environment: ["PATH": "/usr/bin:/bin"])
        guard result.status == 0 else { throw E2EFailure("cp -a \(from) \(to): \(result)") }
    }

    /// Each configuration's reminder on all three schedulers at once. An apply moves its
    /// configuration's entries off the file-based schedulers it does not use, so the files an
    /// earlier apply wrote are copied back afterwards, exactly as notif wrote them.
    func entriesEverywhere(_ user: TestUser, _ binary: String, _ sandbox: Sandbox) throws {
        for (index, env) in [zone, other(user)].enumerated() {
            #expect(try user.run([binary, "permission", "grant"], env).status == 0)
            #expect(try user.run([binary, "set", "tips-and-updates", "on"], env.merging(["NOTIF_SCHEDULER": "embedded"]) { $1 }).status == 0)
            let saved = sandbox.path + "/saved-\(index)"
            #expect(try user.run([binary, "--scheduler", "systemd", "apply"], env).status == 0)
            try copy(units(user), saved + "/units")
            #expect(try user.run([binary, "--scheduler", "embedded", "apply"], env).status == 0)
            try copy(stateDir(user, env) + "/embedded", saved + "/embedded")
            let cron = try user.run([binary, "--scheduler", "cron", "apply"], env)
            #expect(cron.status == 0, "\(cron)")
            try copy(saved + "/units", units(user))
            try copy(saved + "/embedded", stateDir(user, env) + "/embedded")
            #expect(try user.run([binary, "daemon", "--install-autostart"], env).status == 0)
        }
        // An earlier notif's untagged entries: a crontab block, units (enabled) and a built-in entry.
        let tagged = "notif-tips-and-updates-\(user.tag)"
        for suffix in [".timer", ".service"] {
            #expect(try run(["cp", "-a", units(user) + "/" + tagged + suffix, units(user) + "/notif-tips-and-updates" + suffix], environment: ["PATH": "/usr/bin:/bin"]).status == 0)
        }
        #expect(try user.run(["ln", "-s", "../notif-tips-and-updates.timer", units(user) + "/timers.target.wants/notif-tips-and-updates.timer"]).status == 0)
        #expect(try user.run(["cp", stateDir(user, zone) + "/embedded/tips-and-updates.\(user.tag)", stateDir(user, zone) + "/embedded/tips-and-updates"]).status == 0)
        let untagged = "\(CrontabBlock.untaggedBeginMarker)\n# notif reminder: tips-and-updates\n0 9 * * * /usr/local/bin/notif deliver tips-and-updates\n\(CrontabBlock.untaggedEndMarker)\n"
        try user.setCrontab(try user.crontab() + untagged + "# mine, after notif's blocks\n5 4 * * * /bin/true\n")
        // Stamps a user manager would have left.
        for timer in [tagged, "notif-tips-and-updates"] {
            #expect(try user.run(["sh", "-c", "mkdir -p \"$(dirname \"$0\")\" && touch \"$0\"", stamps(user) + "/stamp-\(timer).timer"]).status == 0)
        }
        // Units: two tagged pairs and an untagged one, three timer enable links, two login links
        // of the tagged services, two stamps; built-in entries: two tagged, one untagged; two
        // autostart entries; two scheduler records.
        let left = try leftovers(user).filter { !$0.hasPrefix("#") }
        #expect(left.count == 20, "\(left.joined(separator: "\n"))")
        #expect(try user.crontab().components(separatedBy: "# BEGIN notif managed block").count == 4, "three blocks")
    }

    /// Everything of notif's that could make an entry fire, or records one: crontab blocks, unit
    /// files, enable links, stamps, built-in entries and autostart entries of both configurations,
    /// and the scheduler records.
    func leftovers(_ user: TestUser) throws -> [String] {
        func files(_ dir: String, _ keep: (String) -> Bool) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter(keep).map { dir + "/" + $0 }
        }
        let blocks = try user.crontab().split(separator: "\n").filter { $0.contains("notif managed block") || $0.contains("notif reminder:") }.map(String.init)
        let states = [stateDir(user, zone), stateDir(user, other(user))]
        return blocks
            + files(units(user)) { $0.hasPrefix("notif-") } + files(units(user) + "/timers.target.wants") { $0.hasPrefix("notif-") }
            + files(units(user) + "/default.target.wants") { $0.hasPrefix("notif-") }
            + files(stamps(user)) { $0.hasPrefix("stamp-notif-") }
            + states.flatMap { files($0 + "/embedded") { !$0.hasPrefix(".") } }
            + states.flatMap { files($0) { $0 == "scheduler" || $0.hasPrefix("scheduler-") } }
            + [autostart(user, zone), autostart(user, other(user))].filter { FileManager.default.fileExists(atPath: $0) }
    }

    @Test(.hangGuard)
    func oneRunRemovesBothConfigurationsEntriesOnEverySchedulerAndKeepsTheUsersLines() throws {
        let user = try TestUser.make("notif-tr14-reset")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let mine = "# my own line\n17 3 * * * /bin/true\n"
        try user.setCrontab(mine)
        try entriesEverywhere(user, binary, sandbox)

        // Run as the default configuration: the other one is found through its entries only.
        let reset = try user.run([binary, "reset", "--entries"], zone)
        #expect(reset.status == 0 && reset.stderr.isEmpty, "\(reset)")
        let a = "tips-and-updates for " + settings(user, zone), b = "tips-and-updates for " + settings(user, other(user))
        let old = "tips-and-updates (untagged, of an earlier notif)"
        #expect(reset.stdout.contains("Removed from your crontab: \(a); \(b); \(old).\n"), "\(reset.stdout)")
        for (place, items) in [("systemd user timers (units, enable links, stamps)", [old, a, b]), ("the built-in schedule", [old, a, b]),
                               ("the autostart entries of notif daemon", [autostart(user, zone), autostart(user, other(user))])] {
            let line = reset.stdout.split(separator: "\n").first { $0.hasPrefix("Removed from \(place): ") }.map(String.init) ?? ""
            let said = line.dropFirst("Removed from \(place): ".count).dropLast().components(separatedBy: "; ")
            #expect(said.sorted() == items.sorted(), "\(place):\n\(reset.stdout)")
        }
        #expect(reset.stdout.contains(stateDir(user, other(user)) + "/embedded"), "the output names where it looked: \(reset.stdout)")
        let left = try leftovers(user)
        #expect(left.isEmpty, "left behind:\n\(left.joined(separator: "\n"))")
        // Nor anything else notif made for the entries: their empty directories, the recorded session.
        let made = [units(user), user.home + "/.config/systemd", stamps(user), user.home + "/.config/autostart", user.home + "/b config/autostart"]
            + [zone, other(user)].flatMap { [stateDir(user, $0) + "/embedded", stateDir(user, $0) + "/session.env"] }
        #expect(made.filter { FileManager.default.fileExists(atPath: $0) } == [], "left behind")
        #expect(try user.crontab() == mine + "# mine, after notif's blocks\n5 4 * * * /bin/true\n", "the user's own lines stay")
        // The settings stay; a second reset, from either configuration, finds nothing.
        for env in [zone, other(user)] {
            #expect(user.read(settings(user, env))?.contains("\"tipsAndUpdates\": true") == true)
            let again = try user.run([binary, "reset", "--entries"], env)
            #expect(again.status == 0 && again.stdout.hasPrefix("No entries of notif's were found.\n"), "\(again)")
        }
    }

    @Test(.hangGuard)
    func whatCannotBeRemovedIsNamedWithHowToRetryAndTheExitIsOne() throws {
        let user = try TestUser.make("notif-tr14-resetfail")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        try entriesEverywhere(user, binary, sandbox)
        let schedule = stateDir(user, other(user)) + "/embedded"
        #expect(chmod(schedule, 0o500) == 0)
        let reset = try user.run([binary, "reset", "--entries"], zone)
        #expect(reset.status == 1, "\(reset)")
        #expect(reset.stderr.contains("could not remove from the built-in schedule:") && reset.stderr.contains(schedule), "\(reset)")
        // The crontab and the units that named that directory are gone: the message says how to look there again.
        let retry = "`env XDG_CONFIG_HOME='\(user.home)/b config' XDG_STATE_HOME='\(user.home)/b state' notif reset --entries` tries again"
        #expect(reset.stderr.contains("may still fire; " + retry), "\(reset)")
        // Only the entry that could not go stays (with the scheduler records, kept while an entry is left).
        let left = try leftovers(user).filter { !$0.contains("/scheduler") }
        #expect(left == [schedule + "/tips-and-updates." + ConfigurationID(settingsPath: settings(user, other(user)), isDefault: false).tag],
                "\(left.joined(separator: "\n"))")
        #expect(chmod(schedule, 0o700) == 0)
        let again = try user.run([binary, "reset", "--entries"], other(user))
        #expect(again.status == 0 && again.stdout.contains("Removed from the built-in schedule: tips-and-updates for \(settings(user, other(user)))."), "\(again)")
        #expect(try leftovers(user).isEmpty)
    }

    /// A crontab that cannot be run (not on PATH here) is never "nothing in the crontab": the
    /// reset says the block may still fire and how to remove it, exits 1, and the block is still
    /// there for the next run, which removes it.
    @Test(.hangGuard)
    func aCrontabThatCannotBeRunIsNotNothingFound() throws {
        let user = try TestUser.make("notif-tr14-resetnoct")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let env = zone.merging(["NOTIF_SCHEDULER": "cron"]) { $1 }
        #expect(try user.run([binary, "permission", "grant"], env).status == 0)
        #expect(try user.run([binary, "set", "tips-and-updates", "on"], env).status == 0)
        #expect(try user.crontab().contains("# BEGIN notif managed block"))
        let only = user.home + "/only"
        #expect(try user.run(["sh", "-c", "mkdir -p \"$0\" && ln -s \"$1\" \"$0/notif\"", only, binary]).status == 0)
        let reset = try user.run([only + "/notif", "reset", "--entries"], zone.merging(["PATH": only]) { $1 })
        #expect(reset.status == 1, "\(reset)")
        #expect(!reset.stdout.contains("No entries of notif's were found"), "\(reset)")
        #expect(reset.stderr.contains("could not remove from your crontab: your crontab could not be read (crontab is not installed")
                && reset.stderr.contains("may still be in it") && reset.stderr.contains("crontab -e")
                && reset.stderr.contains("may still fire"), "\(reset)")
        #expect(try user.crontab().contains("# BEGIN notif managed block"), "the block is still there")
        let again = try user.run([binary, "reset", "--entries"], zone)
        #expect(again.status == 0 && again.stdout.contains("Removed from your crontab: tips-and-updates"), "\(again)")
        #expect(try !user.crontab().contains("notif managed block"))
    }

    /// A configuration that only its running daemon names (its own XDG_CONFIG_HOME and
    /// XDG_STATE_HOME, the built-in scheduler, no crontab line or unit, not on the configuration
    /// list, as with a notif from before the list): reset finds it through
    /// the daemon's environment. Without the daemon, nothing leads there, and the output's
    /// "Looked in" does not claim it.
    @Test(.hangGuard)
    func aRunningDaemonLeadsToItsSchedule() throws {
        let user = try TestUser.make("notif-tr14-resetd")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let env = other(user).merging(["NOTIF_SCHEDULER": "embedded"]) { $1 }
        #expect(try user.run([binary, "permission", "grant"], env).status == 0)
        #expect(try user.run([binary, "set", "tips-and-updates", "on"], env).status == 0)
        #expect(try user.run([binary, "daemon", "--install-autostart"], env).status == 0)
        let entry = stateDir(user, env) + "/embedded/tips-and-updates." + ConfigurationID(settingsPath: settings(user, env), isDefault: false).tag
        #expect(FileManager.default.fileExists(atPath: entry))
        // As a notif from before the configuration list left it: only the daemon names it.
        #expect(try user.run(["rm", user.home + "/.local/state/notif/configurations"]).status == 0)

        let blind = try user.run([binary, "reset", "--entries"], zone)
        #expect(blind.status == 0 && blind.stdout.hasPrefix("No entries of notif's were found.\n") && !blind.stdout.contains("b state"), "\(blind)")
        #expect(FileManager.default.fileExists(atPath: entry))

        let daemonEnv = user.environment(env)
        let daemon = try DaemonProcess(["/usr/sbin/runuser", "-u", user.name, "--", "/usr/bin/env", "-i"]
                                           + daemonEnv.keys.sorted().map { "\($0)=\(daemonEnv[$0]!)" } + [binary, "daemon"],
                                       environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], outputIn: sandbox.path)
        #expect(daemon.waitUntilRunning(), "\(daemon.output)")
        let reset = try user.run([binary, "reset", "--entries"], zone)
        #expect(reset.status == 0, "\(reset)")
        for line in ["Removed from the built-in schedule: tips-and-updates for \(settings(user, env)).",
                     "Removed from the autostart entries of notif daemon: \(autostart(user, env)).",
                     "The built-in schedule: notif daemon still runs for \(stateDir(user, env)), with nothing left to show; stop it, or log out."] {
            #expect(reset.stdout.contains(line + "\n"), "missing \(line):\n\(reset.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: entry) && !FileManager.default.fileExists(atPath: autostart(user, env)))
    }

    @Test func resetNeedsWhatToReset() throws {
        let sandbox = Sandbox()
        let bare = try sandbox.notif(["reset"])
        #expect(bare.status == 2 && bare.stderr.contains("reset needs --entries") && bare.stderr.contains("Usage: notif reset --entries"), "\(bare)")
        #expect(try sandbox.notif(["reset", "--all"]).status == 2)
        let help = try sandbox.notif(["reset", "--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("Usage: notif reset --entries"), "\(help)")
    }
}

/// `notif reset --entries` with a live systemd user manager: both configurations' timers are
/// loaded and running, and one reset stops them (the manager no longer lists them), removes
/// their files, enable links and stamps, and reloads the manager.
@Suite(.enabled(if: isRoot, "needs root for throwaway users, a mount namespace and cgroups"))
struct ResetEntriesLiveManagerTests {
    @Test(.hangGuard)
    func bothConfigurationsTimersLeaveTheRunningManager() throws {
        let live = try LiveSystemdTests.Setup("notif-tr14-resetlive", zone: "Europe/Berlin")
        let other = ["XDG_CONFIG_HOME": live.user.home + "/b config", "XDG_STATE_HOME": live.user.home + "/b state"]
        let first = try live.turnOn()
        try live.turnOn(other)
        let names = Set(live.unitFiles.map { ($0 as NSString).lastPathComponent }.filter { $0.hasSuffix(".timer") })
        #expect(names.count == 2 && names.contains(first), "\(live.unitFiles)")
        let loaded = try live.manager.timers()
        #expect(names.allSatisfy { loaded.keys.contains($0) }, "the manager runs both timers: \(loaded)")

        let reset = try live.notif(["reset", "--entries"])
        #expect(reset.status == 0 && reset.stderr.isEmpty, "\(reset)")
        #expect(reset.stdout.contains("Removed from systemd user timers (units, enable links, stamps): tips-and-updates for \(live.user.home)/"), "\(reset)")
        #expect(live.unitFiles.isEmpty, "\(live.unitFiles)")
        let after = try live.manager.timers()
        #expect(names.allSatisfy { !after.keys.contains($0) }, "the manager no longer has them: \(after)")
        for timer in names { #expect(!FileManager.default.fileExists(atPath: live.stamp(of: timer)), "stamp of \(timer)") }
        let again = try live.notif(["reset", "--entries"])
        #expect(again.status == 0 && again.stdout.hasPrefix("No entries of notif's were found.\n"), "\(again)")
    }
}
