import Foundation
import Testing

/// `notif reset --entries` removes every entry notif wrote for the user, on every scheduler at
/// once: a throwaway user holding a crontab block, systemd units (with the enable link and a
/// timer stamp), a built-in schedule entry and the autostart entry.
@Suite(.enabled(if: isRoot, "needs root for a throwaway user's real crontab"))
struct ResetEntriesTests {
    /// Entries on all three schedulers: each apply runs with the other schedulers' places moved
    /// elsewhere (XDG directories of its own), since an apply removes leftovers it can see.
    /// The three configurations' environments: entries belong to the configuration that wrote
    /// them, and `reset --entries` removes the running configuration's, on every scheduler.
    func configurations(_ user: TestUser) -> [String: [String: String]] {
        let on = ["TZ": "Europe/Berlin"]
        return ["systemd": on, "embedded": on.merging(["XDG_CONFIG_HOME": user.home + "/other-config"]) { $1 },
                "cron": on.merging(["XDG_CONFIG_HOME": user.home + "/cron-config", "XDG_STATE_HOME": user.home + "/cron-state"]) { $1 }]
    }

    func entriesEverywhere(_ user: TestUser, _ binary: String) throws {
        let on = ["TZ": "Europe/Berlin"]
        func prepared(_ extra: [String: String]) throws -> [String: String] {
            let env = on.merging(extra) { $1 }
            #expect(try user.run([binary, "permission", "grant"], env).status == 0)
            #expect(try user.run([binary, "set", "tips-and-updates", "on"], env.merging(["NOTIF_SCHEDULER": "embedded"]) { $1 }).status == 0)
            return env
        }
        let systemd = try prepared([:])
        #expect(try user.run([binary, "--scheduler", "systemd", "apply"], systemd).status == 0)
        let embedded = try prepared(["XDG_CONFIG_HOME": user.home + "/other-config"])
        #expect(try user.run([binary, "--scheduler", "embedded", "apply"], embedded).status == 0)
        let cron = try prepared(["XDG_CONFIG_HOME": user.home + "/cron-config", "XDG_STATE_HOME": user.home + "/cron-state"])
        #expect(try user.run([binary, "--scheduler", "cron", "apply"], cron).status == 0)
        #expect(try user.run([binary, "daemon", "--install-autostart"], on).status == 0)
        // A stamp a user manager would have left.
        let stamp = user.home + "/.local/share/systemd/timers/stamp-notif-tips-and-updates.timer"
        #expect(try user.run(["sh", "-c", "mkdir -p \"$(dirname \"$0\")\" && touch \"$0\"", stamp]).status == 0)
        let places = try ReminderPlaces.of(user)
        #expect(places.holders == ["cron", "systemd", "embedded"] && places.enabled, "\(places)")
    }

    @Test(.timeLimit(.minutes(5)))
    func removesEveryEntryOnEverySchedulerAndSaysWhat() throws {
        let user = try TestUser.make("notif-tr14-reset")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let mine = "# my own line\n17 3 * * * /bin/true\n"
        try user.setCrontab(mine)
        try entriesEverywhere(user, binary)
        let autostart = user.home + "/.config/autostart/notif-daemon.desktop"
        let stamp = user.home + "/.local/share/systemd/timers/stamp-notif-tips-and-updates.timer"

        var reset = RunResult(status: 0, stdout: "", stderr: "")
        for (_, env) in configurations(user).sorted(by: { $0.key < $1.key }) {
            let one = try user.run([binary, "reset", "--entries"], env)
            #expect(one.status == 0, "\(one)")
            reset = RunResult(status: max(reset.status, one.status), stdout: reset.stdout + one.stdout, stderr: reset.stderr + one.stderr)
        }
        for line in ["Removed from your crontab: tips-and-updates.",
                     "Removed from systemd user timers (units, enable links, stamps): tips-and-updates.",
                     "Removed from the built-in schedule: tips-and-updates.",
                     "Removed from the autostart entry: \(autostart)."] {
            #expect(reset.stdout.contains(line + "\n"), "missing \(line): \(reset)")
        }
        let places = try ReminderPlaces.of(user)
        #expect(places.holders.isEmpty && !places.enabled, "\(places)")
        #expect(!FileManager.default.fileExists(atPath: stamp) && !FileManager.default.fileExists(atPath: autostart))
        #expect(try user.crontab() == mine, "the user's own lines stay")
        // The settings stay; status says nothing is installed, and a second reset finds nothing.
        #expect(user.read(user.settingsPath)?.contains("\"tipsAndUpdates\": true") == true)
        let again = try user.run([binary, "reset", "--entries"])
        #expect(again.status == 0 && again.stdout.hasPrefix("No entries of notif's were found"), "\(again)")
    }

    @Test(.timeLimit(.minutes(5)))
    func whatCannotBeRemovedIsNamedAndTheExitIsOne() throws {
        let user = try TestUser.make("notif-tr14-resetfail")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        try entriesEverywhere(user, binary)
        let schedule = user.stateDir + "/embedded"
        #expect(chmod(schedule, 0o500) == 0)
        let envs = configurations(user)
        for kind in ["systemd", "cron"] { #expect(try user.run([binary, "reset", "--entries"], envs[kind]!).status == 0) }
        let reset = try user.run([binary, "reset", "--entries"], envs["embedded"]!)
        #expect(reset.status == 1, "\(reset)")
        #expect(reset.stderr.contains("could not remove from the built-in schedule: tips-and-updates:"), "\(reset)")
        #expect(reset.stderr.contains(schedule), "\(reset)")
        // Everything else went; the entry that stayed goes on the next try.
        #expect(try ReminderPlaces.of(user).holders == ["embedded"])
        #expect(chmod(schedule, 0o700) == 0)
        let again = try user.run([binary, "reset", "--entries"], envs["embedded"]!)
        #expect(again.status == 0 && again.stdout.contains("Removed from the built-in schedule: tips-and-updates."), "\(again)")
        #expect(try ReminderPlaces.of(user).holders.isEmpty)
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
