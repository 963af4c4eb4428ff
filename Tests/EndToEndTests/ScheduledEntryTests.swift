import Foundation
import Testing
import TestSupport

/// The crontab lines notif writes, run exactly as cron runs them: `/bin/sh -c` with cron's
/// environment (HOME, LOGNAME, SHELL=/bin/sh, PATH=/usr/bin:/bin and nothing else), as the user.
@Suite(.enabled(if: isRoot, "needs root for a throwaway user's real crontab"))
struct ScheduledEntryTests {
    /// The user's notif lines, schedule fields and command apart (the command as cron hands it to
    /// sh); the block's SHELL and PATH settings are not entries.
    func lines(_ user: TestUser) throws -> [(schedule: String, command: String)] {
        try user.crontab().split(separator: "\n").filter { !$0.hasPrefix("#") && !CronLine.isSetting($0) }.map { line in
            let fields = line.split(separator: " ", maxSplits: line.hasPrefix("@") ? 1 : 5, omittingEmptySubsequences: false)
            return (fields.dropLast().joined(separator: " "), NastyNames.cronCommand(String(fields.last!)))
        }
    }

    /// `command` run by `/bin/sh -c` as `user`, with exactly cron's environment.
    func runAsCron(_ user: TestUser, _ command: String) throws -> RunResult {
        try run(["/usr/sbin/runuser", "-u", user.name, "--", "/usr/bin/env", "-i", "HOME=" + user.home, "LOGNAME=" + user.name,
                 "SHELL=/bin/sh", "PATH=/usr/bin:/bin", "/bin/sh", "-c", command],
                environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
    }

    /// Every file under the user's notif directories, with its size and modification time.
    func snapshot(_ user: TestUser) -> [String] {
        (walk(user.stateDir) + walk(user.home + "/.config/notif")).map { path in
            var info = stat()
            _ = lstat(path, &info)
            return "\(path) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }
    }

    /// What cron runs writes nothing to stdout or stderr, waiting, delivered or refused, so cron
    /// mails nothing; the outcome is in the delivery log and `notif history`. With no session bus
    /// at all, the reminder waits; a desktop session that comes later (its bus recorded by a notif
    /// run inside it) gets it at once, recorded late, and a later run shows nothing more.
    @Test(.hangGuard)
    func scheduledRunsAreSilentWithAndWithoutANotificationServer() throws {
        let user = try TestUser.make("notif-tre-quiet")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        // The user's zone is one where it is 09:01 now, so the daily line is due.
        let env = ["NOTIF_SCHEDULER": "cron", "TZ": ZoneShift.whereItIs(9, 1)]
        #expect(try user.run([binary, "permission", "grant"], env).status == 0)
        let set = try user.run([binary, "set", "tips-and-updates", "on"], env)
        #expect(set.status == 0, "\(set)")
        try user.entriesFromYesterday()
        let entry = try lines(user)
        #expect(entry.map(\.schedule).last == "@reboot" && entry.count == 2, "\(entry)")
        let (daily, boot) = (entry[0].command, entry[1].command)
        #expect(daily.contains(" deliver --quiet tips-and-updates") && boot.contains(" deliver --quiet --catch-up tips-and-updates"))

        // No notification server (no session bus at all): a waiter waits for one, silently.
        let waiting = try runAsCron(user, daily)
        #expect(waiting.status == 0 && waiting.stdout.isEmpty && waiting.stderr.isEmpty, "\(waiting)")
        let history = try user.run([binary, "history"], env)
        #expect(history.stdout.contains("tips-and-updates  waiting: not sent yet: no D-Bus session bus"), "the outcome is in the history: \(history)")
        #expect(Waiters.find(DetachedActionWaiterName.command, uid: user.uid).count == 1, "no waiter waits")

        // A refusal before any command runs (a state directory others may write) is silent too.
        chmod(user.stateDir, 0o777)
        let refused = try runAsCron(user, daily)
        chmod(user.stateDir, 0o700)
        #expect(refused.status == 1 && refused.stdout.isEmpty && refused.stderr.isEmpty, "\(refused)")

        // A desktop session comes, and a notif run inside it records its bus: the waiter shows it.
        let display = try VirtualDisplay()
        let session = try DesktopSession(user: user, display: display)
        #expect(try user.run([binary, "apply"], env.merging(session.environment) { a, _ in a }).status == 0)
        #expect(try waitUntil(20) { try session.shown().map(\.summary) == ["Tips & Updates"] }, "the waiter did not show it")
        let again = try runAsCron(user, boot)
        #expect(again.status == 0 && again.stdout.isEmpty && again.stderr.isEmpty, "\(again)")
        #expect(try session.shown().count == 1)
        let records = DeliveryLine.all(of: user)
        #expect(records.map(\.outcome) == ["waiting", "delivered"], "\(records)")
        #expect(records.last?.detail.contains(" late: no run until ") == true
                && records.last?.detail.contains("then no notification service until then; accepted by the notification service through the recorded session as notification") == true, "\(records)")
        withExtendedLifetime(display) {}
    }

    /// An entry whose notif is gone (uninstalled, or a copy removed) does nothing and writes
    /// nothing: no output for cron to mail, no file touched.
    @Test func anEntryWhoseProgramIsGoneDoesNothingAndWritesNothing() throws {
        let user = try TestUser.make("notif-tre-gone")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox, directory: "gone 100% $x 'q'")
        let env = ["NOTIF_SCHEDULER": "cron", "TZ": ZoneShift.whereItIs(9, 1)]
        _ = try user.run([binary, "permission", "grant"], env)
        #expect(try user.run([binary, "set", "tips-and-updates", "on"], env).status == 0)
        let entry = try lines(user)
        #expect(entry.count == 2)
        // With the program there the line runs it (and logs the attempt); then it is removed.
        #expect(try runAsCron(user, entry[1].command).stdout.isEmpty)
        try FileManager.default.removeItem(atPath: binary)
        let before = snapshot(user)
        #expect(!before.isEmpty)
        for (schedule, command) in entry {
            let ran = try runAsCron(user, command)
            #expect(ran.status != 0 && ran.stdout.isEmpty && ran.stderr.isEmpty, "\(schedule): \(ran)")
        }
        #expect(snapshot(user) == before, "a file was written")
    }
}

