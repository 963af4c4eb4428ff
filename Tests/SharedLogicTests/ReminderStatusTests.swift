import Testing
@testable import SharedLogic
import TestSupport

/// The one status: planned vs installed, which entries cannot fire, and the next reminder or
/// why there is none, judged from typed facts.
@Suite struct ReminderStatusTests {
    static let tips = LocalReminders.tipsAndUpdates.id
    static let nine = Instant(seconds: 1_796_112_000)

    var wanted: NotificationPreferences { .tipsOnAndAllowed }

    func status(_ p: NotificationPreferences, _ facts: SchedulerFacts, unreadable: Bool = false) -> ReminderStatus {
        ReminderStatus.compute(p, facts: facts, unreadable: unreadable, nextFire: [Self.tips: Self.nine])
    }

    func held(_ entry: InstalledEntry = InstalledEntry(id: tips, current: true), cannotFire: CannotFire? = nil) -> SchedulerFacts {
        SchedulerFacts(scheduler: .cron, entries: [entry.id: entry], schedulerCannotFire: cannotFire)
    }

    @Test func aCurrentEntryThatCanFireGivesTheNextTime() {
        let s = status(wanted, held())
        #expect(s.next == .at(Self.nine, reminderID: Self.tips))
        #expect(s.inSync && s.cannotFire.isEmpty && s.planned == [Self.tips])
    }

    /// Today's reminder waits for a notification service: that, not the next run, comes next.
    @Test func aWaitingReminderComesBeforeTheNextRun() {
        var facts = held()
        facts.waiting = [Self.tips: Instant(seconds: 1_796_025_700)]
        #expect(status(wanted, facts).next == .waiting(reminderID: Self.tips, since: Instant(seconds: 1_796_025_700)))
        #expect(status(.tipsOnAndAllowed, held()).next == .at(Self.nine, reminderID: Self.tips), "no waiter: the next run")
    }

    @Test func anEntryWhoseProgramIsGoneCannotFire() {
        let gone = InstalledEntry(id: Self.tips, current: true, program: "/opt/notif", programRunnable: false)
        let s = status(wanted, held(gone, cannotFire: .daemonNotRunning))
        #expect(s.next == .none(.cannotFire(.programMissing("/opt/notif"))), "the program first: another scheduler would not help")
        #expect(s.cannotFire == [Self.tips: .programMissing("/opt/notif")])
        #expect(s.inSync, "the entry is what apply writes; it just cannot run")
    }

    /// A SHELL line of the user's in notif's cron block decides whether its runs run at all:
    /// no next reminder is promised, and the reason names the line.
    @Test func anEntryRunWithAShellSetByHandPromisesNothing() {
        var edited = InstalledEntry(id: Self.tips, current: false)
        edited.runByHand = "SHELL=/bin/false"
        let s = status(wanted, held(edited))
        #expect(s.next == .none(.cannotFire(.shellByHand("SHELL=/bin/false"))))
        #expect(!s.inSync)
    }

    @Test(arguments: [CannotFire.noSystemd, .daemonNotRunning])
    func aSchedulerThatDoesNotRunFiresNothing(_ why: CannotFire) {
        let s = status(wanted, held(cannotFire: why))
        #expect(s.next == .none(.cannotFire(why)))
        #expect(s.cannotFire[Self.tips] == why)
    }

    @Test func whatDiffersFromThePlanIsTyped() {
        let stale = InstalledEntry(id: Self.tips, current: false)
        #expect(status(wanted, held(stale)).outOfSync == [.differs(Self.tips)])
        let disabled = InstalledEntry(id: Self.tips, current: false, enabled: false)
        #expect(status(wanted, held(disabled)).outOfSync == [.notEnabled(Self.tips)])
        let empty = SchedulerFacts(scheduler: .cron, entries: [:])
        #expect(status(wanted, empty).outOfSync == [.notInstalled(Self.tips)])
        #expect(status(wanted, empty).next == .none(.notInstalled))
        var off = wanted
        off[.tipsAndUpdates] = false
        #expect(status(off, held()).outOfSync == [.notPlanned(Self.tips)])
        #expect(status(off, held()).next == .none(.blocked(.preferenceOff, reminderID: Self.tips)))
        let unread = status(wanted, SchedulerFacts(scheduler: .systemd, entries: nil), unreadable: true)
        #expect(unread.outOfSync == [.unreadable(.systemd)] && unread.next == .none(.unreadable) && !unread.inSync)
        let none = status(wanted, SchedulerFacts(scheduler: nil, entries: nil))
        #expect(none.outOfSync == [.noScheduler(Self.tips)] && none.next == .none(.noScheduler))
    }

    @Test func blockedSettingsNameTheFirstReason() {
        var p = wanted
        p.permission = .denied
        #expect(status(p, held()).next == .none(.blocked(.permissionDenied, reminderID: Self.tips)))
        p.mode = .account
        #expect(status(p, held()).next == .none(.blocked(.accountProject, reminderID: Self.tips)))
    }

    /// With two reminders, the soonest of those that can fire; one that cannot does not hide the other.
    @Test func theSoonestFiringReminderIsNext() {
        let weekly = LocalReminder(id: "weekly", title: "Weekly", body: "b", time: DailyTime(hour: 10, minute: 0), preference: .tipsAndUpdates)
        let later = Instant(seconds: Self.nine.seconds + 3_600)
        let entries = [Self.tips: InstalledEntry(id: Self.tips, current: true, program: "/gone", programRunnable: false),
                       "weekly": InstalledEntry(id: "weekly", current: true)]
        let s = ReminderStatus.compute(wanted, facts: SchedulerFacts(scheduler: .cron, entries: entries),
                                       nextFire: [Self.tips: Self.nine, "weekly": later],
                                       reminders: [LocalReminders.tipsAndUpdates, weekly])
        #expect(s.next == .at(later, reminderID: "weekly"))
        #expect(s.cannotFire == [Self.tips: .programMissing("/gone")])
    }
}
