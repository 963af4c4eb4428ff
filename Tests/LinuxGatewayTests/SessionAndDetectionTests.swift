@testable import LinuxGateway
import SharedLogic
import Testing

@Suite struct SessionEnvironmentTests {
    @Test func capturesOnlyInsideASessionAndOnlyWhatPassesTheRule() {
        let fine: (String, String) -> String? = { _, _ in nil }
        #expect(SessionEnvironment.capture({ _ in nil }, problem: fine) == nil)
        let env = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/5/bus", "DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "HOME": "/h"]
        let session = SessionEnvironment.capture({ env[$0] }, problem: fine)
        #expect(session?.values == ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/5/bus", "DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"])
        #expect(SessionEnvironment(parsing: session!.text) == session)
        // Another user's display is not recorded; another user's bus records nothing.
        let noDisplay = SessionEnvironment.capture({ env[$0] }) { name, _ in name == "DISPLAY" ? "theirs" : nil }
        #expect(noDisplay?.values == ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/5/bus", "WAYLAND_DISPLAY": "wayland-0"])
        #expect(SessionEnvironment.capture({ env[$0] }) { name, _ in name == "DBUS_SESSION_BUS_ADDRESS" ? "theirs" : nil } == nil)
    }

    @Test func parsingIgnoresForeignNames() {
        let parsed = SessionEnvironment(parsing: "LD_PRELOAD=/evil.so\nDISPLAY=:1\ngarbage\n")
        #expect(parsed.values == ["DISPLAY": ":1"])
    }

    @Test func candidatesInOrderAndOnlyTrustedOnesBeyondThisSession() {
        let recorded = SessionEnvironment(values: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/dbus-abc,guid=1", "DISPLAY": ":3"])
        let none: (String) -> String? = { _ in nil }
        // The user's standard bus first, then the recorded session.
        let all = SessionEnvironment.candidates(current: none, recorded: recorded, uid: 1000) { _ in true }
        #expect(all.map(\.source) == ["the user bus", "the recorded session"])
        #expect(all[0].changes["DBUS_SESSION_BUS_ADDRESS"] == .some("unix:path=/run/user/1000/bus"))
        #expect(all[1].changes["DISPLAY"] == .some(":3"))
        // A recorded bus that is not served by this user (or is gone) is never tried.
        let untrustedRecorded = SessionEnvironment.candidates(current: none, recorded: recorded, uid: 1000) { !$0.contains("/tmp/dbus-abc") }
        #expect(untrustedRecorded.map(\.source) == ["the user bus"])
        // This process's own session is always listed first (its bus is checked when connecting, so a refusal is said).
        let inSession = SessionEnvironment.candidates(current: { $0 == "DBUS_SESSION_BUS_ADDRESS" ? "unix:abstract=/tmp/x" : nil },
                                                      recorded: recorded, uid: 1000) { _ in false }
        #expect(inSession.map(\.source) == ["this session"])
        // Given the user bus itself (as the systemd user manager gives its services), it is named so, and tried once.
        let givenUserBus = SessionEnvironment.candidates(current: { $0 == "DBUS_SESSION_BUS_ADDRESS" ? "unix:path=/run/user/1000/bus" : nil },
                                                         recorded: nil, uid: 1000) { _ in true }
        #expect(givenUserBus.map(\.source) == ["the user bus"] && givenUserBus[0].changes.isEmpty)
        #expect(SessionEnvironment.candidates(current: none, recorded: nil, uid: 1000) { _ in false }.isEmpty)
    }
}

@Suite struct SchedulerDetectionTests {
    let all: Set<SchedulerKind> = [.systemd, .cron, .embedded]

    @Test func prefersSystemdThenCronThenEmbedded() {
        let everything = SchedulerProbe(systemdUserManagerRunning: true, cronDaemonRunning: true, crontabProblem: nil)
        #expect(SchedulerDetection.choose(forced: nil, probe: everything, available: all).kind == .systemd)
        let cronOnly = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: true, crontabProblem: nil)
        #expect(SchedulerDetection.choose(forced: nil, probe: cronOnly, available: all).kind == .cron)
        let denied = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: true, crontabProblem: "u is listed in /etc/cron.deny")
        #expect(SchedulerDetection.choose(forced: nil, probe: denied, available: all).kind == .embedded)
        let nothing = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: false, crontabProblem: nil)
        #expect(SchedulerDetection.choose(forced: nil, probe: nothing, available: all).kind == .embedded)
    }

    @Test func withoutAnyAvailableSchedulerItSaysWhy() {
        let nothing = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: false, crontabProblem: nil)
        let choice = SchedulerDetection.choose(forced: nil, probe: nothing, available: [.cron])
        #expect(choice.kind == nil)
        #expect(choice.warnings.joined().contains("the cron daemon is not running"))
    }

    @Test func aForcedSchedulerIsUsedWithAWarningWhenItsDaemonIsDown() {
        let nothing = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: false, crontabProblem: nil)
        let choice = SchedulerDetection.choose(forced: .cron, probe: nothing, available: [.cron])
        #expect(choice.kind == .cron && choice.forced)
        #expect(choice.warnings == ["the cron daemon is not running: entries will not fire until it runs"])
    }

    @Test func liveProbeDoesNotCrashAndSeesNoCronHereUnlessRunning() {
        _ = SchedulerProbe.live()
    }
}
