import Foundation
import Testing
import TestSupport

/// "Moved the reminder" is said only when an entry really left one scheduler for another in
/// that run: the fresh-account trial's two cases (no crontab, then `--scheduler embedded`; Push
/// Notifications off and the chooser changed on the page), real moves that are still said, a
/// removal said as one, and the page's line going with the next change. The built binary,
/// throwaway users' real crontabs, the page in tmux.
@Suite(.enabled(if: isRoot, "needs root for throwaway users' real crontabs"))
struct SchedulerMoveMessageTests {
    /// A user with no crontab at all, onboarding done (a plain `notif` opens the page).
    func freshUser(_ name: String, _ sandbox: Sandbox, settings: String = #"{"onboardingCompleted": true}"#) throws -> (TestUser, String) {
        let user = try TestUser.make(name)
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let written = try user.run(["/bin/sh", "-c", "mkdir -p \"$HOME/.config/notif\" && printf '%s\\n' '\(settings)' > \"$HOME/.config/notif/settings.json\""])
        #expect(written.status == 0, "\(written)")
        #expect(try user.crontab() == "")
        return (user, binary)
    }

    func saysNoChange(_ output: String) -> Bool {
        !output.contains("Moved") && !output.contains("Removed the reminder") && !output.contains("from now on")
    }

    @Test(.hangGuard)
    func noCrontabThenAnOverrideSaysNothingMovedAndRealMovesAndRemovalsAreSaid() throws {
        let sandbox = Sandbox()
        let (user, binary) = try freshUser("notif-trmvnotab", sandbox)
        defer { deleteUser(user) }
        // Nothing to install yet: cron is recorded as the scheduler, and holds nothing.
        let allow = try user.run([binary, "--scheduler", "cron", "permission", "allow"])
        #expect(allow.status == 0 && saysNoChange(allow.stdout), "\(allow)")
        #expect(user.read(user.stateDir + "/scheduler") == "cron\nchoice auto\n")
        #expect(try user.crontab() == "")

        // The trial: no crontab, then --scheduler embedded. Nothing left cron: nothing moved.
        let on = try user.run([binary, "--scheduler", "embedded", "set", "tips-and-updates", "on"])
        #expect(on.status == 0 && on.stdout.contains("Tips & Updates: scheduled daily at 09:00 with embedded"), "\(on)")
        #expect(saysNoChange(on.stdout), "\(on)")
        #expect(try ReminderPlaces.of(user).holders == ["embedded"] && user.crontab() == "")

        // A real move is still said.
        let toCron = try user.run([binary, "--scheduler", "cron", "apply"])
        #expect(toCron.status == 0 && toCron.stdout.contains("Moved the reminder from embedded to cron: --scheduler cron was given for this run.\n"),
                "\(toCron)")
        #expect(try ReminderPlaces.of(user).holders == ["cron"])

        // Nothing planned any more and the entry taken off cron: a removal, not a move.
        let off = try user.run([binary, "--scheduler", "embedded", "set", "push-notifications", "off"])
        #expect(off.status == 0, "\(off)")
        #expect(off.stdout.contains("Removed the reminder from cron (it goes to embedded once scheduled again): --scheduler embedded was given for this run.\n"),
                "\(off)")
        #expect(!off.stdout.contains("Moved"), "\(off)")
        #expect(try ReminderPlaces.of(user).holders.isEmpty && user.crontab() == "")

        // Nothing planned, nothing anywhere: nothing said about schedulers.
        let again = try user.run([binary, "--scheduler", "cron", "apply"])
        #expect(again.status == 0 && saysNoChange(again.stdout), "\(again)")
    }

    /// The page: Push Notifications off and the chooser changed (nothing installed anywhere):
    /// no move is said. Then real moves are, and the line goes with the next change, made
    /// elsewhere (`notif set`) or on the page.
    @Test(.hangGuard)
    func thePageSaysAMoveOnlyWhenOneHappenedAndUntilTheNextChange() throws {
        let sandbox = Sandbox()
        let (user, binary) = try freshUser("notif-trmvpage", sandbox, settings: """
            {"onboardingCompleted": true, "pushNotifications": false, "tipsAndUpdates": true, "permission": "granted"}
            """)
        defer { deleteUser(user) }
        let put = try user.run([binary, "--scheduler", "embedded", "apply"])
        #expect(put.status == 0 && user.read(user.stateDir + "/scheduler") == "embedded\nchoice auto\n", "\(put)")

        let pane = try TmuxPane(notifCommand(env: user.environment(["TERM": "tmux-256color"]), binary: binary, asUser: user.name))
        // The page's first apply may leave embedded (nothing runs it here): it held nothing.
        var screen = try pane.waitFor("(auto; s changes)")
        #expect(saysNoChange(screen), "\(screen)")
        try pane.send("s")
        try pane.waitFor("notif picks")
        try pane.send("Down", "Down", "Enter")
        screen = try pane.waitFor("Scheduler: cron (chosen; s changes)")
        #expect(saysNoChange(screen), "\(screen)")
        #expect(try ReminderPlaces.of(user).holders.isEmpty && user.crontab() == "")

        // Push Notifications on: the reminder is written on cron, where it was chosen to go.
        try pane.send("Space")
        #expect(try waitUntil(30) { try ReminderPlaces.of(user).holders == ["cron"] })
        screen = try pane.waitFor("Next reminder: ")
        #expect(saysNoChange(screen), "\(screen)")
        // A real move is said, and goes when a change is saved elsewhere.
        try pane.send("s")
        try pane.waitFor("notif picks")
        try pane.send("Down", "Enter")
        try pane.waitFor("Moved the reminder from cron to embedded: you chose embedded.")
        #expect(try ReminderPlaces.of(user).holders == ["embedded"] && user.crontab() == "")
        let elsewhere = try user.run([binary, "set", "queue-alerts", "off"])
        #expect(elsewhere.status == 0 && saysNoChange(elsewhere.stdout), "\(elsewhere)")
        try pane.waitForAbsence("Moved the reminder")
        // And when a change is made on the page (Push Notifications off: cancelled where it is,
        // which moves nothing).
        try pane.send("s")
        try pane.waitFor("notif picks")
        try pane.send("Up", "Enter")
        try pane.waitFor("Moved the reminder from embedded to cron: you chose cron.")
        try pane.send("Space")
        try pane.waitFor("Next reminder: none")
        try pane.waitForAbsence("Moved the reminder")
        screen = try pane.capture()
        #expect(saysNoChange(screen), "\(screen)")
        #expect(try waitUntil(30) { try ReminderPlaces.of(user).holders.isEmpty })
        try pane.send("q")
        #expect(try pane.finished().status == 0)
        #expect(try user.crontab() == "")
    }
}
