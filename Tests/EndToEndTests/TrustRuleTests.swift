import Foundation
import Testing
import TestSupport

/// The trust rule (doc/security.md): what an entry names, and what the Settings button runs,
/// must be where only the user or root can change it. Each test reproduces an attack by another
/// throwaway user that worked on an earlier build (issue 22).
@Suite(.serialized, .enabled(if: isRoot, "needs root for throwaway users")) struct TrustRuleTests {
    /// A directory right under /tmp (sticky, world-writable), made by `user` (root when nil).
    final class TmpDirectory {
        let path: String
        init(_ user: TestUser?, mode: String = "755") throws {
            path = "/tmp/notif-ttrust-" + UUID().uuidString.prefix(8).lowercased()
            let made = try user.map { try $0.run(["mkdir", "-m", mode, path]) }
                ?? run(["mkdir", "-m", mode, path], environment: ["PATH": "/usr/bin:/bin"])
            try made.expectSuccess()
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    func unitFiles(_ user: TestUser) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: user.home + "/.config/systemd/user")) ?? []).filter { $0.hasPrefix("notif-") }
    }

    /// Finding 1: A ran notif from /tmp/x; once /tmp/x was gone, B made /tmp/x/notif a script of
    /// theirs, and cron ran it as A every day. Now no entry names a program, or carries a place,
    /// that another user could replace; the build folder and the user's own copy pass.
    @Test(.hangGuard)
    func nothingIsScheduledForAProgramOrAPlaceAnotherUserCouldReplace() throws {
        let a = try TestUser.make("notif-trtrust-a")
        let b = try TestUser.make("notif-trtrust-b")
        defer { deleteUser(a); deleteUser(b) }
        let sandbox = Sandbox()
        let trusted = try NotifBinary.releaseCopy(in: sandbox, directory: "bin")
        let tmp = try TmpDirectory(a)
        let planted = tmp.path + "/notif"
        try a.run(["cp", trusted, planted]).expectSuccess()
        let env = ["TZ": "Europe/Berlin"]
        #expect(try a.run([planted, "permission", "grant"], env).status == 0, "nothing planned: nothing to refuse")
        for scheduler in ["cron", "systemd", "embedded"] {
            let set = try a.run([planted, "--scheduler", scheduler, "set", "tips-and-updates", "on"], env)
            #expect(set.status == 1 && set.stderr.contains("the setting was saved, but"), "\(scheduler): \(set)")
            // No advice that cannot work: a retry, or an autostart entry (refused the same way).
            #expect(!set.stderr.contains("retries") && !set.stderr.contains("--install-autostart"), "\(scheduler): \(set)")
            #expect(set.stdout.contains("notif's program \(planted) is in a place other users can change (/tmp may be written by every user, mode 1777")
                    && set.stdout.contains("install notif (`make install`, or the Debian package)"), "\(scheduler): \(set)")
        }
        // status warns of the program alone (its table of schedulers still says what each needs),
        // and claims no entries that were never installed.
        let status = try a.run([planted, "status"], env)
        #expect(!status.stderr.contains("--install-autostart") && !(status.stdout + status.stderr).contains("entries were last installed"),
                "\(status)")
        let autostart = try a.run([planted, "daemon", "--install-autostart"], env)
        #expect(autostart.status == 1 && autostart.stderr.contains("is in a place other users can change"), "\(autostart)")
        #expect(try a.crontab().isEmpty, "a crontab line names \(planted)")
        #expect(unitFiles(a).isEmpty && !FileManager.default.fileExists(atPath: a.home + "/.config/autostart/notif-daemon.desktop"))
        #expect(a.read(a.stateDir + "/configurations") == nil, "a configuration that got no entries is not listed")

        // A place an entry would carry, under /tmp: refused the same way.
        let carried = try a.run([trusted, "--scheduler", "cron", "apply"], env.merging(["XDG_STATE_HOME": tmp.path + "/state"]) { $1 })
        #expect(carried.status == 1 && carried.stdout.contains("the state directory \(tmp.path)/state is in a place other users can change"), "\(carried)")
        #expect(try a.crontab().isEmpty)
        // A zone file under /tmp, named by TZ: whoever replaces it chooses the reminder's hour.
        try a.run(["cp", "/usr/share/zoneinfo/Europe/Berlin", tmp.path + "/zone"]).expectSuccess()
        for tz in [tmp.path + "/zone", ":" + tmp.path + "/zone"] {
            let zoned = try a.run([trusted, "--scheduler", "cron", "apply"], ["TZ": tz])
            #expect(zoned.status == 1 && zoned.stdout.contains("TZ names the zone file \(tmp.path)/zone, which is in a place other users can change"), "\(zoned)")
            #expect(try a.crontab().isEmpty)
        }

        // Where only root or A can change it: root's copy, A's own copy, the build folder itself.
        let own = a.home + "/bin/notif"
        try a.run(["sh", "-c", "mkdir -p \"${0%/*}\" && cp \"$1\" \"$0\"", own, trusted]).expectSuccess()
        var programs = [trusted, own]
        let release = try NotifBinary.release()
        if try a.run(["test", "-x", release]).status == 0 { programs.append(release) }
        for program in programs {
            let apply = try a.run([program, "--scheduler", "cron", "apply"], env)
            #expect(apply.status == 0, "\(program): \(apply)")
            let crontab = try a.crontab()
            #expect(crontab.contains(program + " deliver"), "\(program): \(crontab)")
        }
        // Refused for the zone file only: the working entry of a trusted program stays, and no
        // word blames the program.
        try a.run([trusted, "--scheduler", "cron", "apply"], env).expectSuccess()
        let zoneOnly = try a.run([trusted, "--scheduler", "cron", "apply"], ["TZ": tmp.path + "/zone"])
        #expect(zoneOnly.status == 1 && !zoneOnly.stderr.contains("which others can now change"), "\(zoneOnly)")
        #expect(try a.crontab().contains(trusted + " deliver"), "a working entry was removed for a zone file")

        // The trial's finding: A's own copy wrote the lines; then A's bin directory became one
        // others may write. The refused apply removes the lines that run it, and says so once.
        try a.run([own, "--scheduler", "cron", "apply"], env).expectSuccess()
        #expect(try a.crontab().contains(own + " deliver"))
        try a.run(["chmod", "777", a.home + "/bin"]).expectSuccess()
        let refused = try a.run([own, "--scheduler", "cron", "apply"], env)
        #expect(refused.status == 1 && refused.stdout.contains("notif's program \(own) is in a place other users can change")
                && !refused.stdout.contains("nothing was scheduled: notif's program"), "\(refused)")
        #expect(refused.stderr.contains("removed the cron entry of tips-and-updates: it ran \(own), which others can now change"), "\(refused)")
        #expect(try !a.crontab().contains(own), "the lines that run \(own) stayed")
    }

    /// Finding 1, the other half: an entry an earlier build wrote for /tmp/x/notif, or carrying a
    /// HOME under /tmp, does nothing when it runs, and says why where that is safe to write.
    @Test(.hangGuard)
    func aScheduledRunWhoseProgramOrPlacesNoLongerPassDoesNothingAndSaysWhy() throws {
        let a = try TestUser.make("notif-trtrust-run")
        defer { deleteUser(a) }
        let sandbox = Sandbox()
        let trusted = try NotifBinary.releaseCopy(in: sandbox, directory: "bin")
        let tmp = try TmpDirectory(a)
        let planted = tmp.path + "/notif"
        try a.run(["cp", trusted, planted]).expectSuccess()
        let service = try FakeNotificationService(config: [:], user: a)
        let env = ["TZ": ZoneShift.whereItIs(9, 5), "DBUS_SESSION_BUS_ADDRESS": service.busAddress, "NOTIF_SCHEDULER": "cron"]
        #expect(try a.run([trusted, "permission", "grant"], env).status == 0)
        #expect(try a.run([trusted, "set", "tips-and-updates", "on"], env).status == 0)
        try a.entriesFromYesterday()
        let log = a.stateDir + "/deliveries.jsonl"

        // What cron would run from a line an earlier build wrote.
        let job = try a.run([planted, "deliver", "--quiet", "tips-and-updates"], env)
        #expect(job.status == 1 && job.stdout.isEmpty && job.stderr.isEmpty, "\(job)")
        #expect(service.notifications().isEmpty, "a program in /tmp showed the reminder")
        let refused = SecurityTests.lastRecord(log)
        #expect(refused?["outcome"] as? String == "failed" && refused?["reminder"] as? String == "tips-and-updates", "\(String(describing: refused))")
        #expect((refused?["detail"] as? String)?.hasPrefix("this run did nothing: notif's program \(planted) is in a place other users can change") == true,
                "\(String(describing: refused))")

        // A carried HOME under /tmp (still A's: nobody took it yet): nothing read there, the refusal in A's own log.
        let home = tmp.path + "/home"
        try a.run(["mkdir", home]).expectSuccess()
        let carried = try a.run([trusted, "deliver", "--quiet", "tips-and-updates"], env.merging(["HOME": home]) { $1 })
        #expect(carried.status == 1 && service.notifications().isEmpty, "\(carried)")
        #expect((SecurityTests.lastRecord(log)?["detail"] as? String)?.contains("HOME \(home) is in a place other users can change") == true,
                "\(String(describing: a.read(log)))")
        #expect(try a.run(["find", home, "-mindepth", "1"]).stdout.isEmpty, "the run wrote under the carried HOME")

        // A carried HOME that is gone, made again by another user: refused, and said in A's own log.
        let b = try TestUser.make("notif-trtrust-run-b")
        defer { deleteUser(b) }
        let taken = a.home + "/alt"
        try run(["sh", "-c", "mkdir \"$0\" && chown \"$1\" \"$0\"", taken, b.name], environment: ["PATH": "/usr/bin:/bin"]).expectSuccess()
        let theirs = try a.run([trusted, "deliver", "--quiet", "tips-and-updates"], env.merging(["HOME": taken]) { $1 })
        #expect(theirs.status == 1 && theirs.stdout.isEmpty && theirs.stderr.isEmpty && service.notifications().isEmpty, "\(theirs)")
        #expect((SecurityTests.lastRecord(log)?["detail"] as? String)?.hasPrefix("this run did nothing: HOME \(taken) belongs to \(b.name)") == true,
                "\(String(describing: a.read(log)))")

        // The trusted program in A's places delivers.
        let fine = try a.run([trusted, "deliver", "tips-and-updates"], env)
        #expect(fine.status == 0 && service.notifications().count == 1, "\(fine)")
    }

    /// Finding 2: with A's notif in a shared directory, B wrote `share/applications/notif.desktop`
    /// (and an icon) beside it; A's reminder showed B's icon, and Settings ran B's command as A
    /// through `gio launch`. Now both come only from places that pass the rule.
    @Test(.hangGuard)
    func theSettingsButtonRunsNoDesktopEntryAndShowsNoIconAnotherUserWrote() throws {
        let a = try TestUser.make("notif-trtrust-entry-a")
        let b = try TestUser.make("notif-trtrust-entry-b")
        defer { deleteUser(a); deleteUser(b) }
        let sandbox = Sandbox()
        let trusted = try NotifBinary.releaseCopy(in: sandbox, directory: "bin")
        let shared = try TmpDirectory(nil, mode: "1777")
        try a.run(["mkdir", shared.path + "/bin"]).expectSuccess()
        let program = shared.path + "/bin/notif"
        try a.run(["cp", trusted, program]).expectSuccess()
        let pwned = shared.path + "/pwned"
        let entry = shared.path + "/share/applications/notif.desktop", icon = shared.path + "/share/icons/hicolor/scalable/apps/notif.svg"
        try b.run(["sh", "-c", "mkdir -p \"${0%/*}\" \"${1%/*}\" && printf '[Desktop Entry]\\nType=Application\\nName=notif\\nExec=sh -c \"id -un > %s\"\\n' \"$2\" > \"$0\" && echo '<svg/>' > \"$1\"",
                       entry, icon, pwned]).expectSuccess()

        let record = sandbox.path + "/launched"
        try FileManager.default.createDirectory(atPath: record, withIntermediateDirectories: true)
        chmod(record, 0o777)
        let fakes = try FakeTools(in: sandbox)
        try fakes.add("x-terminal-emulator", "exit 1")
        // gio as it is asked: what it was told to launch, then the entry's command as gio would run it.
        try fakes.add("gio", "printf '%s\\n' \"$@\" > '\(record)/gio'; exec sh -c \"$(sed -n 's/^Exec=//p' \"$2\")\"")
        let service = try FakeNotificationService(config: ["invoke": "settings", "invoke_after": 0.2], user: a)
        let display = try XServer(a)
        let env = ["DBUS_SESSION_BUS_ADDRESS": service.busAddress, "DISPLAY": display.display, "PATH": fakes.path, "XDG_DATA_DIRS": "/nonexistent",
                   "TZ": ZoneShift.whereItIs(9, 5)]
        try a.reminderDueToday(trusted, env)
        let waiter = [program, DetachedActionWaiterName.command, "tips-and-updates", "--show-within", "5000", "--wait-at-most", "20"]
        #expect(try a.run(waiter, env).stdout.hasPrefix("shown "))
        #expect(waitUntil(10) { service.notifications().count == 2 }, "no word that Settings could not open: \(service.notifications())")
        #expect(service.notifications().first?["icon"] as? String == "", "B's icon was shown: \(service.notifications())")
        #expect(!FileManager.default.fileExists(atPath: pwned), "B's command ran as A")
        #expect(!FileManager.default.fileExists(atPath: record + "/gio"), "gio launched \(String(describing: try? String(contentsOfFile: record + "/gio", encoding: .utf8)))")
        // B's entry is named as passed over, with why.
        #expect((service.notifications().last?["body"] as? String)?.contains("no notif.desktop notif may use for `gio launch`: ") == true
                && (service.notifications().last?["body"] as? String)?.contains("/notif.desktop is not used: ") == true, "\(service.notifications())")

        // A's own entry, in A's data directory, is launched.
        let mine = a.home + "/.local/share/applications/notif.desktop"
        try a.run(["sh", "-c", "mkdir -p \"${0%/*}\" && printf '[Desktop Entry]\\nExec=true\\n' > \"$0\"", mine]).expectSuccess()
        try a.notSentToday()
        #expect(try a.run(waiter, env).stdout.hasPrefix("shown "))
        #expect(waitUntil(10) { (try? String(contentsOfFile: record + "/gio", encoding: .utf8)) == "launch\n\(mine)\n" },
                "\(String(describing: try? String(contentsOfFile: record + "/gio", encoding: .utf8)))")
    }

    /// Finding 5: session.env held `DISPLAY=:577` from an earlier session; B started an X server
    /// on :577, and Settings opened A's terminal on B's display. Now a recorded display is used
    /// only when A (or root) serves it, and one over the network never.
    @Test(.hangGuard)
    func aRecordedDisplayAnotherUserServesIsNeverUsed() throws {
        let a = try TestUser.make("notif-trtrust-disp-a")
        let b = try TestUser.make("notif-trtrust-disp-b")
        defer { deleteUser(a); deleteUser(b) }
        let sandbox = Sandbox()
        let program = try NotifBinary.releaseCopy(in: sandbox, directory: "bin")
        let record = sandbox.path + "/launched"
        try FileManager.default.createDirectory(atPath: record, withIntermediateDirectories: true)
        chmod(record, 0o777)
        let fakes = try FakeTools(in: sandbox)
        try fakes.add("x-terminal-emulator", "echo \"DISPLAY=$DISPLAY\" > '\(record)/terminal'")
        let service = try FakeNotificationService(config: ["invoke": "settings", "invoke_after": 0.2], user: a)
        let env = ["DBUS_SESSION_BUS_ADDRESS": service.busAddress, "PATH": fakes.path, "XDG_DATA_DIRS": "/nonexistent"]
        let waiter = [program, DetachedActionWaiterName.command, "tips-and-updates", "--show-within", "5000", "--wait-at-most", "20"]
        func press(recorded display: String) throws -> String? {
            unlink(record + "/terminal")
            try a.run(["sh", "-c", "mkdir -p \"${0%/*}\" && printf 'DISPLAY=%s\\n' \"$1\" > \"$0\"", a.stateDir + "/session.env", display]).expectSuccess()
            let before = service.notifications().count
            #expect(try a.run(waiter, env).stdout.hasPrefix("shown "))
            _ = waitUntil(10) { FileManager.default.fileExists(atPath: record + "/terminal") || service.notifications().count == before + 2 }
            return try? String(contentsOfFile: record + "/terminal", encoding: .utf8)
        }
        let theirs = try XServer(b)
        #expect(try press(recorded: theirs.display) == nil, "A's terminal opened on B's display")
        #expect((service.notifications().last?["body"] as? String)?.contains("the recorded DISPLAY=\(theirs.display) is not used: it is served by another user (uid \(b.uid))") == true,
                "\(service.notifications())")
        #expect(try press(recorded: "localhost" + theirs.display) == nil, "a display over the network was taken from the record")
        #expect((service.notifications().last?["body"] as? String)?.contains("notif never uses one over the network") == true, "\(service.notifications())")
        let mine = try XServer(a)
        #expect(try press(recorded: mine.display) == "DISPLAY=\(mine.display)\n", "A's own display was not used")
        withExtendedLifetime(theirs) {}
    }

    /// Finding 6: SIGKILL during `notif set` left `.settings.json.tmp-PID-RANDOM` files that
    /// nothing removed. The next write removes the user's own stale ones (their process is gone).
    @Test(.hangGuard)
    func tempFilesAKilledWriterLeftGoWithTheNextWrite() throws {
        let a = try TestUser.make("notif-trtrust-temp-a")
        let b = try TestUser.make("notif-trtrust-temp-b")
        defer { deleteUser(a); deleteUser(b) }
        let sandbox = Sandbox()
        let program = try NotifBinary.releaseCopy(in: sandbox, directory: "bin")
        let env = ["NOTIF_SCHEDULER": "embedded"]
        #expect(try a.run([program, "set", "promotions", "on"], env).status == 0)
        let config = a.home + "/.config/notif"
        // A writer that was killed: its process is gone.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let dead = gone.processIdentifier
        // One whose writer still runs (this test process, as far as its pid goes).
        let stale = "\(config)/.settings.json.tmp-\(dead)-1234", live = "\(config)/.settings.json.tmp-\(getpid())-1", foreign = "\(config)/.settings.json.tmp-\(dead)-77"
        for file in [stale, live] { try a.run(["sh", "-c", "echo '{' > \"$0\"", file]).expectSuccess() }
        try run(["sh", "-c", "echo '{' > \"$0\" && chown \"$1\" \"$0\"", foreign, b.name], environment: ["PATH": "/usr/bin:/bin"]).expectSuccess()
        #expect(try a.run([program, "set", "promotions", "off"], env).status == 0)
        #expect(!FileManager.default.fileExists(atPath: stale), "a killed writer's temp file stayed")
        #expect(FileManager.default.fileExists(atPath: live), "a running writer's temp file was removed")
        #expect(FileManager.default.fileExists(atPath: foreign), "another user's file was removed")
        #expect(a.read(a.settingsPath)?.contains("\"promotions\": false") == true)
    }
}
