import Foundation
import Testing

/// A scheduler choice saved while `NOTIF_SCHEDULER` is set: the built binary, a throwaway
/// user's real crontab, and the built-in scheduler's files.
@Suite(.enabled(if: isRoot, "needs root for throwaway users' real crontabs"))
struct OverrideChoiceEndToEndTests {
    /// The trial's reproduction: `NOTIF_SCHEDULER=embedded` puts the reminder on the built-in
    /// scheduler, `NOTIF_SCHEDULER=embedded notif set scheduler cron` saves cron (and says it takes
    /// effect without the override), a plain `status` reads the entry where it is, and a plain
    /// `apply` moves it to cron.
    @Test(.hangGuard)
    func aChoiceSavedUnderTheVariableTakesEffectOnThePlainRun() throws {
        let sandbox = Sandbox()
        let user = try TestUser.make("notif-trovch")
        defer { deleteUser(user) }
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let forced = user.environment(["NOTIF_SCHEDULER": "embedded"])
        #expect(try user.run([binary, "permission", "grant"], forced).status == 0)
        let on = try user.run([binary, "set", "tips-and-updates", "on"], forced)
        #expect(on.status == 0 && on.stdout.contains("scheduled daily at 09:00 with embedded"), "\(on)")
        #expect(try ReminderPlaces.of(user).holders == ["embedded"])

        let choose = try user.run([binary, "set", "scheduler", "cron"], forced)
        #expect(choose.status == 0, "\(choose)")
        #expect(choose.stdout.contains("The choice cron is saved; this run uses embedded because NOTIF_SCHEDULER=embedded was given, so the choice takes effect the next time notif runs without it."), "\(choose)")
        #expect(!choose.stdout.contains("--scheduler") && !choose.stderr.contains("--scheduler"), "the variable is named as such: \(choose)")
        #expect(try ReminderPlaces.of(user).holders == ["embedded"])

        let status = try user.run([binary, "status"], user.environment())
        #expect(status.status == 0, "\(status)")
        #expect(row("Installed", in: status.stdout) == "tips-and-updates (on embedded)", "\(status)")
        #expect(row("In sync", in: status.stdout) == "no (tips-and-updates is on embedded; `notif apply` moves it to cron)", "\(status)")
        #expect(row("Scheduler choice", in: status.stdout) == "cron — you chose cron", "\(status)")

        let apply = try user.run([binary, "apply"], user.environment())
        #expect(apply.status == 0 && apply.stdout.contains("Moved the reminder from embedded to cron: you chose cron."), "\(apply)")
        #expect(try ReminderPlaces.of(user).holders == ["cron"])
        let again = try user.run([binary, "status"], user.environment())
        #expect(row("In sync", in: again.stdout) == "yes" && row("Installed", in: again.stdout) == "tips-and-updates", "\(again)")
    }
}
