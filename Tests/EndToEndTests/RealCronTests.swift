import Foundation
import Testing
import TestSupport

/// notif against the real `crontab` of throwaway users.
@Suite(.enabled(if: isRoot, "needs root for throwaway users"))
struct RealCrontabTests {
    @Test func repeatedAppliesKeepOneEntryAndOnOffLeavesNone() throws {
        let user = try TestUser.make("notif-tapply")
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let env = ["NOTIF_SCHEDULER": "cron"]
        let mine = "# my jobs: 100% mine\nMAILTO=\"\"\n\n*/10 * * * * echo 'a%b' > /dev/null\n"
        try user.setCrontab(mine)
        #expect(try user.run([binary, "permission", "grant"], env).status == 0)
        #expect(try user.run([binary, "set", "tips-and-updates", "on"], env).status == 0)
        for _ in 0..<5 { #expect(try user.run([binary, "apply"], env).status == 0) }
        let installed = try user.crontab()
        #expect(installed.hasPrefix(mine))
        #expect(installed.components(separatedBy: "deliver --quiet tips-and-updates").count == 2, "\(installed)")
        #expect(installed.contains(#"0 9 * * * [ -x '\#(sandbox.path)/my bin 100\%/notif' ] && exec \#(user.cronPins()) '\#(sandbox.path)/my bin 100\%/notif' deliver --quiet tips-and-updates"#), "\(installed)")
        // Lines the user adds below notif's block (`crontab -e` leaves them there) are theirs too.
        let later = "# added later\n30 18 * * 1-5 /bin/true\n"
        try user.setCrontab(installed + later)
        for value in ["off", "on", "off", "on", "off"] {
            #expect(try user.run([binary, "set", "tips-and-updates", value], env).status == 0)
        }
        #expect(try user.crontab() == mine + later)
    }

    /// A crontab is bytes: the user's Latin-1 lines come back exactly after Tips & Updates is
    /// turned on and off (decoded as UTF-8 they came back with U+FFFD, and the job touched
    /// another file).
    @Test func nonUTF8UserLinesRoundTripByteForByte() throws {
        let user = try TestUser.make("notif-tbytes")
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        // "# résumé\n* * * * * touch /tmp/café\n" in Latin-1, plus an invalid UTF-8 sequence.
        let mine: [UInt8] = Array("# r".utf8) + [0xE9] + Array("sum".utf8) + [0xE9, 0x0A]
            + Array("* * * * * touch /tmp/caf".utf8) + [0xE9, 0x0A]
            + Array("# bad ".utf8) + [0xC3, 0x28, 0xFF, 0x0A]
        try user.setCrontab(bytes: mine)
        #expect(try user.crontabBytes() == mine, "crontab itself keeps the bytes")
        let granted = try user.run([binary, "--scheduler", "cron", "permission", "grant"])
        #expect(granted.status == 0, "\(granted)")
        let on = try user.run([binary, "--scheduler", "cron", "set", "tips-and-updates", "on"])
        #expect(on.status == 0, "\(on)")
        let with = try user.crontabBytes()
        #expect(with.starts(with: mine), "\(with)")
        let text = String(decoding: with, as: UTF8.self)
        #expect(text.contains("# BEGIN notif managed block") && text.contains("/notif' deliver --quiet tips-and-updates"), "\(text)")
        let off = try user.run([binary, "--scheduler", "cron", "set", "tips-and-updates", "off"])
        #expect(off.status == 0, "\(off)")
        #expect(try user.crontabBytes() == mine)
    }

    @Test func aNoOpApplyWritesNothing() throws {
        let user = try TestUser.make("notif-tnoop")
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let env = ["NOTIF_SCHEDULER": "cron", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"]
        try user.setCrontab("# mine\n")
        let granted = try user.run([binary, "permission", "grant"], env)
        #expect(granted.status == 0, "\(granted)")
        let set = try user.run([binary, "set", "tips-and-updates", "on"], env)
        #expect(set.status == 0, "\(set)")
        func snapshot() throws -> [String: String] {
            var result: [String: String] = [:]
            // Delivery files are left out: a cron daemon another test starts may run this user's
            // @reboot catch-up meanwhile, and that is not apply writing.
            let delivery: Set<String> = ["deliveries.jsonl", "delivered.json", "deliver.lock", "wait-tips-and-updates.lock"]
            let paths = [user.crontabFile, user.settingsPath]
                + (try FileManager.default.contentsOfDirectory(atPath: user.stateDir)).filter { !delivery.contains($0) }.map { user.stateDir + "/" + $0 }
            for path in paths {
                var info = stat()
                guard stat(path, &info) == 0 else { continue }
                result[path] = "\(info.st_ino) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_size)"
            }
            return result
        }
        let before = try snapshot()
        #expect(before.count >= 4)
        usleep(20_000)
        for _ in 0..<3 {
            let result = try user.run([binary, "apply"], env)
            #expect(result.status == 0 && result.stdout.contains("(unchanged)"), "\(result)")
        }
        #expect(try snapshot() == before)
    }

    @Test func orphansAndStaleEntriesAreReplaced() throws {
        let user = try TestUser.make("notif-torphan")
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let env = ["NOTIF_SCHEDULER": "cron"]
        let mine = "5 5 * * * /bin/true\n"
        try user.setCrontab(mine + """
            # BEGIN notif managed block: changed by `notif set` and `notif apply`; edits here are replaced
            # notif reminder: retired-reminder
            0 8 * * * /old/notif deliver retired-reminder
            # notif reminder: tips-and-updates
            0 9 * * * /old/notif deliver tips-and-updates
            # END notif managed block

            """)
        _ = try user.run([binary, "permission", "grant"], env)
        let result = try user.run([binary, "set", "tips-and-updates", "on"], env)
        #expect(result.status == 0, "\(result)")
        let crontab = try user.crontab()
        #expect(!crontab.contains("retired-reminder") && !crontab.contains("/old/notif"), "\(crontab)")
        #expect(crontab.hasPrefix(mine) && crontab.contains("my bin 100"))
        let status = try user.run([binary, "status", "--json"], env)
        #expect(status.stdout.contains("\"inSync\": true"), "\(status)")
    }

    @Test func statusJSONUnderTZHasTheZonesOffset() throws {
        let user = try TestUser.make("notif-ttz")
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        _ = try user.run([binary, "permission", "grant"], ["NOTIF_SCHEDULER": "cron"])
        _ = try user.run([binary, "set", "tips-and-updates", "on"], ["NOTIF_SCHEDULER": "cron"])
        // The entry was written without TZ: it shows the reminder at 09:00 system time, which
        // status gives in TZ's zone, with 09:00 there as the wanted time.
        for (tz, offsets) in [("America/New_York", ["-05:00", "-04:00"]), ("Asia/Kolkata", ["+05:30"])] {
            let status = try user.run([binary, "status", "--json"], ["NOTIF_SCHEDULER": "cron", "TZ": tz])
            func line(_ key: String) -> String { status.stdout.split(separator: "\n").first { $0.contains("\"\(key)\"") }.map(String.init) ?? "" }
            #expect(line("wantedReminder").contains("T09:00:00"), "\(status)")
            #expect(offsets.contains { line("nextReminder").contains($0) } && offsets.contains { line("wantedReminder").contains($0) }, "\(tz): \(status)")
        }
    }
}

/// The whole Guest path for real, with the shipped (release) binary and real clocks: a
/// real cron daemon runs in one zone (its system zone is Asia/Kolkata, +05:30) and each user in
/// another (`TZ`). notif writes the crontab lines in the system zone for 09:00 in the user's
/// zone; cron runs the `@reboot` line as it starts and the daily line at the user's 09:00,
/// which is the next minute (the user's zone is shifted so: `ZoneShift`), and the notification
/// appears in dunst on the user's private bus.
@Suite(.enabled(if: isRoot, "needs root for throwaway users and a cron daemon"))
struct RealCronDeliveryTests {
    @Test(.hangGuard)
    func cronInOneZoneDeliversAtNineInTheUsersZoneExactlyOnce() throws {
        let sandbox = Sandbox()
        // The binary sits where quoting is hard: cron's %, the shell's quotes, $, backticks, ;
        // and backslashes. Run by the real cron, it must run notif and nothing else (a command
        // let loose would make `canary` in the user's home, cron's working directory).
        let binary = try NotifBinary.releaseCopy(in: sandbox, directory: #"it's "q" $HOME $(touch canary) `touch canary`; 100% \% & back\slash"#)
        let display = try VirtualDisplay()
        let system = try ZonedSystem(zone: "Asia/Kolkata")
        let cases = ["on", "off", "master", "denied", "stale", "late", "after"]
        var users: [String: TestUser] = [:]
        var sessions: [String: DesktopSession] = [:]
        defer {
            // The sessions first: userdel refuses a user whose dunst still runs.
            sessions.removeAll()
            for user in users.values { deleteUser(user) }
        }
        for name in cases {
            let user = try TestUser.make("notif-tre-cron-" + name)
            users[name] = user
            sessions[name] = try DesktopSession(user: user, display: display)
        }
        // The users' zone: 09:00 is the next minute (at least two away, for the setup below: a
        // loaded run once took more than 40 s for it, and "stale" was turned on after 09:00);
        // "late" and "after" are in a zone where it is early afternoon: the boot's run shows "late"'s
        // reminder (its entry was there since yesterday), not "after"'s (turned on at 13:00).
        let (nine, at) = ZoneShift.nineAtTheNextMinute(lead: 120)
        var zones = Dictionary(uniqueKeysWithValues: cases.map { ($0, nine) })
        zones["late"] = ZoneShift.whereItIs(13, 0)
        zones["after"] = zones["late"]
        func notif(_ who: String, _ args: [String]) throws -> RunResult {
            try system.run(as: users[who]!, [binary] + args,
                         sessions[who]!.environment.merging(["NOTIF_SCHEDULER": "cron", "TZ": zones[who]!]) { a, _ in a })
        }
        // The six situations, each set up the way a person would (inside cron's namespace, so
        // notif sees cron's system zone).
        _ = try notif("on", ["permission", "grant"])
        let set = try notif("on", ["set", "tips-and-updates", "on"])
        #expect(set.status == 0, "\(set)")
        _ = try notif("off", ["permission", "grant"])
        _ = try notif("master", ["permission", "grant"])
        _ = try notif("master", ["set", "tips-and-updates", "on"])
        _ = try notif("master", ["set", "push-notifications", "off"])
        _ = try notif("denied", ["set", "tips-and-updates", "on"])
        _ = try notif("denied", ["permission", "deny"])
        _ = try notif("stale", ["permission", "grant"])
        _ = try notif("stale", ["set", "tips-and-updates", "on"])
        _ = try notif("late", ["permission", "grant"])
        _ = try notif("late", ["set", "tips-and-updates", "on"])
        _ = try notif("after", ["permission", "grant"])
        _ = try notif("after", ["set", "tips-and-updates", "on"])
        // "late"'s entry as if written yesterday at noon: today's 09:00 came while it was there.
        let late = users["late"]!
        let record = late.stateDir + "/entry-since.json"
        #expect(late.read(record)?.contains("\"tips-and-updates.\(late.tag)\"") == true, "\(late.read(record) ?? "")")
        let yesterday = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-86_400))
        #expect(try late.run(["/bin/sh", "-c", "printf '{\"%s\": \"%s\"}\\n' \"$0\" \"$1\" > \"$2\"", "tips-and-updates." + late.tag, yesterday, record]).status == 0)
        // The stale user turns the reminder off behind notif's back: the entry stays in cron until a run mends it.
        #expect(Date() < at, "the setup took past 09:00 (\(at)): a slow run, not notif")
        let staleSettings = try #require(users["stale"]!.read(users["stale"]!.settingsPath))
        try staleSettings.replacingOccurrences(of: "\"tipsAndUpdates\": true", with: "\"tipsAndUpdates\": false")
            .write(toFile: users["stale"]!.settingsPath, atomically: false, encoding: .utf8)

        // The line is 09:00 in the user's zone, written in Kolkata time, with the zone carried.
        var kolkata = Calendar(identifier: .gregorian)
        kolkata.timeZone = TimeZone(identifier: "Asia/Kolkata")!
        let local = kolkata.dateComponents([.hour, .minute], from: at)
        let crontab = try system.crontab(of: users["on"]!)
        let daily = try #require(crontab.split(separator: "\n").first { !$0.hasPrefix("#") && !$0.hasPrefix("@") && !CronLine.isSetting($0) }.map(String.init), "\(crontab)")
        #expect(daily.hasPrefix("\(local.minute!) \(local.hour!) * * * [ -x "), "\(daily)")
        #expect(daily.contains(" TZ=\(nine) ") && daily.contains(" deliver --quiet tips-and-updates"), "\(daily)")
        let status = try notif("on", ["status"])
        #expect(status.stdout.contains("cron at \(String(format: "%02d:%02d", local.hour!, local.minute!)) system time (Etc/UTC), 09:00 in \(nine)"),
                "(Etc/UTC is Kolkata's file in cron's namespace) \(status)")
        for name in ["on", "stale", "late", "after"] {
            #expect(try system.crontab(of: users[name]!).contains("@reboot [ -x "), "\(name) should have an entry")
        }
        for name in ["off", "master", "denied"] {
            #expect(try system.crontab(of: users[name]!).isEmpty, "\(name) should have no crontab")
        }

        // Now the boot: cron starts in that zone and runs the @reboot jobs first.
        try system.startCron(bootJobs: true)
        let log = { (who: String) in users[who]!.read(users[who]!.stateDir + "/deliveries.jsonl") ?? "" }
        let scheduled = "\"kind\":\"scheduled\""
        let fired = waitUntil(max(30, at.timeIntervalSinceNow + 90)) {
            log("on").contains("\"outcome\":\"delivered\"") && log("late").contains("\"outcome\":\"delivered\"")
        }
        #expect(system.cronRunning)
        #expect(fired, "cron did not run the entries: on=\(log("on")) late=\(log("late"))")
        // The boot's run mended the stale user's entries: they are gone. Whether cron still ran
        // the old 09:00 line depends on whether it saw that change (it compares modification
        // times in whole seconds, and the setup wrote crontabs a moment before the boot); such a
        // run records that Tips & Updates is off and shows nothing.
        #expect(waitUntil(10) { (try? system.crontab(of: users["stale"]!))?.isEmpty == true }, "\((try? system.crontab(of: users["stale"]!)) ?? "")")
        #expect(log("stale").split(separator: "\n").allSatisfy { $0.contains(scheduled) && $0.contains("\"outcome\":\"skipped\"") && $0.contains("Tips & Updates is off") },
                "\(log("stale"))")
        // Before 09:00 the boot's run was no attempt and left no record; at 09:00 the line delivered.
        let onLines = log("on").split(separator: "\n")
        #expect(onLines.count == 1, "\(onLines)")
        #expect(onLines.contains { $0.contains(scheduled) && $0.contains("\"outcome\":\"delivered\"") && $0.contains("T09:00:") }, "\(onLines)")
        // Booted in the afternoon: the boot's run showed today's reminder, recorded late.
        #expect(log("late").split(separator: "\n").map { $0.contains("\"outcome\":\"delivered\"") && $0.contains(" late: the first run since 09:00") } == [true],
                "\(log("late"))")
        #expect(try sessions["late"]!.shown().map(\.summary) == ["Tips & Updates"])
        // Turned on at 13:00: the same boot shows nothing and records nothing (cron ran every
        // @reboot job as it started, "late"'s among them, which is shown above).
        let afterShown = try sessions["after"]!.shown()
        #expect(log("after").isEmpty && afterShown.isEmpty, "\(log("after"))")

        let shown = try sessions["on"]!.shown()
        #expect(shown.count == 1, "\(shown)")
        #expect(shown.first?.summary == "Tips & Updates" && shown.first?.app == "notif")
        for name in ["off", "master", "denied", "stale", "after"] {
            #expect(try sessions[name]!.shown().isEmpty, "\(name) must see no notification")
        }
        for name in ["off", "master", "denied"] {
            #expect(log(name).isEmpty, "\(name) must not even have run")
        }
        for (name, user) in users {
            #expect(!FileManager.default.fileExists(atPath: user.home + "/canary"), "\(name): the entry ran more than notif")
        }
        // A second delivery the same day (in the user's zone) shows nothing.
        let again = try users["on"]!.run([binary, "deliver", "tips-and-updates"], sessions["on"]!.environment.merging(["TZ": nine]) { a, _ in a })
        #expect(again.status == 0 && again.stdout.contains("already sent today"), "\(again)")
        #expect(try sessions["on"]!.shown().count == 1)
        withExtendedLifetime((display, system)) {}
    }
}
