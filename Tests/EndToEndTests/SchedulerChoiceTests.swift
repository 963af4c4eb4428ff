import Foundation
import Testing
import TestSupport

/// The scheduler is a saved choice, `--scheduler` a one-off, and an entry notif cannot remove
/// is never reported as gone: the built binary against throwaway users' real crontabs, the real
/// `systemctl --user` (on the files: no user manager here) and the page in tmux.
@Suite(.enabled(if: isRoot, "needs root for throwaway users' real crontabs"))
struct SchedulerChoiceEndToEndTests {
    static let mine = "# mine: 100% mine\n17 3 * * * /bin/true\n"

    /// A user whose crontab holds their own lines and notif's block, put there with `--scheduler cron`.
    func userWithACronEntry(_ name: String, _ sandbox: Sandbox) throws -> (TestUser, String) {
        let user = try TestUser.make(name)
        let binary = try NotifBinary.publicCopy(in: sandbox)
        try user.setCrontab(Self.mine)
        // Onboarding done, so a plain `notif` opens the page itself.
        let done = try user.run(["/bin/sh", "-c", "mkdir -p \"$HOME/.config/notif\" && echo '{\"onboardingCompleted\": true}' > \"$HOME/.config/notif/settings.json\""])
        #expect(done.status == 0, "\(done)")
        #expect(try user.run([binary, "--scheduler", "cron", "permission", "grant"]).status == 0)
        let on = try user.run([binary, "--scheduler", "cron", "set", "tips-and-updates", "on"])
        #expect(on.status == 0 && on.stdout.contains("scheduled daily at 09:00 with cron"), "\(on)")
        #expect(try user.crontab().hasPrefix(Self.mine) && ReminderPlaces.of(user).holders == ["cron"])
        return (user, binary)
    }

    func json(_ result: RunResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
    }

    /// The issue's reproduction: `--scheduler cron set tips-and-updates on`, then a plain `notif`
    /// (the page opened and closed), then a plain `status`. A socket where a systemd user
    /// manager listens stands in for one that started since (a desktop login): what auto would
    /// pick on its own is then systemd, whether or not some cron daemon runs on this machine.
    @Test(.hangGuard)
    func aPlainPageRunAfterTheOverrideLeavesTheCronBlockInPlace() throws {
        let sandbox = Sandbox()
        let (user, binary) = try userWithACronEntry("notif-trchrepro", sandbox)
        defer { deleteUser(user) }
        let crontab = try user.crontab()
        let manager = try ListeningSocket(as: user, in: sandbox, at: "systemd/private")
        defer { manager.stop() }
        let plain = user.environment(["XDG_RUNTIME_DIR": manager.runtimeDirectory])
        let before = try json(try user.run([binary, "status", "--json"], plain))
        #expect((before["schedulers"] as? [[String: String]])?.first?["state"] == "ready", "the stand-in manager counts: \(before)")

        let pane = try TmuxPane(notifCommand(env: plain.merging(["TERM": "tmux-256color"]) { _, new in new }, binary: binary, asUser: user.name))
        try pane.waitFor("Next reminder:")
        // The page applies the saved settings once it is up: the scheduler line shows the outcome.
        try pane.waitFor("Scheduler: cron (auto; s changes)")
        try pane.send("q")
        #expect(try pane.finished().status == 0)
        #expect(try user.crontab() == crontab, "the cron block stays")
        #expect(try ReminderPlaces.of(user).holders == ["cron"])

        let status = try user.run([binary, "status"], plain)
        #expect(status.status == 0, "\(status)")
        #expect(row("In sync", in: status.stdout) == "yes", "\(status)")
        #expect(row("Scheduler", in: status.stdout).hasPrefix("cron"), "\(status)")
        #expect(row("Installed", in: status.stdout) == "tips-and-updates", "\(status)")
        #expect(row("Scheduler choice", in: status.stdout) == "auto — cron holds the reminder and can still hold it", "\(status)")
        let document = try json(try user.run([binary, "status", "--json"], plain))
        #expect(document["schedulerChoice"] as? String == "auto" && document["scheduler"] as? String == "cron")
        #expect(document["inSync"] as? Bool == true)
        let apply = try user.run([binary, "apply"], plain)
        #expect(apply.status == 0 && apply.stdout.contains("with cron (unchanged)"), "\(apply)")
        #expect(try user.crontab() == crontab)
    }

