import Foundation
import Testing
import SharedLogic
import Storage
import TestSupport
@testable import LinuxGateway

/// notif's notifications over its own D-Bus client, on a real bus with a real (stand-in)
/// notification server: notif's name, icon and desktop entry on every one, the buttons only
/// where the service lists "actions", and a server started by the bus only from inside the
/// graphical session (`ActivationRule`).
@Suite(.serialized) struct DesktopNotifierTests {
    func notifier(_ environment: [String: String]) -> DesktopNotifier {
        DesktopNotifier(icon: "/usr/share/icons/hicolor/scalable/apps/notif.svg", timeout: 5, lookup: { environment[$0] })
    }

    @Test(.timeLimit(.minutes(10)))
    func aServiceWithActionsGetsTheButtonsAndEveryOneNotifsNameIconAndEntry() throws {
        let bus = try ServiceBus()
        try bus.startServer()
        let shown = try notifier(["DBUS_SESSION_BUS_ADDRESS": bus.address])
            .show(summary: "Tips & Updates", body: "b", actions: ReminderAction.allCases, expireMilliseconds: 0,
                  environments: [("this session", [:])]).get()
        #expect(shown.buttons && shown.words == "through this session as notification 1, with Turn off and Settings")
        let sent = try #require(bus.notifications.first)
        #expect(sent["app"] as? String == "notif" && sent["summary"] as? String == "Tips & Updates")
        #expect(sent["icon"] as? String == "/usr/share/icons/hicolor/scalable/apps/notif.svg")
        #expect(sent["actions"] as? [String] == ["turn-off", "Turn off", "settings", "Settings"])
        #expect((sent["hints"] as? [String: String])?["desktop-entry"] == "notif")
    }

    @Test(.timeLimit(.minutes(10)))
    func aServiceWithoutActionsGetsThePlainBubble() throws {
        let bus = try ServiceBus(capabilities: ["body"])
        try bus.startServer()
        let shown = try notifier(["DBUS_SESSION_BUS_ADDRESS": bus.address])
            .show(summary: "s", body: "b", actions: ReminderAction.allCases, environments: [("this session", [:])]).get()
        #expect(!shown.buttons && shown.words == "through this session as notification 1")
        #expect(bus.notifications.first?["actions"] as? [String] == [])
    }

    /// A run outside the graphical session (cron's, a timer's) never has the bus start a server;
    /// one inside it (DISPLAY set) does, as a desktop that activates its server needs.
    @Test(.timeLimit(.minutes(10)))
    func onlyARunInsideTheSessionHasTheBusStartAServer() throws {
        let bus = try ServiceBus(activatable: true)
        let outside = notifier(["DBUS_SESSION_BUS_ADDRESS": bus.address])
            .show(summary: "s", body: "b", environments: [("the user bus", [:])])
        guard case .failure(let error) = outside else {
            Issue.record("shown from outside the session: \(outside)")
            return
        }
        #expect(error.message == "the user bus: no notification service runs (outside the graphical session notif does not have the bus start one)")
        // The bus answered at once without starting it (activation happens before that answer).
        #expect(!bus.activated, "the bus started the server for a run outside the session")
        let inside = try notifier(["DBUS_SESSION_BUS_ADDRESS": bus.address, "DISPLAY": ":5"])
            .show(summary: "s", body: "b", environments: [("this session", [:])]).get()
        #expect(bus.activated && inside.words == "through this session as notification 1")
        // The recorded session's display counts for the bus it recorded.
        let bus2 = try ServiceBus(activatable: true)
        _ = try notifier([:]).show(summary: "s", body: "b",
                                   environments: [("the recorded session", ["DBUS_SESSION_BUS_ADDRESS": bus2.address, "DISPLAY": ":5"])]).get()
        #expect(bus2.activated)
    }

