import Foundation
import Testing

/// The command line's words and edges: one vocabulary for the permission, `status` saying what
/// is scheduled, no nested brackets, ASCII under a locale that is not UTF-8, `-n1`, numbers too
/// large, Account-only options checked only there, `notif test` before permission is given.
@Suite struct CommandLineWordsTests {
    @Test func thePermissionHasOneVocabulary() throws {
        let sandbox = Sandbox()
        #expect(try sandbox.notif(["permission", "status"]).stdout == "Not decided\n")
        let allow = try sandbox.notif(["permission", "allow"])
        #expect(allow.status == 0 && allow.stdout.hasPrefix("Permission: Allow."), "\(allow)")
        #expect(try sandbox.notif(["permission", "status"]).stdout == "Allow\n")
        let deny = try sandbox.notif(["permission", "deny"])
        #expect(deny.status == 0 && deny.stdout.hasPrefix("Permission: Don't allow."), "\(deny)")
        #expect(try sandbox.notif(["permission", "status"]).stdout == "Don't allow\n")
        // grant stays, as another word for allow.
        #expect(try sandbox.notif(["permission", "grant"]).stdout.hasPrefix("Permission: Allow."))
        #expect(try sandbox.notif(["status"]).stdout.contains("Permission:         Allow\n"))
        let help = try sandbox.notif(["help", "permission"])
        #expect(help.stdout.contains("notif permission allow|deny|reset|status"))
        #expect(try sandbox.notif(["permission", "maybe"]).stderr.contains("use allow, deny, reset or status"))
    }

    @Test func statusSaysWhatIsScheduledNotWhatWouldBe() throws {
        let sandbox = Sandbox()
        let off = try sandbox.notif(["status"])
        #expect(off.stdout.contains("Tips & Updates:     off (09:00 daily when on)\n"), "\(off)")
        _ = try sandbox.notif(["set", "tips-and-updates", "on"])
        #expect(try sandbox.notif(["status"]).stdout.contains("Tips & Updates:     on, not scheduled: permission is Not decided\n"))
        _ = try sandbox.notif(["permission", "allow"])
        // The built-in scheduler with no `notif daemon` (nor its autostart entry) fires nothing: said so.
        let on = try sandbox.notif(["status"])
        #expect(on.stdout.contains("Tips & Updates:     on: 09:00 daily, but its entry cannot fire (see Fires)\n"), "\(on)")
        // Once its autostart entry is there, the daemon starts at the next login and the entry waits for it.
        #expect(try sandbox.notif(["daemon", "--install-autostart"]).status == 0)
        let waiting = try sandbox.notif(["status"])
        #expect(waiting.stdout.contains("Tips & Updates:     on: 09:00 daily\n"), "\(waiting)")
    }

    /// A typo'd key beside the real one does nothing; `status` and `notif edit` say so, and the
    /// key is kept as written. One in place of the real key makes the file unusable: the setting
    /// meant would silently take its default (a reminder cancelled by a typo).
    @Test func aMistypedKeyInSettingsIsSaid() throws {
        let sandbox = Sandbox()
        try sandbox.write(#"{"tipsAndUpdate": true, "myTool": 1}"#, to: sandbox.settingsPath)
        let alone = try sandbox.notif(["status"])
        #expect(alone.status == 1 && alone.stderr.contains(#"settings.json line 1, column 19: "tipsAndUpdate" is not a key notif reads — did you mean "tipsAndUpdates"? rename it, or that setting would take the default"#),
                "\(alone)")
        let set = try sandbox.notif(["set", "queue-alerts", "off"])
        #expect(set.status == 1 && sandbox.read(sandbox.settingsPath) == #"{"tipsAndUpdate": true, "myTool": 1}"#, "\(set)")
        try sandbox.write(#"{"tipsAndUpdates": false, "tipsAndUpdate": true, "myTool": 1}"#, to: sandbox.settingsPath)
        let status = try sandbox.notif(["status"])
        #expect(status.status == 0 && status.stdout.contains("Tips & Updates:     off"), "\(status)")
        #expect(status.stderr.contains("settings.json has the key \"tipsAndUpdate\", which notif does not read (it is kept as written); did you mean tipsAndUpdates?"),
                "\(status)")
        #expect(!status.stderr.contains("myTool"), "\(status)")
        let json = try sandbox.notif(["status", "--json"])
        #expect(json.stdout.contains("did you mean tipsAndUpdates?"), "\(json)")
        let edit = try sandbox.notif(["edit"], ["EDITOR": "sed -i s/myTool/myTools/"])
        #expect(edit.status == 0 && edit.stderr.contains("did you mean tipsAndUpdates?"), "\(edit)")
        #expect(sandbox.read(sandbox.settingsPath) == #"{"tipsAndUpdates": false, "tipsAndUpdate": true, "myTools": 1}"#)
        // An edit kept (the editor failed): said by status until it is gone.
        let failed = try sandbox.notif(["edit"], ["EDITOR": "sh -c 'echo changed >> \"$0\"; exit 3'"])
        #expect(failed.status == 1, "\(failed)")
        let kept = sandbox.files(in: sandbox.configDir).filter { $0.hasPrefix("settings.edit-") }
        #expect(kept.count == 1, "\(kept)")
        let later = try sandbox.notif(["status"])
        #expect(later.stderr.contains("\(sandbox.configDir)/\(kept.first ?? "?") is an edit of settings.json that `notif edit` kept, or has open: it is not in use"), "\(later)")
        try FileManager.default.removeItem(atPath: sandbox.configDir + "/" + (kept.first ?? "?"))
        #expect(try !sandbox.notif(["status"]).stderr.contains("is an edit of settings.json"))
    }

