import Foundation
import Testing
import SharedLogic
@testable import LinuxGateway

/// Which path a notification takes: notif's name, icon and desktop entry on every one; the
/// buttons only through the handoff, and only to a service that lists "actions".
@Suite struct DesktopNotifierActionTests {
    final class Handoff: ActionHandoff, @unchecked Sendable {
        private let lock = NSLock()
        private var _calls: [[String: String?]] = []
        var calls: [[String: String?]] { lock.withLock { _calls } }
        let answer: Result<String, GatewayError>
        init(_ answer: Result<String, GatewayError>) { self.answer = answer }
        func start(environment: [String: String?], timeout: Double) -> Result<String, GatewayError> {
            lock.withLock { _calls.append(environment) }
            return answer
        }
    }

    /// notify-send answers with id 9.
    func runner() -> RecordingRunner {
        RecordingRunner { _ in ProcessResult(exitStatus: 0, stdout: Array("9\n".utf8)) }
    }

    /// A notifier whose service says `capabilities` (nil: cannot be asked).
    func notifier(_ runner: RecordingRunner, _ capabilities: Set<String>?) -> DesktopNotifier {
        DesktopNotifier(runner: runner, capabilities: { _, _ in capabilities })
    }

    let session: [(source: String, changes: [String: String?])] = [("this session", [:])]

    @Test func everyNotificationCarriesTheNameIconAndDesktopEntry() {
        let argv = DesktopNotifier.command(summary: "Tips & Updates", body: "b", icon: "/usr/share/icons/hicolor/scalable/apps/notif.svg")
        #expect(Array(argv.prefix(4)) == ["notify-send", "--app-name=notif", "--icon=/usr/share/icons/hicolor/scalable/apps/notif.svg",
                                          "--hint=string:desktop-entry:notif"])
        #expect(!argv.contains { $0.hasPrefix("--action") })
        let buttons = DesktopNotifier.command(summary: "s", body: "b", actions: ReminderAction.allCases)
        #expect(buttons.contains("--action=turn-off=Turn off") && buttons.contains("--action=settings=Settings"))
        #expect(buttons.suffix(3) == ["--", "s", "b"])
    }

    @Test func aServiceWithActionsGetsTheReminderFromTheHandoff() {
        let runner = runner()
        let handoff = Handoff(.success("12"))
        let result = notifier(runner, ["actions", "body"]).show(summary: "s", body: "b", environments: session, handoff: handoff)
        #expect(result == .success("shown through this session as notification 12, with Turn off and Settings"))
        #expect(handoff.calls.count == 1)
        #expect(!runner.argvs.contains { $0.first == "notify-send" }, "the waiter shows it, not this process")
    }

    @Test(arguments: [["body", "icon-static"], nil] as [Set<String>?])
    func aServiceWithoutActionsOrThatDoesNotSayGetsThePlainBubble(capabilities: Set<String>?) {
        let runner = runner()
        let handoff = Handoff(.success("12"))
        let result = notifier(runner, capabilities).show(summary: "s", body: "b", environments: session, handoff: handoff)
        #expect(result == .success("shown through this session as notification 9"))
        #expect(handoff.calls.isEmpty)
        #expect(runner.argvs.last?.contains { $0.hasPrefix("--action") } == false)
    }

    @Test func aHandoffThatFailsStillShowsTheBubbleWithoutButtons() {
        let runner = runner()
        let handoff = Handoff(.failure(GatewayError("the waiter for the reminder's buttons did not start: setsid is not installed")))
        let result = notifier(runner, ["actions"]).show(summary: "s", body: "b", environments: session, handoff: handoff)
        #expect(result == .success("shown through this session as notification 9 (without buttons: the waiter for the reminder's buttons did not start: setsid is not installed)"))
        #expect(handoff.calls.count == 1 && runner.argvs.count == 1)
    }

    @Test func whenNeitherWorksTheNextSessionIsTried() {
        let runner = RecordingRunner { _ in ProcessResult(exitStatus: 1, stderr: Array("GDBus.Error: no server\n".utf8)) }
        let handoff = Handoff(.failure(GatewayError("cannot connect")))
        let sessions: [(source: String, changes: [String: String?])] = [("this session", [:]), ("the user bus", ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1/bus"])]
        let result = notifier(runner, ["actions"]).show(summary: "s", body: "b", environments: sessions, handoff: handoff)
        #expect(handoff.calls.count == 2 && runner.argvs.count == 2)
        #expect(result == .failure(GatewayError("notify-send via this session: exit status 1: GDBus.Error: no server (without buttons: cannot connect); "
                                                + "notify-send via the user bus: exit status 1: GDBus.Error: no server (without buttons: cannot connect)")))
    }

    @Test func theIconIsTheInstalledFileBesideTheProgramOrInTheDataDirectoriesElseItsName() throws {
        let scratch = Scratch()
        let prefix = scratch.path + "/prefix"
        let icon = prefix + "/share/icons/hicolor/scalable/apps/notif.svg"
        let env = ["HOME": scratch.path + "/home", "XDG_DATA_DIRS": scratch.path + "/nowhere"]
        // The scratch directory is under /tmp, which the trust rule refuses: trusted here, but for a file under `refused`.
        var refused = "-"
        let trust: AppIcon.Trust = { $0.hasPrefix(refused) ? "refused" : nil }
        #expect(AppIcon.icon(executable: prefix + "/bin/notif", lookup: { env[$0] }, trust: trust) == "notif")
        try FileManager.default.createDirectory(atPath: (icon as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: icon, contents: Data("<svg/>".utf8)))
        #expect(AppIcon.icon(executable: prefix + "/bin/notif", lookup: { env[$0] }, trust: trust) == icon)
        let home = scratch.path + "/home/.local/share/icons/hicolor/scalable/apps/notif.svg"
        try FileManager.default.createDirectory(atPath: (home as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: home, contents: Data("<svg/>".utf8)))
        #expect(AppIcon.icon(executable: "/opt/elsewhere/bin/notif", lookup: { env[$0] }, trust: trust) == home)
        // A file that fails the rule is passed over for the next place.
        refused = prefix
        #expect(AppIcon.icon(executable: prefix + "/bin/notif", lookup: { env[$0] }, trust: trust) == home)
        // The real rule: nothing under /tmp.
        #expect(AppIcon.icon(executable: prefix + "/bin/notif", lookup: { env[$0] }) == "notif")
        #expect(AppIcon.dataDirectories(executable: nil, lookup: { _ in nil }) == ["/usr/local/share", "/usr/share"])
    }
}
