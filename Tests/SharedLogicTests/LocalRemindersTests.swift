import Testing
@testable import SharedLogic
import TestSupport

@Suite struct LocalRemindersRulesTests {
    /// Every combination of the settings that matter, and some that must not.
    @Test func rulesMatrix() {
        var checked = 0
        for mode in ProjectMode.allCases {
            for push in [true, false] {
                for tips in [true, false] {
                    for permission in NotificationPermission.allCases {
                        var p = NotificationPreferences()
                        p.mode = mode
                        p[.pushNotifications] = push
                        p[.tipsAndUpdates] = tips
                        p.permission = permission
                        let expected = mode == .guest && push && tips && permission == .granted
                        let plan = LocalReminders.plan(p)
                        #expect(plan.map(\.id) == (expected ? ["tips-and-updates"] : []),
                                "mode \(mode) push \(push) tips \(tips) permission \(permission)")
                        // Queue alerts, promotions, sound and vibration never change the plan.
                        for queue in [true, false] {
                            for promotions in [true, false] {
                                for vibration in [true, false] {
                                    for sound in NotificationSound.allCases {
                                        var q = p
                                        q[.queueAlerts] = queue
                                        q[.promotions] = promotions
                                        q[.vibration] = vibration
                                        q.sound = sound
                                        #expect(LocalReminders.plan(q) == plan)
                                        checked += 1
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        #expect(checked == 2 * 2 * 2 * 3 * 32)
    }

    @Test func blockReasonsComeMostFundamentalFirst() {
        let tips = LocalReminders.tipsAndUpdates
        var p = NotificationPreferences()
        p.mode = .account
        p[.pushNotifications] = false
        #expect(LocalReminders.blockReason(for: tips, in: p) == .accountProject)
        p.mode = .guest
        #expect(LocalReminders.blockReason(for: tips, in: p) == .masterSwitchOff)
        p[.pushNotifications] = true
        #expect(LocalReminders.blockReason(for: tips, in: p) == .preferenceOff)
        p[.tipsAndUpdates] = true
        #expect(LocalReminders.blockReason(for: tips, in: p) == .permissionNotDetermined)
        #expect(LocalReminders.wouldAskPermission(p))
        p.permission = .denied
        #expect(LocalReminders.blockReason(for: tips, in: p) == .permissionDenied)
        #expect(!LocalReminders.wouldAskPermission(p))
        p.permission = .granted
        #expect(LocalReminders.blockReason(for: tips, in: p) == nil)
    }

    @Test func everyReminderHasAUniqueIdAndAToggle() {
        let ids = LocalReminders.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(LocalReminders.reminder(id: "tips-and-updates")?.time == DailyTime(hour: 9, minute: 0))
        #expect(LocalReminders.reminder(id: "nope") == nil)
        #expect(LocalReminders.all.allSatisfy { $0.preference.dependsOnMaster })
    }
}

/// An in-memory scheduler that counts calls, for the pure reconcile rules.
final class MemoryGateway: LocalNotificationGateway {
    let name = "memory"
    var entries: [String: String] = [:]
    var calls: [String] = []
    var failInstall = false
    var failInstalled = false
    var missing = false

    func installed() throws(GatewayError) -> [String: String] {
        calls.append("installed")
        if missing { throw GatewayError("not installed", schedulerMissing: true) }
        if failInstalled { throw GatewayError("cannot read") }
        return entries
    }
    func render(_ entry: ScheduledEntry) throws(GatewayError) -> String {
        "\(entry.reminder.time) \(entry.command.joined(separator: " "))"
    }
    func install(_ entry: ScheduledEntry) throws(GatewayError) {
        calls.append("install \(entry.reminder.id)")
        if failInstall { throw GatewayError("disk full") }
        entries[entry.reminder.id] = try render(entry)
    }
    func cancel(_ id: String) throws(GatewayError) {
        calls.append("cancel \(id)")
        entries[id] = nil
    }
}

@Suite struct LocalRemindersApplyTests {
    func entry(_ reminder: LocalReminder) -> ScheduledEntry {
        ScheduledEntry(reminder: reminder, command: ["/usr/bin/notif", "deliver", reminder.id],
                       catchUpCommand: ["/usr/bin/notif", "deliver", "--catch-up", reminder.id])
    }

    var on: NotificationPreferences { .tipsOnAndAllowed }

    @Test func repeatedAppliesLeaveExactlyOneEntryAndTheLaterOnesDoNothing() {
        let gateway = MemoryGateway()
        #expect(LocalReminders.apply(on, gateway: gateway, entry: entry).result(for: "tips-and-updates") == .installed)
        for _ in 0..<5 {
            gateway.calls = []
            let report = LocalReminders.apply(on, gateway: gateway, entry: entry)
            #expect(report.result(for: "tips-and-updates") == .unchanged)
            #expect(gateway.calls == ["installed"])
            #expect(report.outcomes.allSatisfy { $0.result == .unchanged })
        }
        #expect(gateway.entries.count == 1)
    }

    @Test func onOffOnOffLeavesNothing() {
        let gateway = MemoryGateway()
        var p = on
        for round in 0..<4 {
            p[.tipsAndUpdates] = round % 2 == 0
            let result = LocalReminders.apply(p, gateway: gateway, entry: entry).result(for: "tips-and-updates")
            #expect(result == (round % 2 == 0 ? .installed : .cancelled))
        }
        #expect(gateway.entries.isEmpty)
    }

    @Test func masterSwitchOffCancelsAndSaysWhy() {
        let gateway = MemoryGateway()
        _ = LocalReminders.apply(on, gateway: gateway, entry: entry)
        var p = on
        p[.pushNotifications] = false
        #expect(LocalReminders.apply(p, gateway: gateway, entry: entry).result(for: "tips-and-updates") == .cancelled)
        #expect(LocalReminders.apply(p, gateway: gateway, entry: entry).result(for: "tips-and-updates") == .blocked(.masterSwitchOff))
        #expect(gateway.entries.isEmpty)
    }

    @Test func accountModeCancelsGuestReminders() {
        let gateway = MemoryGateway()
        _ = LocalReminders.apply(on, gateway: gateway, entry: entry)
        var p = on
        p.mode = .account
        #expect(LocalReminders.apply(p, gateway: gateway, entry: entry).result(for: "tips-and-updates") == .cancelled)
        #expect(gateway.entries.isEmpty)
    }

    @Test func deniedAndUndecidedPermissionScheduleNothing() {
        for permission in [NotificationPermission.denied, .notDetermined] {
            let gateway = MemoryGateway()
            var p = on
            p.permission = permission
            let result = LocalReminders.apply(p, gateway: gateway, entry: entry).result(for: "tips-and-updates")
            #expect(result == .blocked(permission == .denied ? .permissionDenied : .permissionNotDetermined))
            #expect(gateway.entries.isEmpty)
        }
    }

    @Test func orphansAndStaleEntriesAreFixed() {
        let gateway = MemoryGateway()
        gateway.entries = ["old-reminder": "x", "tips-and-updates": "09:00 /old/path/notif deliver tips-and-updates"]
        let report = LocalReminders.apply(on, gateway: gateway, entry: entry)
        #expect(report.result(for: "old-reminder") == .cancelled)
        #expect(report.result(for: "tips-and-updates") == .installed)
        #expect(gateway.entries == ["tips-and-updates": "09:00 /usr/bin/notif deliver tips-and-updates"])
    }

    @Test func failuresAreTypedAndDoNotThrow() {
        let gateway = MemoryGateway()
        gateway.failInstall = true
        let report = LocalReminders.apply(on, gateway: gateway, entry: entry)
        #expect(report.result(for: "tips-and-updates") == .failed("disk full"))
        #expect(!report.succeeded)
        gateway.failInstalled = true
        #expect(LocalReminders.apply(on, gateway: gateway, entry: entry).result(for: "tips-and-updates") == .failed("cannot read"))
        // Unreadable, an entry that should go may still be there: not reported as done.
        var off = on
        off[.tipsAndUpdates] = false
        #expect(LocalReminders.apply(off, gateway: gateway, entry: entry).result(for: "tips-and-updates") == .failed("cannot read"))
        // A scheduler that is not installed holds nothing: off is simply off there.
        gateway.missing = true
        #expect(LocalReminders.apply(off, gateway: gateway, entry: entry).succeeded)
        #expect(LocalReminders.apply(on, gateway: gateway, entry: entry).result(for: "tips-and-updates") == .failed("not installed"))
    }
}