/// Two configurations of one user (a second `XDG_CONFIG_HOME`, the same state directory) each
/// keep their own entries on every scheduler, and `apply` in one never touches the other's. The
/// entries of an earlier notif (untagged) are taken over once by the default configuration.
@Suite(.enabled(if: isRoot, "needs root for a throwaway user's real crontab"), .serialized)
struct ConfigurationOwnershipTests {
    static let mine = "# mine\n17 3 * * * /bin/true\n"

    struct Setup {
        let user: TestUser
        /// Holds the binary's directory (removed with it).
        let sandbox: Sandbox
        let binary: String
        let other: String
        var units: String { user.home + "/.config/systemd/user" }

        /// `notif ARGS` in the default configuration, or with `other` in the other one.
        func notif(_ args: [String], other: Bool = false, scheduler: String) throws -> RunResult {
            var env = ["NOTIF_SCHEDULER": scheduler]
            if other { env["XDG_CONFIG_HOME"] = self.other }
            return try user.run([binary] + args, env)
        }

        /// The default configuration as an existing user's: Tips & Updates on and allowed, saved by
        /// an earlier notif that also left the untagged entries; then the upgraded notif's first apply.
        func upgradeDefault(scheduler: String) throws -> RunResult {
            _ = try user.run(["mkdir", "-p", user.home + "/.config/notif"])
            _ = try user.run(["sh", "-c", "printf '{\"version\": 1, \"tipsAndUpdates\": true, \"permission\": \"granted\"}\\n' > \"$0\"", user.settingsPath])
            return try notif(["apply"], scheduler: scheduler)
        }

        func names(in dir: String, _ prefix: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
        }
    }

