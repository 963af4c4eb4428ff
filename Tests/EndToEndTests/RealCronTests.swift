import Foundation
import Testing

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
        #expect(installed.components(separatedBy: "deliver tips-and-updates").count == 2, "\(installed)")
        #expect(installed.contains(#"0 9 * * * '\#(sandbox.path)/my bin 100\%/notif' deliver tips-and-updates"#), "\(installed)")
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
        #expect(text.contains("# BEGIN notif managed block") && text.contains("/notif' deliver tips-and-updates"), "\(text)")
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
            let delivery: Set<String> = ["deliveries.jsonl", "delivered.json", "deliver.lock"]
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
        for (tz, offsets) in [("America/New_York", ["-05:00", "-04:00"]), ("Asia/Kolkata", ["+05:30"])] {
            let status = try user.run([binary, "status", "--json"], ["NOTIF_SCHEDULER": "cron", "TZ": tz])
            let line = status.stdout.split(separator: "\n").first { $0.contains("\"nextReminder\"") } ?? ""
            #expect(line.contains("T09:00:00"), "\(status)")
            #expect(offsets.contains { line.contains($0) }, "\(tz): \(line)")
        }
    }
}

/// The whole Guest path for real: notif writes the crontab, a cron daemon (clock starting at
/// 08:59:30) runs the `@reboot` catch-up as it starts and the entry at 09:00, and the
/// notification appears in dunst on a private bus.
///
/// Jobs run with the real clock (cron does not pass libfaketime on), so each crontab gets a `TZ`
/// line choosing a zone where it is now early morning (the catch-up finds nothing due) or
/// afternoon (the catch-up shows the missed reminder, and the 09:00 run then shows nothing).
@Suite(.enabled(if: isRoot, "needs root for throwaway users and a cron daemon"))
struct RealCronDeliveryTests {
    /// An `Etc/GMT±N` zone where the local hour is `hour` right now (Etc/GMT-6 is UTC+6).
    static func zone(whereTheHourIsNow hour: Int) -> String {
        let utcHour = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).hour!
        var offset = ((hour - utcHour) % 24 + 24) % 24
        if offset > 14 { offset -= 24 }
        return offset == 0 ? "Etc/UTC" : "Etc/GMT" + (offset > 0 ? "-" : "+") + String(abs(offset))
    }

    @Test(.timeLimit(.minutes(5)))
    func cronDeliversAtNineExactlyOnceAndOnlyWhenTheSettingsSaySo() throws {
        let sandbox = Sandbox()
        // The binary sits where quoting is hard: cron's %, the shell's quotes, $, backticks, ;
        // and backslashes. Run by the real cron, it must run notif and nothing else (a command
        // let loose would make `canary` in the user's home, cron's working directory).
        let binary = try NotifBinary.publicCopy(in: sandbox, directory: #"it's "q" $HOME $(touch canary) `touch canary`; 100% \% & back\slash"#)
        let display = try VirtualDisplay()
        let cases = ["on", "off", "master", "denied", "stale", "late"]
        var users: [String: TestUser] = [:]
        var sessions: [String: DesktopSession] = [:]
        for name in cases {
            let user = try TestUser.make("notif-tcron-" + name)
            users[name] = user
            sessions[name] = try DesktopSession(user: user, display: display)
        }
        func notif(_ who: String, _ args: [String]) throws -> RunResult {
            try users[who]!.run([binary] + args, sessions[who]!.environment.merging(["NOTIF_SCHEDULER": "cron"]) { a, _ in a })
        }
        // The five situations, each set up the way a person would.
        _ = try notif("on", ["permission", "grant"])
        #expect(try notif("on", ["set", "tips-and-updates", "on"]).status == 0)
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
        // The stale user turns the reminder off behind notif's back: the entry stays in cron.
        let staleSettings = try #require(users["stale"]!.read(users["stale"]!.settingsPath))
        try staleSettings.replacingOccurrences(of: "\"tipsAndUpdates\": true", with: "\"tipsAndUpdates\": false")
            .write(toFile: users["stale"]!.settingsPath, atomically: false, encoding: .utf8)

        var zones: [String: String] = [:]
        for name in ["on", "stale", "late"] {
            let crontab = try users[name]!.crontab()
            #expect(crontab.contains("deliver tips-and-updates") && crontab.contains("@reboot"), "\(name) should have an entry")
            zones[name] = Self.zone(whereTheHourIsNow: name == "late" ? 13 : 5)
            try users[name]!.setCrontab("TZ=\(zones[name]!)\n" + crontab)
        }
        for name in ["off", "master", "denied"] {
            #expect(try users[name]!.crontab().isEmpty, "\(name) should have no crontab")
        }

        let today = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        let cron = try FakeTimeCron(startingAt: "\(today) 08:59:30", bootJobs: true)
        let log = { (who: String) in users[who]!.read(users[who]!.stateDir + "/deliveries.jsonl") ?? "" }
        let scheduled = "\"kind\":\"scheduled\""
        let fired = waitUntil(90) {
            log("on").contains("\"outcome\":\"delivered\"")
                && ["stale", "late"].allSatisfy { who in log(who).split(separator: "\n").contains { $0.contains(scheduled) } }
        }
        #expect(cron.isRunning)
        #expect(fired, "cron did not run the entries: on=\(log("on")) stale=\(log("stale"))")
        // cron started at 08:59:30 ran the @reboot catch-up first: nothing due yet, so nothing shown.
        let onLines = log("on").split(separator: "\n")
        #expect(onLines.count == 2, "\(onLines)")
        #expect(onLines.first?.contains("\"kind\":\"catch-up\"") == true && onLines.first?.contains("not due yet") == true, "\(onLines)")
        #expect(onLines.last?.contains(scheduled) == true && onLines.last?.contains("\"outcome\":\"delivered\"") == true, "\(onLines)")
        // Booted in the afternoon: the catch-up shows today's reminder, the 09:00 run does not repeat it.
        let lateLines = log("late").split(separator: "\n")
        #expect(lateLines.count == 2, "\(lateLines)")
        #expect(lateLines.first?.contains("\"kind\":\"catch-up\"") == true && lateLines.first?.contains("\"outcome\":\"delivered\"") == true, "\(lateLines)")
        #expect(lateLines.last?.contains(scheduled) == true && lateLines.last?.contains("already delivered today") == true, "\(lateLines)")
        #expect(try sessions["late"]!.shown().map(\.summary) == ["Tips & Updates"])

        let shown = try sessions["on"]!.shown()
        #expect(shown.count == 1, "\(shown)")
        #expect(shown.first?.summary == "Tips & Updates" && shown.first?.app == "notif")
        #expect(log("stale").contains("Tips & Updates is off"))
        for name in ["off", "master", "denied", "stale"] {
            #expect(try sessions[name]!.shown().isEmpty, "\(name) must see no notification")
        }
        for name in ["off", "master", "denied"] {
            #expect(log(name).isEmpty, "\(name) must not even have run")
        }
        for (name, user) in users {
            #expect(!FileManager.default.fileExists(atPath: user.home + "/canary"), "\(name): the entry ran more than notif")
        }
        // A second delivery the same day (in the jobs' zone) shows nothing.
        let again = try users["on"]!.run([binary, "deliver", "tips-and-updates"], sessions["on"]!.environment.merging(["TZ": zones["on"]!]) { a, _ in a })
        #expect(again.status == 0 && again.stdout.contains("already delivered today"), "\(again)")
        #expect(try sessions["on"]!.shown().count == 1)
        withExtendedLifetime(display) {}
    }
}
