import Foundation
import TestSupport
import Testing

/// notif killed with SIGKILL at random moments while it changes settings and the crontab:
/// settings.json always parses, the user's crontab lines are always there with at most one
/// notif entry, and one `notif apply` afterwards brings everything in line.
@Suite(.enabled(if: isRoot, "needs root for a throwaway user"))
struct CrashSafetyTests {
    @Test(.hangGuard)
    func killedAtRandomMomentsLosesNothing() throws {
        let user = try TestUser.make("notif-tkill")
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let mine = "# my own jobs, 100% mine\nMAILTO=\"\"\n\n17 3 * * * /bin/true 'a%b'\n"
        try user.setCrontab(mine)
        let env = ["NOTIF_SCHEDULER": "cron"]
        #expect(try user.run([binary, "permission", "grant"], env).status == 0)
        let seed = Soak.seed()
        var random = SeededRandom(seed: seed)
        let kills = Soak.count(short: 60, long: 1000)
        var killedMidWay = 0
        for round in 0..<kills {
            let value = round % 2 == 0 ? "on" : "off"
            let process = try spawnAs(user, [binary, "set", "tips-and-updates", value], env)
            usleep(UInt32(random.next() % 25_000))
            if process.isRunning { killedMidWay += 1 }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if let text = user.read(user.settingsPath) {
                #expect(!text.isEmpty, "round \(round) (seed \(seed)): empty settings.json")
                #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil,
                        "round \(round) (seed \(seed)): settings.json does not parse:\n\(text)")
            }
            let crontab = try user.crontab()
            #expect(crontab.hasPrefix(mine), "round \(round) (seed \(seed)): the user's lines changed:\n\(crontab)")
            let entries = crontab.components(separatedBy: "# notif reminder: tips-and-updates").count - 1
            #expect(entries <= 1, "round \(round): \(entries) entries")
            let blocks = crontab.components(separatedBy: "# BEGIN notif managed block").count - 1
            #expect(blocks <= 1, "round \(round): \(blocks) blocks")
        }
        // Whatever the last kill left, one apply converges on the saved settings.
        let apply = try user.run([binary, "apply"], env)
        #expect(apply.status == 0, "\(apply)")
        let settings = user.read(user.settingsPath) ?? ""
        let on = settings.contains("\"tipsAndUpdates\": true")
        let crontab = try user.crontab()
        #expect(crontab.hasPrefix(mine))
        #expect(crontab.contains("deliver --quiet tips-and-updates") == on, "settings say \(on ? "on" : "off"):\n\(crontab)")
        let status = try user.run([binary, "status", "--json"], env)
        #expect(status.stdout.contains("\"inSync\": true"), "\(status)")
        // Enough of the kills must land while notif was working, or this proves little.
        #expect(killedMidWay >= kills / 4, "only \(killedMidWay) of \(kills) kills hit a running notif")
        print("figures: crash safety: \(kills) SIGKILLs, \(killedMidWay) while notif was running, seed \(seed); held")
    }
}
