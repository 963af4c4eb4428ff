import Foundation
import Testing
import TestSupport

/// The system zone falls back while the user's 09:00 is in the repeated hour (the trial's case:
/// a Berlin machine, a user in Shanghai, the last Sunday of October). Debian's cron runs no
/// fixed-time line in the repeated hour, so the line for that time does not run; the hourly line
/// notif adds for those days does, a minute later. Real cron, real clocks, the shipped binary:
/// the system zone is compiled to fall back a minute or two from now and the user's zone
/// (`TZ`) puts 09:00 at the very moment it does.
@Suite(.enabled(if: isRoot, "needs root for a throwaway user and a cron daemon"))
struct RealCronFallBackTests {
    @Test(.hangGuard)
    func theUsersNineInTheRepeatedHourIsDeliveredOnce() throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let display = try VirtualDisplay()
        let user = try TestUser.make("notif-trfallback")
        var session: DesktopSession? = try DesktopSession(user: user, display: display)
        defer {
            session = nil   // userdel refuses a user whose dunst still runs
            deleteUser(user)
        }
        // Setting up takes a few seconds; cron must be running before the clock goes back.
        let zone = try FallBackZone(fallingBackIn: 45)
        let system = try ZonedSystem(zone: zone.name)
        let tz = ZoneShift.whereItIs(9, 0, at: zone.change)
        let env = session!.environment.merging(["NOTIF_SCHEDULER": "cron", "TZ": tz]) { a, _ in a }
        #expect(try system.run(as: user, [binary, "permission", "grant"], env).status == 0)
        let set = try system.run(as: user, [binary, "set", "tips-and-updates", "on"], env)
        #expect(set.status == 0, "\(set)")
        try system.startCron(bootJobs: false)
        #expect(Date() < zone.change.addingTimeInterval(-5), "set up too slowly: cron started after the clock went back")

        // The daily line is the second pass's time (cron skips it today); the hourly line for
        // today is a minute later.
        let second = zone.local(zone.change), run = zone.local(zone.change.addingTimeInterval(60))
        let crontab = try system.crontab(of: user)
        let lines = crontab.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.contains { $0.hasPrefix("\(second.minute) \(second.hour) * * * [ -x ") }, "\(crontab)")
        #expect(lines.contains { $0.hasPrefix("\(run.minute) * \(run.day) \(run.month) * [ -x ") }, "\(crontab)")

        let log = { user.read(user.stateDir + "/deliveries.jsonl") ?? "" }
        let delivered = waitUntil(zone.change.timeIntervalSinceNow + 100) { log().contains("\"outcome\":\"delivered\"") }
        #expect(system.cronRunning)
        #expect(delivered, "cron did not deliver in the repeated hour: \(log()) \(crontab)")
        let records = log().split(separator: "\n")
        #expect(records.count == 1, "\(records)")
        #expect(records.first?.contains("\"kind\":\"scheduled\"") == true && records.first?.contains("T09:01:") == true,
                "the line for 09:00 does not run in the repeated hour; the hourly one at 09:01 does: \(records)")
        let shown = try session!.shown()
        #expect(shown.map(\.summary) == ["Tips & Updates"], "\(shown)")
        withExtendedLifetime((display, system, zone)) {}
    }
}