    /// Every line of a run through the common commands and their failures: never a bracket
    /// inside another.
    @Test func noMessageNestsBrackets() throws {
        let sandbox = Sandbox()
        var said = ""
        for args in [["set", "tips-and-updates", "on"], ["status"], ["permission", "allow"], ["status"], ["permission", "deny"],
                     ["status"], ["apply"], ["set", "push-notifications", "off"], ["status"], ["set", "push-notifications", "on"],
                     ["permission", "reset"], ["test"], ["history"], ["permission", "allow"], ["test"], ["history"], ["status"],
                     ["set", "tips-and-updates", "off"], ["status"]] {
            let result = try sandbox.notif(args)
            said += result.stdout + result.stderr
        }
        // And a scheduler whose program fails. (Its own words are quoted as they are, so they hold
        // no brackets here: what is checked is notif's wording around them.)
        let fakes = try FakeTools(in: sandbox)
        try fakes.add("crontab", "echo 'crontab: cannot open /var/spool/cron: locked by pid 7' >&2; exit 1")
        for args in [["permission", "allow"], ["set", "tips-and-updates", "on"], ["set", "tips-and-updates", "off"], ["status"], ["apply"]] {
            let result = try sandbox.notif(args, ["NOTIF_SCHEDULER": "cron", "PATH": fakes.path])
            said += result.stdout + result.stderr
        }
        #expect(said.contains("locked by pid 7"), "the failing crontab was used: \(said)")
        for line in said.split(separator: "\n") {
            var depth = 0
            var deepest = 0
            for character in line {
                if character == "(" { depth += 1; deepest = max(deepest, depth) }
                if character == ")" { depth -= 1 }
            }
            #expect(deepest <= 1, "nested brackets: \(line)")
        }
    }

    @Test func aLocaleThatIsNotUTF8GetsASCII() throws {
        let sandbox = Sandbox()
        let record = "{\"time\":\"2026-11-30T09:00:01+01:00\",\"day\":\"2026-11-30\",\"reminder\":\"tips-and-updates\",\"kind\":\"scheduled\",\"outcome\":\"delivered\",\"detail\":\"shown — ✅ done\"}\n"
        try sandbox.write(record, to: sandbox.stateDir + "/deliveries.jsonl")
        for lang in ["C", "POSIX"] {
            let status = try sandbox.notif(["status"], ["LANG": lang])
            #expect(status.status == 0 && status.stdout.utf8.allSatisfy { $0 < 0x80 }, "LANG=\(lang): \(status)")
            #expect(status.stdout.contains("Next reminder:      none - off"), "\(status)")
            let history = try sandbox.notif(["history"], ["LANG": lang])
            #expect(history.stdout.contains("shown - ? done"), "\(history)")
            // JSON stays the same document: escapes, not other characters.
            let json = try sandbox.notif(["history", "--json"], ["LANG": lang])
            #expect(json.stdout.utf8.allSatisfy { $0 < 0x80 } && json.stdout.contains("shown \\u2014 \\u2705 done"), "\(json)")
            let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            #expect(parsed?["detail"] as? String == "shown — ✅ done")
        }
        let utf8 = try sandbox.notif(["history"])
        #expect(utf8.stdout.contains("shown — ✅ done"), "C.UTF-8 keeps the text")
    }

