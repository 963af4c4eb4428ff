import Foundation
import TestSupport
import Testing

/// Several notif processes changing settings at once, `apply` and `status` running beside them,
/// and the page open in a terminal: every read of settings.json parses, the crontab never holds
/// two blocks, each setting ends at its last completed write, and the page shows what the others
/// saved without losing its own change.
@Suite(.enabled(if: isRoot, "needs root for a throwaway user"))
struct ConcurrencyTests {
    @Test(.hangGuard)
    func writersReadersAndThePageAgree() throws {
        let user = try TestUser.make("notif-tconc")
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        try user.setCrontab("# mine\n")
        let env = ["NOTIF_SCHEDULER": "cron"]
        #expect(try user.run([binary, "permission", "grant"], env).status == 0)
        #expect(try user.run([binary, "set", "vibration", "on"], env).status == 0)
        let pane = try TmuxPane(notifCommand(env: user.environment(env.merging(["TERM": "tmux-256color"]) { a, _ in a }),
                                             binary: binary, asUser: user.name))
        // Permission answered on the command line: the page, not the first-start wizard.
        try pane.waitFor("Next reminder:")

        // One writer per setting (so "last completed write" is exact), plus apply and status loops.
        let seconds = Double(Soak.isOn ? 10 * Soak.factor : 3)
        let work = sandbox.path + "/conc"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        chmod(work, 0o777)
        // The page is the writer of Push Notifications; these processes write the rest, the
        // permission included (with apply and status, 8 processes beside the page).
        let writers: [(setting: String, command: String, values: [String])] = [
            ("tips-and-updates", "set tips-and-updates", ["on", "off"]), ("queue-alerts", "set queue-alerts", ["off", "on"]),
            ("promotions", "set promotions", ["on", "off"]), ("vibration", "set vibration", ["off", "on"]),
            ("sound", "set sound", ["chime", "bell", "silent", "default"]), ("permission", "permission", ["deny", "grant"]),
        ]
        // Each loop marks its end with a file: the shell's `wait` would need SIGCHLD, which the
        // test process's threads block and its children inherit.
        var script = "end=$(( $(date +%s) + \(Int(seconds)) ))\n"
        for writer in writers {
            script += "( i=0; while [ $(date +%s) -lt $end ]; do set -- \(writer.values.map { "'\($0)'" }.joined(separator: " ")); "
                + "n=$(( i % $# + 1 )); eval val=\\${$n}; "
                + "'\(binary)' \(writer.command) $val >/dev/null 2>&1 && echo $val > '\(work)/\(writer.setting)'; i=$((i+1)); done; "
                + "touch '\(work)/done-\(writer.setting)' ) &\n"
        }
        script += "( while [ $(date +%s) -lt $end ]; do '\(binary)' apply >/dev/null 2>&1; done; touch '\(work)/done-apply' ) &\n"
        script += "( while [ $(date +%s) -lt $end ]; do '\(binary)' status --json >/dev/null 2>&1; done; touch '\(work)/done-status' ) &\n"
        _ = try spawnAs(user, ["/bin/sh", "-c", script], env)
        let loops = writers.map(\.setting) + ["apply", "status"]
        let deadline = Date().addingTimeInterval(seconds + 60)
        let finished = { loops.allSatisfy { FileManager.default.fileExists(atPath: work + "/done-" + $0) } }

        // Meanwhile: read everything as often as possible, and flip Push Notifications from the page
        // (always reachable: `k` to the top row, then Space).
        var reads = 0
        var pageFlips = 0
        while !finished() && Date() < deadline {
            if let text = user.read(user.settingsPath) {
                #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "unparsable settings.json:\n\(text)")
                reads += 1
            }
            let crontab = try user.crontab()
            #expect(crontab.hasPrefix("# mine\n"), "the user's line is gone:\n\(crontab)")
            #expect(crontab.components(separatedBy: "# BEGIN notif managed block").count <= 2, "two blocks:\n\(crontab)")
            if reads % 25 == 0 {
                try pane.send("k", "k", "k", "k", "k", "k", "Space")
                pageFlips += 1
            }
        }
        #expect(finished(), "the writers did not finish in time")
        #expect(reads > 0, "settings.json was never read while the writers ran")
        // The page may still be working through the last key bursts: once it shows the Push
        // Notifications state its own flips add up to, it has taken them all. It shows a change
        // at once and saves it on its worker, behind the writers' locks: the file gets there later.
        let pushOn = pageFlips % 2 == 0
        try pane.waitForLine(containing: "Push Notifications", seconds: 30) { $0.contains((pushOn ? "[x] " : "[ ] ") + "Push Notifications") }
        let saved = { () -> [String: Any]? in
            try? JSONSerialization.jsonObject(with: Data((user.read(user.settingsPath) ?? "").utf8)) as? [String: Any]
        }
        _ = waitUntil(30) { saved()?["pushNotifications"] as? Bool == pushOn }

        // Each writer's setting ends at its last completed write.
        let document = try #require(saved())
        let keys = ["tips-and-updates": "tipsAndUpdates", "queue-alerts": "queueAlerts", "promotions": "promotions",
                    "vibration": "vibration", "sound": "sound", "permission": "permission"]
        for writer in writers {
            let last = try String(contentsOfFile: work + "/" + writer.setting, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let saved = document[keys[writer.setting]!]
            let matches: Bool
            switch writer.setting {
            case "sound": matches = (saved as? String) == last
            case "permission": matches = (saved as? String) == (last == "grant" ? "granted" : "denied")
            default: matches = (saved as? Bool) == (last == "on")
            }
            #expect(matches, "\(writer.setting): saved \(saved ?? "nil"), last write \(last)")
        }
        // The page's own writes are all there: Push Notifications flipped once per burst.
        let push = try #require(document["pushNotifications"] as? Bool)
        #expect(push == (pageFlips % 2 == 0), "Push Notifications is \(push) after \(pageFlips) flips from the page")
        // The crontab matches the final settings after one more apply, and the page shows them.
        #expect(try user.run([binary, "apply"], env).status == 0)
        let planned = (document["pushNotifications"] as? Bool ?? false) && (document["tipsAndUpdates"] as? Bool ?? false)
            && (document["permission"] as? String) == "granted"
        #expect(try user.crontab().contains("deliver --quiet tips-and-updates") == planned)
        let vibration = document["vibration"] as? Bool ?? true
        for (label, key) in [("Push Notifications", "pushNotifications"), ("Tips & Updates", "tipsAndUpdates"),
                             ("Queue alerts", "queueAlerts"), ("Promotions", "promotions")] {
            let on = document[key] as? Bool ?? false
            try pane.waitForLine(containing: label) { $0.contains((on ? "[x] " : "[ ] ") + label) }
        }
        try pane.waitForLine(containing: "Vibration") { $0.contains((vibration ? "[x]" : "[ ]") + " Vibration") }
        let sound = try #require(document["sound"] as? String)
        try pane.waitForLine(containing: "Sound") { $0.contains(sound) }
        try pane.send("q")
        #expect(try pane.finished().status == 0)
        print("figures: concurrency: \(writers.count) writers + apply + status loops for \(Int(seconds)) s, \(reads) reads of settings.json all valid, \(pageFlips) key bursts from the page; held")
    }
}