    func setUp(_ name: String) throws -> Setup {
        let user = try TestUser.make(name)
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let other = user.home + "/other config"
        _ = try user.run(["mkdir", "-p", other])
        return Setup(user: user, sandbox: sandbox, binary: binary, other: other)
    }

    @Test func cronBlocksPerConfigurationAndTheOldBlockTakenOverOnce() throws {
        let setup = try setUp("notif-tre-own-cron")
        defer { deleteUser(setup.user) }
        let user = setup.user
        let old = "# BEGIN notif managed block: changed by `notif set` and `notif apply`; edits here are replaced\n"
            + "# notif reminder: tips-and-updates\n0 9 * * * /old/notif deliver tips-and-updates\n@reboot /old/notif deliver --catch-up tips-and-updates\n"
            + "# END notif managed block\n"
        try user.setCrontab(Self.mine + old)
        let granted = try setup.notif(["permission", "grant"], other: true, scheduler: "cron")
        #expect(granted.status == 0, "\(granted)")
        // The other configuration adds its block and leaves the old one (not its own) alone.
        let on = try setup.notif(["set", "tips-and-updates", "on"], other: true, scheduler: "cron")
        #expect(on.status == 0, "\(on)")
        var crontab = try user.crontab()
        #expect(crontab.hasPrefix(Self.mine + old), "\(crontab)")
        #expect(crontab.components(separatedBy: "# BEGIN notif managed block").count == 3, "\(crontab)")
        // The default configuration takes the old block over: replaced in place, not duplicated.
        let upgraded = try setup.upgradeDefault(scheduler: "cron")
        #expect(upgraded.status == 0 && upgraded.stdout.contains("scheduled daily at 09:00 with cron"), "\(upgraded)")
        crontab = try user.crontab()
        #expect(crontab.hasPrefix(Self.mine) && !crontab.contains("/old/notif") && !crontab.contains("managed block: changed"), "\(crontab)")
        #expect(crontab.components(separatedBy: "deliver --quiet tips-and-updates").count == 3, "one daily line each: \(crontab)")
        #expect(crontab.components(separatedBy: "deliver --quiet --catch-up tips-and-updates").count == 3, "\(crontab)")
        #expect(crontab.contains("# settings: \(setup.other)/notif/settings.json") && crontab.contains("# settings: \(user.home)/.config/notif/settings.json"))
        // Once: applying again changes nothing, in either.
        for other in [false, true] {
            let again = try setup.notif(["apply"], other: other, scheduler: "cron")
            #expect(again.status == 0 && again.stdout.contains("(unchanged)"), "\(again)")
            let status = try setup.notif(["status"], other: other, scheduler: "cron")
            #expect(status.stdout.contains("In sync:            yes"), "\(status)")
        }
        #expect(try user.crontab() == crontab)
        // Off in one leaves the other's entry.
        let off = try setup.notif(["set", "tips-and-updates", "off"], other: true, scheduler: "cron")
        #expect(off.status == 0, "\(off)")
        crontab = try user.crontab()
        #expect(crontab.components(separatedBy: "deliver --quiet tips-and-updates").count == 2 && !crontab.contains(setup.other), "\(crontab)")
        #expect(try setup.notif(["set", "tips-and-updates", "off"], scheduler: "cron").status == 0)
        #expect(try user.crontab() == Self.mine)
    }

