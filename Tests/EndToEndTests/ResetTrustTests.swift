import Foundation
import LinuxGateway
import Testing
import TestSupport

/// `notif reset --entries` acts only on what the user's own, trusted files lead it to (issue 22,
/// findings 3 and 4): each test reproduces how another throwaway user steered an earlier build.
@Suite(.serialized, .enabled(if: isRoot, "needs root for throwaway users")) struct ResetTrustTests {
    /// A `systemctl` that only records what it was asked (and with which `XDG_CONFIG_HOME`).
    func recordingSystemctl(_ sandbox: Sandbox) throws -> (fakes: FakeTools, log: String) {
        let fakes = try FakeTools(in: sandbox)
        let log = sandbox.path + "/systemctl-calls"
        _ = FileManager.default.createFile(atPath: log, contents: Data())
        chmod(log, 0o666)
        try fakes.add("systemctl", "echo \"XDG_CONFIG_HOME=$XDG_CONFIG_HOME $*\" >> '\(log)'")
        return (fakes, log)
    }

    func unitFiles(_ home: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: home + "/.config/systemd/user")) ?? []).filter { $0.hasPrefix("notif-") }.sorted()
    }

    /// Places under /tmp (a directory of one's own in a folder every user may write) fail the
    /// trust rule, so apply writes no entry there (trial 37): reset skips them and says why,
    /// succeeds, and does not promise that `notif apply` schedules the reminders again.
    @Test func placesUnderTmpAreSkippedWithoutAPromise() throws {
        let sandbox = Sandbox()
        let own = "/tmp/notif-reset-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: own) }
        let places = ["XDG_CONFIG_HOME": own + "/config", "XDG_STATE_HOME": own + "/state", "NOTIF_SCHEDULER": "embedded"]
        #expect(try sandbox.notif(["permission", "allow"], places).status == 0)
        let on = try sandbox.notif(["set", "tips-and-updates", "on"], places)
        #expect(on.status == 1 && on.stdout.contains("NOT scheduled"), "\(on)")
        let reset = try sandbox.notif(["reset", "--entries"], places)
        #expect(reset.status == 0, "\(reset)")
        #expect(reset.stdout.contains("skipped \(own)/state, since /tmp may be written by every user"), "\(reset)")
        #expect(reset.stdout.contains("Your settings are kept.\n") && !reset.stdout.contains("`notif apply` schedules"), "\(reset)")
    }

    /// Finding 3: B left `su` waiting at its password prompt with HOME and XDG_* naming A's
    /// directories and a daemon lock B holds; `su` keeps euid 0, so root's reset took it for a
    /// daemon of root's and removed A's units and enable link. A daemon of the caller has the
    /// caller's real and effective uid and runs a notif program.
    @Test(.hangGuard)
    func rootsResetIsNotSteeredByAnotherUsersSetuidProcess() throws {
        let a = try TestUser.make("notif-trreset-su-a")
        let b = try TestUser.make("notif-trreset-su-b")
        defer { deleteUser(a); deleteUser(b) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox, directory: "bin")
        let env = ["TZ": "Europe/Berlin", "NOTIF_SCHEDULER": "systemd"]
        #expect(try a.run([binary, "permission", "grant"], env).status == 0)
        let set = try a.run([binary, "set", "tips-and-updates", "on"], env)
        #expect(set.status == 0, "\(set)")
        let units = unitFiles(a.home)
        #expect(units.count == 2, "\(units)")
        let link = a.home + "/.config/systemd/user/timers.target.wants/" + a.timerName
        #expect(FileManager.default.fileExists(atPath: link))

        // B's lock, held, in a state directory of B's; B's su, waiting for a password, with A's places.
        let lockDirectory = "/tmp/notif-treset-" + UUID().uuidString.prefix(8).lowercased()
        defer { try? FileManager.default.removeItem(atPath: lockDirectory) }
        try b.run(["mkdir", "-p", lockDirectory + "/notif"]).expectSuccess()
        // B's processes and root's reset share a process namespace of their own: root's reset
        // looks for root's running daemons in /proc, and must see B's su there, but not the
        // daemons other tests run as root meanwhile (it would rightly reset their entries).
        let namespace = try BackgroundProcess(["/usr/bin/unshare", "--pid", "--fork", "--mount", "--mount-proc", "sleep", "300"],
                                              environment: ["PATH": "/usr/bin:/bin"], output: "/dev/null")
        var inner = ""
        #expect(waitUntil(10) {
            inner = (try? String(contentsOfFile: "/proc/\(namespace.pid)/task/\(namespace.pid)/children", encoding: .utf8))?
                .split(separator: " ").first.map(String.init) ?? ""
            return !inner.isEmpty
        })
        let enter = ["/usr/bin/nsenter", "-t", inner, "-p", "-m", "--"]
        let lock = try BackgroundProcess(enter + ["/usr/sbin/runuser", "-u", b.name, "--", "flock", lockDirectory + "/notif/daemon.lock", "sleep", "120"],
                                         environment: ["PATH": "/usr/bin:/bin"], output: "/dev/null")
        let places = "HOME=\(a.home) XDG_CONFIG_HOME=\(a.home)/.config XDG_STATE_HOME=\(lockDirectory)"
        let pane = try TmuxPane(enter.joined(separator: " ") + " /usr/sbin/runuser -u \(b.name) -- env -i PATH=/usr/bin:/bin \(places) su daemon")
        #expect(waitUntil(10) { (try? pane.capture())?.contains("Password:") == true }, "su is not waiting: \(String(describing: try? pane.capture()))")
        #expect(waitUntil(10) { (try? run(["flock", "-n", "-s", lockDirectory + "/notif/daemon.lock", "true"], environment: ["PATH": "/usr/bin:/bin"]))?.status == 1 },
                "B does not hold the lock")

        // Root's reset, in a mount namespace of its own with an empty /root (nothing of root's is touched).
        let (fakes, calls) = try recordingSystemctl(sandbox)
        try fakes.add("crontab", "echo 'no crontab for root' >&2; exit 1")
        let reset = try run(enter + ["unshare", "-m", "sh", "-c", "mount -t tmpfs none /root && exec \"$@\"", "sh", binary, "reset", "--entries"],
                            environment: sandbox.environment(["PATH": fakes.path]))
        #expect(reset.status == 0, "\(reset)")
        #expect(!reset.stdout.contains(a.home) && !reset.stdout.contains(lockDirectory), "\(reset)")
        #expect(unitFiles(a.home) == units, "root's reset removed A's units")
        #expect(FileManager.default.fileExists(atPath: link), "root's reset removed A's enable link")
        #expect(!(String(data: fileBytes(calls) ?? Data(), encoding: .utf8) ?? "").contains(a.tag), "systemctl was run for A's units")
        withExtendedLifetime((pane, lock, namespace)) {}
    }

    /// Finding 4: a carried HOME (/tmp/x) that A's directory no longer held, made again by B
    /// (mode 777) with a notif-looking unit naming A's ~/Documents, made A's reset delete
    /// files notif never wrote there and run `systemctl --user disable` in B's directory. Now
    /// reset skips and names such places, reads only A's own unit files, deletes only A's own
    /// regular files, and removes an enable entry only when it is a link to notif's unit.
    @Test(.hangGuard)
    func resetFollowsNothingAnotherUserControlsAndDeletesNothingNotifDidNotWrite() throws {
        let a = try TestUser.make("notif-trreset-place-a")
        let b = try TestUser.make("notif-trreset-place-b")
        defer { deleteUser(a); deleteUser(b) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox, directory: "bin")
        let gone = "/tmp/notif-treset-" + UUID().uuidString.prefix(8).lowercased()
        defer { try? FileManager.default.removeItem(atPath: gone) }
        // What an earlier build listed for A's run with HOME=/tmp/x.
        let tag = ConfigurationID(settingsPath: gone + "/.config/notif/settings.json", isDefault: false).tag
        let record = "{\"settings\":\"\(gone)/.config/notif/settings.json\",\"tag\":\"\(tag)\",\"home\":\"\(gone)\",\"configHome\":\"\(gone)/.config\",\"stateHome\":\"\(gone)/.local/state\"}"
        try a.run(["sh", "-c", "mkdir -p \"${0%/*}\" && printf '%s\\n' \"$1\" > \"$0\" && chmod 600 \"$0\"", a.stateDir + "/configurations", record]).expectSuccess()

        // B's /tmp/x: a unit with notif's marker, naming places in A's home.
        let documents = a.home + "/Documents"
        func unit(_ places: String) -> String {
            "\(SystemdUnits.marker)\n[Service]\nType=oneshot\nExecStart=/usr/bin/env \(places) /usr/bin/notif deliver --quiet tips-and-updates\n"
        }
        let bUnit = gone + "/.config/systemd/user/notif-tips-and-updates-\(tag).service"
        try b.run(["sh", "-c", "mkdir -p \"${0%/*}\" && printf '%s' \"$1\" > \"$0\" && printf '%s' \"$2\" > \"${0%.service}.timer\" && chmod -R 777 \"$3\"",
                   bUnit, unit("HOME=\(documents) XDG_STATE_HOME=\(documents)"), SystemdUnits.marker + "\n[Timer]\n", gone]).expectSuccess()
        // A's own files, none written by notif, named like notif's.
        let wantsName = "timers.target.wants/notif-tips-and-updates-\(tag).timer"
        let aFiles = [documents + "/notif/session.env", documents + "/notif/scheduler", documents + "/.config/systemd/user/" + wantsName]
        for file in aFiles { try a.run(["sh", "-c", "mkdir -p \"${0%/*}\" && echo mine > \"$0\"", file]).expectSuccess() }
        // In A's own unit directory: a unit file of B's (root put it there) naming another place of
        // A's, and a regular file where an enable link would be.
        let elsewhere = a.home + "/Elsewhere"
        let foreignUnit = a.home + "/.config/systemd/user/notif-tips-and-updates-0badf00d.service"
        let regularWants = a.home + "/.config/systemd/user/timers.target.wants/notif-tips-and-updates-0badf00d.timer"
        try a.run(["sh", "-c", "mkdir -p \"${0%/*}\" \"${1%/*}\" \"$2/notif\" && echo mine > \"$1\" && echo mine > \"$2/notif/scheduler\"",
                   foreignUnit, regularWants, elsewhere]).expectSuccess()
        try run(["sh", "-c", "printf '%s' \"$1\" > \"$0\" && chown \"$2\" \"$0\"", foreignUnit, unit("XDG_STATE_HOME=\(elsewhere)"), b.name],
                environment: ["PATH": "/usr/bin:/bin"]).expectSuccess()

        let (fakes, calls) = try recordingSystemctl(sandbox)
        let reset = try a.run([binary, "reset", "--entries"], ["TZ": "Europe/Berlin", "PATH": fakes.path])
        #expect(reset.status == 0, "\(reset)")
        #expect(reset.stdout.contains("skipped \(gone), since /tmp may be written by every user, mode 1777") || reset.stdout.contains("skipped \(gone), since \(gone)"),
                "the place B controls is not named: \(reset.stdout)")
        // Not a failure, and said why: apply keeps to the same rule, so no entry of notif's is there.
        #expect(reset.stdout.contains("notif writes no entry where another user can change it, so it looks for no entry there"), "\(reset.stdout)")
        for file in aFiles + [regularWants, elsewhere + "/notif/scheduler"] {
            #expect(a.read(file) == "mine\n", "reset removed \(file), which notif did not write:\n\(reset.stdout)")
        }
        #expect(FileManager.default.fileExists(atPath: foreignUnit) && FileManager.default.fileExists(atPath: bUnit))
        let systemctl = String(data: fileBytes(calls) ?? Data(), encoding: .utf8) ?? ""
        #expect(!systemctl.contains(gone) && !systemctl.contains(tag) && !systemctl.contains("0badf00d"), "systemctl was run: \(systemctl)")
        // The record is gone with the reset; the next one finds nothing to name.
        let again = try a.run([binary, "reset", "--entries"], ["TZ": "Europe/Berlin", "PATH": fakes.path])
        #expect(again.status == 0 && !again.stdout.contains(gone), "\(again)")
    }
}