    @Test(.hangGuard)
    func savingAChoiceMovesTheReminderAndSaysSoAndAnOverrideStaysAOneOff() throws {
        let sandbox = Sandbox()
        let (user, binary) = try userWithACronEntry("notif-trchsave", sandbox)
        defer { deleteUser(user) }

        let embedded = try user.run([binary, "set", "scheduler", "embedded"])
        #expect(embedded.status == 0, "\(embedded)")
        #expect(embedded.stdout.contains("Scheduler choice: embedded\nMoved the reminder from cron to embedded: you chose embedded.\n"), "\(embedded)")
        #expect(try ReminderPlaces.of(user).holders == ["embedded"])
        #expect(try user.crontab() == Self.mine)
        #expect(user.read(user.settingsPath)?.contains("\"scheduler\": \"embedded\"") == true)
        #expect(user.read(user.stateDir + "/scheduler") == "embedded\nchoice embedded\n")
        var document = try json(try user.run([binary, "status", "--json"]))
        #expect(document["schedulerChoice"] as? String == "embedded" && document["scheduler"] as? String == "embedded")
        let schedulers = document["schedulers"] as? [[String: String]] ?? []
        #expect(schedulers.map { $0["name"] ?? "" } == ["systemd", "cron", "embedded"], "\(document)")
        #expect(schedulers.last?["state"] == "unusable" && schedulers.last?["reason"]?.contains("notif daemon") == true, "\(schedulers)")

        // A one-off override moves the reminder; later plain runs leave it where it went while that
        // scheduler can hold it (systemd's timer files wait for the next login here only when the
        // machine was started with systemd, so this uses the built-in one with its autostart entry).
        #expect(try user.run([binary, "set", "scheduler", "cron"]).stdout.contains("Moved the reminder from embedded to cron: you chose cron."))
        #expect(try user.run([binary, "daemon", "--install-autostart"]).status == 0)
        let once = try user.run([binary, "--scheduler", "embedded", "apply"])
        #expect(once.status == 0 && once.stdout.contains("Moved the reminder from cron to embedded: --scheduler embedded was given for this run."), "\(once)")
        for args in [["apply"], ["status"], ["apply"]] {
            let plain = try user.run([binary] + args)
            #expect(plain.status == 0 && !plain.stdout.contains("Moved"), "\(args): \(plain)")
            #expect(try ReminderPlaces.of(user).holders == ["embedded"], "\(args)")
        }
        #expect(row("Scheduler choice", in: try user.run([binary, "status"]).stdout).hasPrefix("cron — embedded holds the reminder (put there with --scheduler"))
        // Making the choice again brings it back.
        let back = try user.run([binary, "set", "scheduler", "cron"])
        #expect(back.status == 0 && back.stdout.contains("Moved the reminder from embedded to cron: you chose cron."), "\(back)")
        #expect(try ReminderPlaces.of(user).holders == ["cron"] && user.crontab().hasPrefix(Self.mine))

        // auto keeps cron, which can still hold it: nothing moves.
        let auto = try user.run([binary, "set", "scheduler", "auto"])
        #expect(auto.status == 0 && !auto.stdout.contains("Moved") && auto.stdout.contains("with cron (unchanged)"), "\(auto)")
        document = try json(try user.run([binary, "status", "--json"]))
        #expect(document["schedulerChoice"] as? String == "auto" && document["scheduler"] as? String == "cron")

        for (args, says) in [(["set", "scheduler", "anacron"], "'anacron' is not a value for scheduler; use auto, systemd, cron or embedded"),
                             (["--scheduler", "auto", "status"], "`notif set scheduler auto` lets notif pick")] {
            let bad = try user.run([binary] + args)
            #expect(bad.status == 2 && bad.stderr.contains(says), "\(args): \(bad)")
        }
    }