    @Test func historyCountsInEverySpellingAndNumbersTooLargeSaySo() throws {
        let sandbox = Sandbox()
        let line = "{\"time\":\"2026-11-30T09:00:01+01:00\",\"day\":\"2026-11-30\",\"reminder\":\"tips-and-updates\",\"kind\":\"scheduled\",\"outcome\":\"delivered\",\"detail\":\"shown\"}\n"
        try sandbox.write(String(repeating: line, count: 3), to: sandbox.stateDir + "/deliveries.jsonl")
        for args in [["-n1"], ["-n", "1"], ["--limit", "1"], ["--limit=1"]] {
            let result = try sandbox.notif(["history"] + args)
            #expect(result.status == 0 && result.stdout.split(separator: "\n").count == 1, "\(args): \(result)")
        }
        let huge = try sandbox.notif(["history", "-n", "99999999999999999999"])
        #expect(huge.status == 2 && huge.stderr.contains("-n 99999999999999999999 is too large (at most 9223372036854775807)"), "\(huge)")
        let attached = try sandbox.notif(["history", "-n99999999999999999999"])
        #expect(attached.status == 2 && attached.stderr.contains("is too large"), "\(attached)")
        let word = try sandbox.notif(["history", "-n", "ten"])
        #expect(word.status == 2 && word.stderr.contains("-n needs a whole number, not 'ten'"), "\(word)")
        let zero = try sandbox.notif(["history", "-n0"])
        #expect(zero.status == 2 && zero.stderr.contains("1 or more"), "\(zero)")
    }

    @Test func accountOnlyOptionsAreCheckedOnlyInAccountProjects() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        // A Guest project: the poll interval does not apply, so a bad one stops nothing.
        for (args, env) in [([String](), ["NOTIF_POLL_INTERVAL": "-1"]), (["--poll-interval", "abc"], [:]),
                            (["--poll-interval=99999999999999999999"], [:])] {
            let daemon = try DaemonProcess([NotifBinary.path, "daemon"] + args, environment: sandbox.environment(env), outputIn: sandbox.path)
            #expect(daemon.waitUntilRunning(), "\(args) \(env): \(daemon.output)")
            daemon.send(SIGTERM)
            #expect(daemon.waitForExit() == 0, "\(daemon.output)")
            if !args.isEmpty { #expect(daemon.output.contains("applies to Account projects only"), "\(daemon.output)") }
        }
        // An Account project checks it, and says what is wrong.
        try sandbox.write("{\"onboardingCompleted\": true, \"mode\": \"account\", \"account\": {\"server\": \"https://example.org\"}}",
                          to: sandbox.settingsPath)
        let negative = try sandbox.notif(["daemon"], ["NOTIF_POLL_INTERVAL": "-1"])
        #expect(negative.status == 2 && negative.stderr.contains("NOTIF_POLL_INTERVAL '-1' is not a number of seconds (10 or more)"), "\(negative)")
        let huge = try sandbox.notif(["daemon", "--poll-interval", "99999999999999999999"])
        #expect(huge.status == 2 && huge.stderr.contains("is too large"), "\(huge)")
    }

    @Test func testBeforePermissionIsGivenSaysSoAndSendsNothing() throws {
        let sandbox = Sandbox()
        let service = try FakeNotificationService(config: [:])
        for (permission, word) in [("reset", "Not decided"), ("deny", "Don't allow")] {
            _ = try sandbox.notif(["permission", permission])
            let result = try sandbox.notif(["test"], ["DBUS_SESSION_BUS_ADDRESS": service.busAddress])
            #expect(result.status == 1 && result.stderr.contains("permission is \(word); `notif permission allow` allows notifications"),
                    "\(result)")
            #expect(service.notifications().isEmpty, "a notification was sent")
        }
        // Allowed, it is shown there, over notif's own D-Bus connection.
        _ = try sandbox.notif(["permission", "allow"])
        let shown = try sandbox.notif(["test"], ["DBUS_SESSION_BUS_ADDRESS": service.busAddress])
        #expect(shown.status == 0 && shown.stdout == "Test notification accepted by the notification service through this session as notification 1.\n", "\(shown)")
        #expect(service.notifications().map { $0["summary"] as? String } == ["notif test notification"])
    }
}