    @Test(.timeLimit(.minutes(10)))
    func theNextSessionIsTriedAndEveryReasonIsSaid() throws {
        let empty = try ServiceBus()
        let serving = try ServiceBus()
        try serving.startServer()
        let sessions: [(source: String, changes: [String: String?])] = [("this session", [:]),
                                                                      ("the user bus", ["DBUS_SESSION_BUS_ADDRESS": serving.address])]
        let shown = try notifier(["DBUS_SESSION_BUS_ADDRESS": empty.address]).show(summary: "s", body: "b", environments: sessions).get()
        #expect(shown.words == "through the user bus as notification 1")
        let none = notifier([:]).show(summary: "s", body: "b", environments: [("this session", [:]), ("the user bus", ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"])])
        #expect(none.map(\.words) == .failure(GatewayError("this session: DBUS_SESSION_BUS_ADDRESS is not set; the user bus: its bus unix:path=/nonexistent/bus is not used: its socket /nonexistent/bus is gone")))
        // A bus refused on the way (here: not the guid its address names) is said with the notification.
        let other = serving.address.split(separator: ",")[0] + ",guid=" + String(repeating: "0", count: 32)
        let past = try notifier(["DBUS_SESSION_BUS_ADDRESS": other]).show(summary: "s", body: "b", environments: sessions).get()
        #expect(past.words.hasPrefix("through the user bus as notification 2 (this session: its bus \(other) is not used: it is another bus than the address names (its guid is "),
                "\(past.words)")
    }

    @Test func theActivationRule() {
        let none: () -> [String]? = { nil }
        #expect(ActivationRule.allows(lookup: { $0 == "DISPLAY" ? ":0" : nil }, changes: [:], managerEnvironment: none))
        #expect(ActivationRule.allows(lookup: { $0 == "WAYLAND_DISPLAY" ? "wayland-0" : nil }, changes: [:], managerEnvironment: none))
        #expect(!ActivationRule.allows(lookup: { _ in nil }, changes: [:], managerEnvironment: none))
        #expect(ActivationRule.allows(lookup: { _ in nil }, changes: ["DISPLAY": ":1"], managerEnvironment: none), "the recorded session's")
        #expect(!ActivationRule.allows(lookup: { $0 == "DISPLAY" ? ":0" : nil }, changes: ["DISPLAY": nil], managerEnvironment: none))
        #expect(!ActivationRule.allows(lookup: { $0 == "DISPLAY" ? "" : nil }, changes: [:], managerEnvironment: none))
        #expect(ActivationRule.allows(lookup: { _ in nil }, changes: [:], managerEnvironment: { ["HOME=/h", "DISPLAY=:0"] }))
        #expect(ActivationRule.allows(lookup: { _ in nil }, changes: [:], managerEnvironment: { ["WAYLAND_DISPLAY=wayland-0"] }))
        #expect(!ActivationRule.allows(lookup: { _ in nil }, changes: [:], managerEnvironment: { ["HOME=/h", "DISPLAY=", "XDISPLAY=:0"] }))
    }

    @Test func theIconIsTheInstalledFileBesideTheProgramOrInTheDataDirectoriesElseNone() throws {
        let scratch = Scratch()
        let prefix = scratch.path + "/prefix"
        let icon = prefix + "/share/icons/hicolor/scalable/apps/notif.svg"
        let env = ["HOME": scratch.path + "/home", "XDG_DATA_DIRS": scratch.path + "/nowhere"]
        // The scratch directory is under /tmp, which the trust rule refuses: trusted here, but for a file under `refused`.
        var refused = "-"
        let trust: AppIcon.Trust = { $0.hasPrefix(refused) ? "refused" : nil }
        #expect(AppIcon.icon(executable: prefix + "/bin/notif", lookup: { env[$0] }, trust: trust) == "")
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
        #expect(AppIcon.icon(executable: prefix + "/bin/notif", lookup: { env[$0] }) == "", "a theme name the server would look up itself")
        #expect(AppIcon.dataDirectories(executable: nil, lookup: { _ in nil }) == ["/usr/local/share", "/usr/share"])
    }

    /// A desktop entry passed over by the trust rule is named with why, so the Settings button's
    /// record says it was there and not used, rather than "not installed".
    @Test func aDesktopEntryPassedOverIsNamedWithWhy() throws {
        let scratch = Scratch()
        let prefix = scratch.path + "/prefix"
        let entry = prefix + "/share/applications/notif.desktop"
        let env = ["HOME": scratch.path + "/home", "XDG_DATA_DIRS": scratch.path + "/nowhere"]
        try FileManager.default.createDirectory(atPath: (entry as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: entry, contents: Data("[Desktop Entry]\n".utf8)))
        let refused = AppIcon.desktopEntryFile(executable: prefix + "/bin/notif", lookup: { env[$0] }, trust: { _ in "B may write there" })
        #expect(refused.path == nil && refused.skipped == ["\(entry) is not used: B may write there"])
        let taken = AppIcon.desktopEntryFile(executable: prefix + "/bin/notif", lookup: { env[$0] }, trust: { _ in nil })
        #expect(taken.path == entry && taken.skipped.isEmpty)
    }

    @Test func programsAreFoundByAbsolutePathWhateverPathSays() {
        let here: Set = ["/usr/bin/sh", "/bin/sh", "/opt/mine/gio"]
        #expect(SystemProgram.path("sh", searching: "/nonexistent", isExecutable: here.contains) == "/usr/bin/sh")
        #expect(SystemProgram.path("sh", searching: nil, isExecutable: here.contains) == "/usr/bin/sh", "env -i")
        #expect(SystemProgram.path("gio", searching: "relative:/opt/mine", isExecutable: here.contains) == "/opt/mine/gio", "PATH first")
        #expect(SystemProgram.path("no-such-program-of-notif", searching: "/usr/bin") == nil)
        #expect(SystemProgram.missing("gio") == "gio is not installed (looked on PATH and in /usr/local/sbin, /usr/local/bin, /usr/sbin, /usr/bin, /sbin, /bin)")
    }
}

/// The reminder's waiter once no notification service could be reached, on a real bus with real
/// clocks (a POSIX zone where it is the wanted time now): a server that starts later gets the
/// reminder at once, recorded late; a day that ends first is recorded missed; turned off
/// meanwhile, the wait ends and says so.
@Suite(.serialized) struct WaitingForTheServiceTests {
    let tips = LocalReminders.tipsAndUpdates

    /// A POSIX TZ where the wall clock reads `hour:minute:second` now.
    static func zone(whereItIs hour: Int, _ minute: Int, _ second: Int = 0) -> (tz: String, rules: ZoneRules) {
        let now = Int(Date().timeIntervalSince1970)
        var offset = ((hour * 3600 + minute * 60 + second - now % 86_400) % 86_400 + 86_400) % 86_400
        if offset >= 43_200 { offset -= 86_400 }
        let west = -offset, magnitude = abs(west)
        let tz = "NTF" + (west < 0 ? "-" : "+") + String(format: "%d:%02d:%02d", magnitude / 3600, magnitude / 60 % 60, magnitude % 60)
        return (tz, ZoneRules(posix: tz)!)
    }

    struct Setup {
        let scratch = Scratch()
        let bus: ServiceBus
        let zone: ZoneRules
        let context: NotifContext

        init(whereItIs hour: Int, _ minute: Int, _ second: Int = 0) throws {
            bus = try ServiceBus()
            let (tz, rules) = WaitingForTheServiceTests.zone(whereItIs: hour, minute, second)
            zone = rules
            let env = ["DBUS_SESSION_BUS_ADDRESS": bus.address, "TZ": tz]
            context = NotifContext(paths: scratch.paths, clock: SystemClock(), zone: rules, runner: SpawnProcessRunner(), lookup: { env[$0] },
                                   forcedScheduler: .cron, probe: { SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: true, crontabProblem: nil) },
                                   executable: nil)
            try context.store.update { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        }

        var service: ReminderService { ReminderService(context: context) }
        var today: CivilDate { zone.localDateTime(of: context.clock.now()).date }

        /// How a wait ended, once it has.
        final class Ended: @unchecked Sendable {
            private let lock = NSLock()
            private var _value: ReminderService.WaitEnd?
            var value: ReminderService.WaitEnd? {
                get { lock.withLock { _value } }
                set { lock.withLock { _value = newValue } }
            }
            var done: Bool { value != nil }
        }

        /// Starts the wait on a thread of its own.
        func wait(since: Instant) -> Ended {
            let end = Ended()
            let service = self.service, day = today, zone = self.zone
            Thread {
                end.value = service.waitForService(LocalReminders.tipsAndUpdates, day: day, since: since, problem: "none yet", zone: { zone })
            }.start()
            return end
        }

        /// Connections on the bus now (the bus's own name among them).
        func names() throws -> Int {
            let deadline = SystemClock.monotonicNow() + 5
            let connection = try DBusConnection(address: bus.address, deadline: deadline)
            let reply = try connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                            member: "ListNames", deadline: deadline)
            var reader = reply.bodyReader
            return try reader.strings().filter { $0.hasPrefix(":") }.count - 1
        }

        var records: [DeliveryRecord] { (try? context.deliveryLog.newest(10).reversed()) ?? [] }
    }

    @Test(.timeLimit(.minutes(10)))
    func aServerThatStartsLaterGetsTheReminderOnceRecordedLate() throws {
        let setup = try Setup(whereItIs: 9, 5)
        let nine = ReminderClock.fireInstant(of: tips.time, on: setup.today, in: setup.zone)
        let end = setup.wait(since: nine)
        // The waiter is on the bus (watching for a server) before the server comes.
        #expect(try waitUntil(10) { try setup.names() >= 1 }, "the waiter never connected")
        #expect(!end.done && setup.bus.notifications.isEmpty)
        try setup.bus.startServer()
        #expect(waitUntil(10) { end.done }, "not shown once the server came")
        guard case .shown(let shown)? = end.value else {
            Issue.record("the wait ended without showing it: \(setup.records)")
            return
        }
        #expect(shown.buttons && setup.bus.notifications.count == 1)
        let record = try #require(setup.records.last)
        #expect(record.outcome == .delivered && record.day == setup.today, "\(record)")
        #expect(record.detail.contains(" min late: no notification service until then; accepted by the notification service through this session as notification 1, with Turn off and Settings"),
                "\(record.detail)")
        #expect(setup.context.state.lastShown()[tips.id]?.day == setup.today)
    }

    @Test(.timeLimit(.minutes(10)))
    func aDayThatEndsWithoutAServiceIsRecordedMissed() throws {
        let setup = try Setup(whereItIs: 23, 59, 57)
        let day = setup.today
        let end = setup.wait(since: setup.context.clock.now())
        #expect(waitUntil(15) { end.done }, "the day ended, and the waiter still waits")
        let record = try #require(setup.records.last)
        #expect(record.outcome == .missed && record.day == day, "\(record)")
        #expect(record.detail.hasPrefix("no notification service from 23:59 until the day ended (this session: no notification service runs"), "\(record.detail)")
    }

    @Test(.timeLimit(.minutes(10)))
    func turnedOffWhileItWaitsTheWaitEndsAndSaysSo() throws {
        let setup = try Setup(whereItIs: 9, 5)
        let end = setup.wait(since: setup.context.clock.now())
        #expect(try waitUntil(10) { try setup.names() >= 1 }, "the waiter never connected")
        try setup.context.store.update { $0[.tipsAndUpdates] = false }
        #expect(waitUntil(60) { end.done }, "still waiting after the reminder was turned off")
        #expect(setup.records.map(\.detail) == ["turned off while waiting for a notification service: Tips & Updates is off"])
    }
}