    /// `PATH=/empty notif --scheduler cron set tips-and-updates off` and its kin: no crontab
    /// program, one that fails, one that hangs. Each time the command exits 1 and says the
    /// reminder may still fire and how to stop it, and the crontab still holds the lines.
    @Test(.hangGuard)
    func offIsOnlyReportedWhenTheEntryIsGone() async throws {
        let sandbox = Sandbox()
        let (user, binary) = try userWithACronEntry("notif-trchoff", sandbox)
        defer { deleteUser(user) }
        let withEntry = try user.crontab()
        let fakes = try FakeTools(in: sandbox)
        let mode = sandbox.path + "/crontab-mode"
        try fakes.add("crontab", """
            case "$(cat '\(mode)')" in
              fail) echo "crontab: cannot read crontab: Input/output error" >&2; exit 1 ;;
              hang) exec sleep 3600 ;;
            esac
            exec /usr/bin/crontab "$@"
            """)
        func fault(_ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: mode))
            chmod(mode, 0o644)
        }
        let faulty = ["PATH": fakes.directory + ":/usr/bin:/bin", "NOTIF_SCHEDULER": "cron"]
        let cases: [(what: String, mode: String, env: [String: String], args: [String], says: String)] = [
            ("no crontab on PATH", "", ["PATH": "/empty", "NOTIF_SCHEDULER": "cron"], ["set", "tips-and-updates", "off"],
             "crontab is not installed or not on PATH"),
            ("crontab fails", "fail", faulty, ["permission", "deny"],
             "`crontab -l` failed (exit status 1: crontab: cannot read crontab: Input/output error)"),
            ("crontab hangs", "hang", faulty, ["set", "push-notifications", "off"], "`crontab -l` failed (did not finish in time and was stopped)"),
        ]
        for item in cases {
            try fault(item.mode)
            let env = user.environment(item.env)
            let result = try await runAsync(["/usr/sbin/runuser", "-u", user.name, "--", "/usr/bin/env", "-i"]
                                                + env.keys.sorted().map { "\($0)=\(env[$0]!)" } + [binary] + item.args,
                                            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
            #expect(result.status == 1, "\(item.what): \(result)")
            #expect(result.stdout.contains("Tips & Updates: may still fire: notif could not check or remove its cron entry: \(item.says)"),
                    "\(item.what): \(result)")
            #expect(result.stdout.contains("run `notif apply`, or delete notif's managed block") && result.stdout.contains("`crontab -e`"),
                    "\(item.what): \(result)")
            #expect(!result.stdout.contains("nothing scheduled"), "\(item.what): \(result)")
            #expect(result.stderr.contains("the setting was saved, but a reminder may still fire"), "\(item.what): \(result)")
            #expect(try user.crontab() == withEntry, "\(item.what): the lines are still there")
            let status = try user.run([binary, "status"])
            #expect(row("In sync", in: status.stdout) == "no (tips-and-updates is installed but not planned)", "\(item.what): \(status)")
        }
        // Nothing the hung crontab started is left running.
        #expect(waitUntil(5) { ((try? run(["pgrep", "-f", fakes.directory], environment: ["PATH": "/usr/bin:/bin"]).stdout) ?? "x").isEmpty })
        let healthy = try user.run([binary, "apply"])
        #expect(healthy.status == 0 && healthy.stdout.contains("Tips & Updates: cancelled"), "\(healthy)")
        #expect(try user.crontab() == Self.mine)
    }

    /// `account login` cancels Guest reminders: when it cannot, it says so and exits 1.
    @Test(.hangGuard)
    func aLoginThatCannotCancelTheGuestReminderSaysItMayStillFire() throws {
        let sandbox = Sandbox()
        let (user, binary) = try userWithACronEntry("notif-trchlogin", sandbox)
        defer { deleteUser(user) }
        let withEntry = try user.crontab()
        let fakes = try FakeTools(in: sandbox)
        try fakes.add("crontab", "echo 'crontab: cannot read crontab: Input/output error' >&2; exit 1")
        let server = try AccountServer()
        let login = try user.run([binary, "account", "login", "--server", server.url],
                                 ["PATH": fakes.directory + ":/usr/bin:/bin"], input: "tok-\(UUID().uuidString.prefix(8))\n")
        #expect(login.status == 1, "\(login)")
        #expect(login.stdout.contains("Logged in to \(server.url)") && login.stdout.contains("Device token: registered"), "\(login)")
        #expect(login.stdout.contains("Tips & Updates: may still fire: notif could not check or remove its cron entry: `crontab -l` failed"), "\(login)")
        #expect(!login.stdout.contains("No Guest reminders were scheduled"), "\(login)")
        #expect(login.stderr.contains("logged in, but a Guest reminder may still fire"), "\(login)")
        #expect(try user.crontab() == withEntry)
        let apply = try user.run([binary, "apply"])
        #expect(apply.status == 0 && apply.stdout.contains("cancelled"), "\(apply)")
        #expect(try user.crontab() == Self.mine)
    }

    /// The page: turning the reminder off with a failing crontab says it may still fire; the
    /// chooser (`s`) moves the reminder and the page says so.
    @Test(.hangGuard)
    func thePageSaysWhenAReminderMayStillFireAndItsChooserMovesTheReminder() throws {
        let sandbox = Sandbox()
        let (user, binary) = try userWithACronEntry("notif-trchpage", sandbox)
        defer { deleteUser(user) }
        let withEntry = try user.crontab()
        let fakes = try FakeTools(in: sandbox)
        try fakes.add("crontab", "echo 'crontab: cannot read crontab: Input/output error' >&2; exit 1")

        let failing = try TmuxPane(notifCommand(env: user.environment(["TERM": "tmux-256color", "PATH": fakes.directory + ":/usr/bin:/bin"]),
                                                binary: binary, asUser: user.name), width: 100, height: 30)
        try failing.waitFor("Next reminder:")
        try failing.send("Down", "Space")
        try failing.waitFor("Tips & Updates may still fire: notif could not check or remove its cron entry")
        let screen = try failing.waitFor("(r retries)")
        #expect(!screen.contains("Not scheduled"), "\(screen)")
        try failing.send("q")
        #expect(try failing.finished().status == 0)
        #expect(try user.crontab() == withEntry)
        #expect(try user.run([binary, "set", "tips-and-updates", "on"]).status == 0)

        let pane = try TmuxPane(notifCommand(env: user.environment(["TERM": "tmux-256color"]), binary: binary, asUser: user.name))
        try pane.waitFor("Scheduler: cron (auto; s changes)")
        try pane.send("s")
        try pane.waitFor("notif picks")
        try pane.waitFor("Cron holds the reminder")
        try pane.send("Down", "Down", "Down", "Enter")
        try pane.waitFor("Moved the reminder from cron to embedded: you chose embedded.")
        try pane.waitFor("Scheduler: embedded (chosen; s changes)")
        try pane.send("q")
        #expect(try pane.finished().status == 0)
        #expect(try ReminderPlaces.of(user).holders == ["embedded"] && user.crontab() == Self.mine)
        #expect(user.read(user.settingsPath)?.contains("\"scheduler\": \"embedded\"") == true)
    }

    /// The trial's case: `auto`, cron holding the entry, and `crontab` missing from PATH while a
    /// cron daemon runs (one started here, so detection sees one). notif can neither read nor
    /// remove its lines, and the daemon still runs them: the reminder stays with cron, apply
    /// says why and how to fix it and exits 1, and no second entry appears elsewhere.
    @Test(.hangGuard)
    func aMissingCrontabDoesNotMoveTheReminderOffARunningCron() throws {
        let sandbox = Sandbox()
        let (user, binary) = try userWithACronEntry("notif-trchnotab", sandbox)
        defer { deleteUser(user) }
        let crontab = try user.crontab()
        let system = try ZonedSystem(zone: "Etc/UTC")
        try system.startCron(bootJobs: false)
        #expect(try user.run([binary, "set", "scheduler", "auto"]).status == 0)
        let noCrontab = ["PATH": sandbox.path + "/empty"]
        for command in [["apply"], ["set", "tips-and-updates", "on"]] {
            let result = try user.run([binary] + command, noCrontab)
            #expect(result.status == 1, "\(command): \(result)")
            #expect(result.stderr.contains("the reminder stays with cron, where it may still fire, but notif cannot use crontab to check or change its entry: crontab is not installed"),
                    "\(command): \(result)")
            #expect(result.stderr.contains("make crontab usable and run `notif apply`"), "\(command): \(result)")
            #expect(!result.stdout.contains("with embedded") && !result.stdout.contains("Moved"), "\(command): \(result)")
            #expect(try ReminderPlaces.of(user).holders == ["cron"], "\(command): \(result)")
            #expect(try user.crontab() == crontab)
        }
        let status = try user.run([binary, "status"], noCrontab)
        #expect(row("Scheduler", in: status.stdout).hasPrefix("cron"), "\(status)")
        #expect(row("Scheduler choice", in: status.stdout).hasPrefix("auto — cron holds the reminder and its daemon still runs it"), "\(status)")
        // crontab back on PATH: all is as it was.
        let apply = try user.run([binary, "apply"])
        #expect(apply.status == 0 && apply.stdout.contains("with cron (unchanged)"), "\(apply)")
        withExtendedLifetime(system) {}
    }

    /// The chooser looks at the schedulers when it opens, not when the page did: a systemd user
    /// manager that starts while the page is open (a socket that answers, in the page's
    /// XDG_RUNTIME_DIR) shows as usable at the next `s`. With `NOTIF_SCHEDULER` the chooser says
    /// which scheduler this run uses and that it is a one-off, and that one's usability as measured.
    @Test(.hangGuard)
    func theChooserLooksAgainWhenItOpensAndTellsTheOverride() throws {
        let sandbox = Sandbox()
        let (user, binary) = try userWithACronEntry("notif-trchlook", sandbox)
        defer { deleteUser(user) }
        let runtime = sandbox.path + "/runtime-" + user.name   // where ListeningSocket listens, not there yet
        let env = user.environment(["TERM": "tmux-256color", "XDG_RUNTIME_DIR": runtime, "NOTIF_SCHEDULER": "embedded"])
        let pane = try TmuxPane(notifCommand(env: env, binary: binary, asUser: user.name), width: 90, height: 30)
        try pane.waitFor("Scheduler: embedded (NOTIF_SCHEDULER; s changes)")
        try pane.send("s")
        try pane.waitFor("embedded  in use for this run, cannot fire")
        try pane.waitFor("This run uses embedded: NOTIF_SCHEDULER chose it")
        try pane.waitFor("nothing is saved.")
        let before = try pane.capture()
        #expect(!before.contains("systemd   usable   "), "\(before)")
        try pane.send("Escape")
        try pane.waitForAbsence("This run uses embedded")
        let manager = try ListeningSocket(as: user, in: sandbox, at: "systemd/private")
        defer { manager.stop() }
        #expect(manager.runtimeDirectory == runtime)
        try pane.send("s")
        try pane.waitFor("systemd   usable   ")
        try pane.waitFor("embedded  in use for this run, cannot fire")
        try pane.send("Escape")
        try pane.waitForAbsence("This run uses embedded")
        try pane.send("q")
        #expect(try pane.finished().status == 0)
    }
}