    @Test func systemdUnitsPerConfigurationInTheManagersDirectoryAndOldUnitsTakenOverOnce() throws {
        let setup = try setUp("notif-tre-own-sd")
        defer { deleteUser(setup.user) }
        let user = setup.user
        // Units as an earlier notif wrote and enabled them.
        let marker = "# Managed by notif: `notif apply` rewrites this file and removes it when the reminder is off."
        _ = try user.run(["mkdir", "-p", setup.units + "/timers.target.wants"])
        _ = try user.run(["sh", "-c", "printf '%s\\n[Timer]\\nOnCalendar=*-*-* 09:00:00\\n' \"$1\" > \"$0/notif-tips-and-updates.timer\" && "
                          + "printf '%s\\n[Service]\\nExecStart=/old/notif deliver --catch-up tips-and-updates\\n' \"$1\" > \"$0/notif-tips-and-updates.service\" && "
                          + "ln -s \"$0/notif-tips-and-updates.timer\" \"$0/timers.target.wants/notif-tips-and-updates.timer\"", setup.units, marker])
        #expect(try setup.notif(["permission", "grant"], other: true, scheduler: "systemd").status == 0)
        #expect(try setup.notif(["set", "tips-and-updates", "on"], other: true, scheduler: "systemd").status == 0)
        // The other configuration's units go where the user manager looks, not under its XDG_CONFIG_HOME.
        #expect(setup.names(in: setup.other + "/systemd/user", "notif-").isEmpty)
        #expect(setup.names(in: setup.units, "notif-").count == 4, "\(setup.names(in: setup.units, "notif-"))")
        #expect(setup.names(in: setup.units, "notif-tips-and-updates.").count == 2, "the old units stay for the default configuration")
        #expect(try setup.upgradeDefault(scheduler: "systemd").status == 0)
        let units = setup.names(in: setup.units, "notif-")
        #expect(units.count == 4 && !units.contains("notif-tips-and-updates.timer"), "\(units)")
        let links = setup.names(in: setup.units + "/timers.target.wants", "notif-")
        #expect(links.count == 2 && !links.contains("notif-tips-and-updates.timer"), "\(links)")
        for other in [false, true] {
            let again = try setup.notif(["apply"], other: other, scheduler: "systemd")
            #expect(again.status == 0 && again.stdout.contains("(unchanged)"), "\(again)")
        }
        #expect(setup.names(in: setup.units, "notif-") == units)
        #expect(try setup.notif(["set", "tips-and-updates", "off"], other: true, scheduler: "systemd").status == 0)
        #expect(setup.names(in: setup.units, "notif-").count == 2 && setup.names(in: setup.units + "/timers.target.wants", "notif-").count == 1)
        #expect(try setup.notif(["set", "tips-and-updates", "off"], scheduler: "systemd").status == 0)
        #expect(setup.names(in: setup.units, "notif-").isEmpty && setup.names(in: setup.units + "/timers.target.wants", "notif-").isEmpty)
    }

    @Test func builtInEntriesPerConfigurationAndTheOldEntryTakenOverOnce() throws {
        let setup = try setUp("notif-tre-own-emb")
        defer { deleteUser(setup.user) }
        let user = setup.user
        let schedule = user.stateDir + "/embedded"
        _ = try user.run(["mkdir", "-p", schedule])
        _ = try user.run(["sh", "-c", "printf 'reminder=tips-and-updates\\ntime=09:00\\n' > \"$0/tips-and-updates\"", schedule])
        #expect(try setup.notif(["permission", "grant"], other: true, scheduler: "embedded").status == 0)
        #expect(try setup.notif(["set", "tips-and-updates", "on"], other: true, scheduler: "embedded").status == 0)
        #expect(setup.names(in: schedule, "tips-and-updates").count == 2 && setup.names(in: schedule, "tips-and-updates").contains("tips-and-updates"))
        #expect(try setup.upgradeDefault(scheduler: "embedded").status == 0)
        let entries = setup.names(in: schedule, "tips-and-updates")
        #expect(entries.count == 2 && !entries.contains("tips-and-updates"), "\(entries)")
        let again = try setup.notif(["apply"], scheduler: "embedded")
        #expect(again.status == 0 && again.stdout.contains("(unchanged)"), "\(again)")
        #expect(try setup.notif(["set", "tips-and-updates", "off"], scheduler: "embedded").status == 0)
        #expect(setup.names(in: schedule, "tips-and-updates").count == 1, "the other configuration's entry stays")
        let status = try setup.notif(["status"], other: true, scheduler: "embedded")
        #expect(status.stdout.contains("Installed:          tips-and-updates"), "\(status)")
    }
}
